"""What schemathesis found, each pinned by a test of its own (see tests/api/test_fuzz.py)."""

from __future__ import annotations

import re
import tomllib

import pytest

from tests.api.openapi import fetch_document, request_bodies
from tests.api.test_fuzz import CONFIG


def test_a_deleted_webhook_is_gone_for_its_owner(alice):
    hook = alice.post(
        "/api/v1/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook"}
    ).json()  # tests allow loopback; no DNS here
    path = f"/api/v1/accounts/webhooks/{hook['id']}/"
    assert alice.client.delete(path).status_code == 204
    assert alice.get(f"{path}deliveries/").status_code == 404
    assert alice.client.delete(path).status_code == 404, "deleting twice: the second finds nothing"
    assert alice.get("/api/v1/accounts/webhooks/").json() == []


@pytest.mark.parametrize(
    "query",
    [
        "limit=abc",
        "limit=0",
        "limit=1001",
        "offset=-1",
        "offset=null",
        "mine=null",
        "mine=2",
        "mine=",
        "limit=",
        "limit=%203%0A",
        "limit=%D9%A3",
        "limit=1&limit=2",
        "mine=true&mine=false",
        "offset=1000000001",
        "offset=9223372036854775808",
        "status=",
        "offset=" + "9" * 5000,
    ],
)
def test_the_games_list_refuses_query_values_the_document_does_not_allow(alice, query):
    response = alice.client.get(f"/api/v1/games/?{query}")
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content


@pytest.mark.parametrize("query", ["unread=null", "limit=-5", "offset=x"])
def test_the_inbox_refuses_query_values_the_document_does_not_allow(alice, query):
    response = alice.client.get(f"/api/v1/notifications/?{query}")
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content


@pytest.mark.parametrize(
    "query, count",
    [
        ("mine=true", 1),
        ("mine=false", 2),
        ("mine=0", 2),
        ("offset=1000000000", 2),
        ("offset=999999999", 2),
        ("limit=1", 2),
        ("limit=1&offset=1", 2),
    ],
)
def test_allowed_query_values_still_work(alice, bob, query, count):
    alice.post("/api/v1/games/", {"kind": "duel"})
    bob.post("/api/v1/games/", {"kind": "duel"})
    page = alice.client.get(f"/api/v1/games/?{query}").json()
    assert page["count"] == count
    if "limit=1" in query:
        assert len(page["results"]) == 1


def test_the_account_email_may_be_empty_as_documented(make_player):
    from rest_framework.test import APIClient

    client = APIClient()
    token = client.post(
        "/api/v1/accounts/register/", {"username": "noemail", "password": "correct horse battery"}, format="json"
    ).json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/accounts/me/").json()["email"] == ""


@pytest.mark.parametrize("kind", ["a%00b", "chess", "", "duel&kind=pickpic"])
def test_listing_games_of_an_unknown_kind_is_refused(alice, kind):
    """A NUL in `kind` reached PostgreSQL (a 500); now only the kinds the server plays pass."""
    response = alice.client.get(f"/api/v1/games/?kind={kind}")
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content


def test_listing_games_of_a_known_kind_still_filters(alice):
    alice.post("/api/v1/games/", {"kind": "duel"})
    assert alice.client.get("/api/v1/games/?kind=duel").json()["count"] == 1
    assert alice.client.get("/api/v1/games/?kind=pickpic").json()["count"] == 0


@pytest.mark.parametrize("query", ["at=", "at=%203", "at=%D9%A3", "at=1&at=2"])
def test_state_at_takes_one_plain_whole_number(alice, duel, query):
    """`int()` took " 3" and the Arabic-Indic digit three, so ?at=<garbage> could answer 200."""
    response = alice.client.get(f"/api/v1/games/{duel}/state/?{query}")
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content


def test_a_nul_in_a_move_is_refused_before_the_database(make_player):
    """PostgreSQL's jsonb cannot hold a NUL. Pick Pic's engine refuses control characters in a
    comment itself; the API refuses NUL for every kind, before an engine or the database sees it."""
    from tests.conftest import start_game

    seats = [make_player() for _ in range(3)]
    game_id = start_game(seats[0], seats[1:], kind="pickpic", options={"comments": True})
    for player in seats:  # the give phase: everyone gives, then the rank phase starts
        listed = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert player.move(game_id, listed["moves"][0], listed["version"]).status_code == 201
    listed = seats[0].get(f"/api/v1/games/{game_id}/legal-moves/").json()
    rank = listed["moves"][0]
    assert rank["type"] == "rank"
    with_nul = {**rank, "comments": {str(rank["order"][0]): "fine\u0000light"}}
    response = seats[0].move(game_id, with_nul, listed["version"])
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content
    assert "NUL" in response.json()["detail"]
    assert seats[0].game(game_id)["version"] == listed["version"], "nothing was written"
    commented = {**rank, "comments": {str(rank["order"][0]): "fine light"}}
    assert seats[0].move(game_id, commented, listed["version"]).status_code == 201


def test_a_nul_in_options_is_refused(alice):
    response = alice.post("/api/v1/games/", {"kind": "duel", "options": {"x\u0000": 1}})
    assert response.status_code == 400 and "NUL" in response.json()["detail"]


def test_unsubscribing_an_endpoint_with_a_nul_is_refused_as_the_document_says(alice):
    # schemathesis sent one: a string the document allowed, that PostgreSQL's text cannot hold.
    doc = fetch_document()
    body = doc["paths"]["/api/v1/push/subscriptions/unsubscribe/"]["post"]["requestBody"]["content"]["application/json"]
    endpoint = doc["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]["properties"]["endpoint"]
    pattern = re.compile(endpoint["pattern"])  # JSON Schema's, which Python's re also reads
    assert pattern.search("https://push.example/1") and not pattern.search("https://push.example/\x00")
    response = alice.post("/api/v1/push/subscriptions/unsubscribe/", {"endpoint": "https://push.example/\x00"})
    assert response.status_code == 400 and set(response.json()) >= {"code", "detail"}, response.content


def test_unsubscribing_an_empty_endpoint_is_refused_as_the_document_says(alice):
    # schemathesis sent "": the document allowed it, the server refused it (400, not blank).
    doc = fetch_document()
    body = doc["paths"]["/api/v1/push/subscriptions/unsubscribe/"]["post"]["requestBody"]["content"]["application/json"]
    endpoint = doc["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]["properties"]["endpoint"]
    assert endpoint["minLength"] == 1
    response = alice.post("/api/v1/push/subscriptions/unsubscribe/", {"endpoint": ""})
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content
    missing = alice.post("/api/v1/push/subscriptions/unsubscribe/", {"endpoint": "x"})
    assert missing.status_code == 404 and missing.json()["code"] == "not_found", missing.content


def test_every_whole_number_of_a_request_body_is_where_the_fuzzer_expects_2_0_refused():
    """The API refuses `2.0` where it takes an integer (docs/api.md, strict types); JSON Schema,
    and so schemathesis, calls 2.0 an integer. Following a game on a stream with `after: 2.0`
    was a schema-valid request refused: every operation with an integer in its body must be
    among those whose 400s the fuzzer is told to expect (tests/api/schemathesis.toml)."""
    doc = fetch_document()
    tolerant = re.compile(tomllib.loads(CONFIG.read_text())["operations"][0]["include-path-regex"])
    strict = sorted(
        {
            f"{method.upper()} {path}"
            for method, path, media_type, schema in request_bodies(doc)
            if media_type == "application/json" and any(integers(doc, schema)) and not tolerant.match(path)
        }
    )
    assert strict == []


def integers(doc: dict, schema: dict, seen: frozenset = frozenset()):
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name not in seen:
            yield from integers(doc, doc["components"]["schemas"][name], seen | {name})
        return
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            yield from integers(doc, part, seen)
    kinds = schema.get("type") or []
    if "integer" == kinds or "integer" in kinds:
        yield True
    for part in schema.get("properties", {}).values():
        yield from integers(doc, part, seen)
    if isinstance(schema.get("items"), dict):
        yield from integers(doc, schema["items"], seen)


def test_every_free_string_of_a_request_body_says_it_holds_no_nul():
    """DRF refuses a NUL in any string field (PostgreSQL's text cannot hold one); a request string
    with no enum, format or pattern would let a client believe one acceptable. The operations
    whose 400s schemathesis is told to expect (tests/api/schemathesis.toml) judge more than
    the schema says anyway; every other one must say it."""
    doc = fetch_document()
    tolerant = re.compile(tomllib.loads(CONFIG.read_text())["operations"][0]["include-path-regex"])
    loose = []
    for method, path, media_type, schema in request_bodies(doc):
        if media_type == "application/json" and not tolerant.match(path):
            loose += [f"{method.upper()} {path}: {name}" for name in free_strings(doc, schema)]
    assert loose == []


def free_strings(doc: dict, schema: dict, where: str = "", seen: frozenset = frozenset()):
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        if name not in seen:
            yield from free_strings(doc, doc["components"]["schemas"][name], name, seen | {name})
        return
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            yield from free_strings(doc, part, where, seen)
    kinds = schema.get("type") or []
    if ("string" == kinds or "string" in kinds) and not {"enum", "pattern", "format", "const"} & set(schema):
        yield where
    for name, part in schema.get("properties", {}).items():
        yield from free_strings(doc, part, f"{where}.{name}", seen)
    if isinstance(schema.get("items"), dict):
        yield from free_strings(doc, schema["items"], f"{where}[]", seen)
