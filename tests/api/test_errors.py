"""Every error is {"code", "detail"} JSON with the right status, DJANGO_DEBUG on or off: unknown
routes, methods a route does not have, uncaught exceptions, and bodies nested too deep to parse."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from games.models import Game

DEBUG = pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"], body
    return body


@DEBUG
@pytest.mark.parametrize("path", ["/nowhere/", "/api/v1/nowhere/", "/api/v1/games/x/y/z/", "/api/v2/games/"])
def test_an_unknown_route_is_a_json_404(db, debug, path):
    with override_settings(DEBUG=debug):
        error_of(Client().get(path), 404, "not_found")
        error_of(Client().post(path, "{}", content_type="application/json"), 404, "not_found")


@DEBUG
def test_an_unknown_route_asked_for_html_is_still_json(db, debug):
    with override_settings(DEBUG=debug):
        error_of(Client().get("/api/v1/nowhere/", HTTP_ACCEPT="text/html"), 404, "not_found")


@DEBUG
@pytest.mark.parametrize("path", ["/login", "/nowhere/", "/games/1/"])
def test_a_browser_asking_for_an_unknown_page_gets_an_html_page(db, debug, path):
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    with override_settings(DEBUG=debug):
        page = Client().get(path, HTTP_ACCEPT=browser)
        assert page.status_code == 404 and page["Content-Type"].startswith("text/html"), page["Content-Type"]
        text = page.content.decode()
        assert "<h1>No such page</h1>" in text and 'href="/"' in text and "not_found" not in text
        # A program asking for the same path (or any path, by POST) still gets the JSON error.
        error_of(Client().get(path), 404, "not_found")
        error_of(Client().post(path, "{}", content_type="application/json", HTTP_ACCEPT=browser), 404, "not_found")


@DEBUG
@pytest.mark.parametrize(
    "method, path", [("delete", "/api/v1/kinds/"), ("put", "/api/v1/games/"), ("patch", "/api/v1/accounts/register/")]
)
def test_a_method_the_route_lacks_is_a_json_405_with_allow(alice, debug, method, path):
    with override_settings(DEBUG=debug):
        for accept in ("application/json", "text/html"):
            response = getattr(alice.client, method)(path, HTTP_ACCEPT=accept)
            error_of(response, 405, "method_not_allowed")
            assert "GET" in response["Allow"] or "POST" in response["Allow"]


@DEBUG
def test_an_uncaught_exception_is_a_json_500_and_is_logged(db, debug, monkeypatch, caplog):
    from games.api import views

    def broken(kind):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "kind_info", broken)
    with override_settings(DEBUG=debug), caplog.at_level("ERROR", logger="django.request"):
        response = Client(raise_request_exception=False).get("/api/v1/kinds/")
    body = error_of(response, 500, "server_error")
    assert "a bug" not in json.dumps(body), "the exception's text stays in the log"
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)


@DEBUG
def test_an_api_error_asked_for_html_is_json(alice, debug):
    with override_settings(DEBUG=debug):
        response = alice.client.get("/api/v1/games/00000000-0000-0000-0000-000000000000/", HTTP_ACCEPT="text/html")
    error_of(response, 404, "not_found")


def test_the_admin_keeps_its_html_pages(admin_client):
    response = admin_client.get("/admin/games/game/00000000-0000-0000-0000-000000000000/nothing/")
    assert response.status_code in (302, 404)
    assert not response.get("Content-Type", "").startswith("application/json")


# ---------------------------------------------------------------------------------------------
# Deeply nested bodies: refused by the parser, before anything recurses over them
# ---------------------------------------------------------------------------------------------
def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize("depth", [65, 950, 5000, 20000])
def test_deeply_nested_json_is_a_400_malformed_and_writes_nothing(alice, depth):
    body = '{"kind": "duel", "options": %s}' % nested(depth)
    assert len(body) < 64 * 1024, "under the size limit: the nesting is the problem"
    response = alice.client.post("/api/v1/games/", body, content_type="application/json")
    assert "nested deeper than" in error_of(response, 400, "malformed")["detail"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "path, method",
    [
        ("/api/v1/accounts/register/", "post"),
        ("/api/v1/accounts/token/", "post"),
        ("/api/v1/accounts/preferences/", "put"),
        ("/api/v1/accounts/webhooks/", "post"),
        ("/api/v1/accounts/vacation/", "post"),
    ],
)
def test_deep_nesting_is_refused_on_every_json_endpoint(alice, path, method):
    body = '{"a": %s}' % nested(950, "{}")
    response = getattr(alice.client, method)(path, body, content_type="application/json")
    error_of(response, 400, "malformed")


def test_deep_nesting_of_a_move_is_refused(alice, duel):
    body = '{"expected_version": 0, "move": {"type": "play", "card": %s}}' % nested(950, '"D01"')
    response = alice.client.post(f"/api/v1/games/{duel}/moves/", body, content_type="application/json")
    error_of(response, 400, "malformed")


def test_nesting_within_the_limit_is_judged_as_usual(alice):
    """64 levels parse; the options are then refused by their schema, as any wrong option is."""
    body = '{"kind": "duel", "options": {"hand_size": %s}}' % nested(62)
    response = alice.client.post("/api/v1/games/", body, content_type="application/json")
    error_of(response, 400, "invalid")


def test_brackets_inside_strings_do_not_count(alice):
    body = json.dumps({"username": "x" + "[" * 140, "password": "]" * 100})
    response = alice.client.post("/api/v1/accounts/token/", body, content_type="application/json")
    error_of(response, 400, "bad_credentials")


@pytest.mark.parametrize(
    "body",
    [
        {"username": 12345678, "password": "correct horse battery"},
        {"username": "numbers", "password": -123456789.5},
        {"username": "numbers", "password": "correct horse battery", "email": 7},
        {"username": ["numbers"], "password": "correct horse battery"},
    ],
    ids=["a number for a name", "a number for a password", "for an email", "a list"],
)
def test_anything_but_a_string_where_the_document_says_string_is_a_400_and_writes_nothing(db, body):
    # games.api.serializers.StrictInput: DRF would have taken the number 12345678 as the name "12345678",
    # and -123456789.5 as a (valid) password.
    from accounts.models import User

    response = Client().post("/api/v1/accounts/register/", body, content_type="application/json")
    body = error_of(response, 400, "invalid")
    assert User.objects.count() == 0


def test_a_game_is_not_created_from_a_body_of_the_wrong_types(alice, make_player):
    make_player("42")  # a name a number would have been taken for
    for body in ({"kind": "duel", "invite": [42]}, {"kind": "duel", "private": 1}):
        error_of(alice.post("/api/v1/games/", body), 400, "invalid")
    assert not Game.objects.exists()


def test_strings_are_still_taken_as_strings(alice, make_player):
    # The rule refuses what is not a string; a string goes on to the field's own checks.
    make_player("42")
    assert alice.post("/api/v1/games/", {"kind": "duel", "invite": ["42"], "private": False}).status_code == 201
    error_of(alice.post("/api/v1/games/", {"kind": "x" * 33}), 400, "invalid")  # longer than 32
