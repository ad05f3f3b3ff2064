"""The rest of the API contract: ETag/304, replay at N, long-polling, disputes, the schema."""

import threading
import time

import pytest
from django.db import connections

from games.models import Dispute, Event


def test_get_game_has_an_etag_and_answers_304_when_unchanged(alice, duel):
    first = alice.get(f"/api/v1/games/{duel}/")
    etag = first["ETag"]
    again = alice.client.get(f"/api/v1/games/{duel}/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    alice.move(duel, {"type": "play", "card": first.json()["state"]["hand"][0]})
    changed = alice.client.get(f"/api/v1/games/{duel}/", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_etag_differs_per_viewer_because_the_view_does(alice, bob, duel):
    assert alice.get(f"/api/v1/games/{duel}/")["ETag"] != bob.get(f"/api/v1/games/{duel}/")["ETag"]


def test_state_at_n_replays_the_callers_view(alice, duel):
    start = alice.game(duel)
    card = start["state"]["hand"][0]
    alice.move(duel, {"type": "play", "card": card})
    before = alice.get(f"/api/v1/games/{duel}/state/", at=start["version"]).json()
    after = alice.get(f"/api/v1/games/{duel}/state/", at=start["version"] + 1).json()
    assert card in before["state"]["hand"] and card not in after["state"]["hand"]
    assert alice.get(f"/api/v1/games/{duel}/state/", at=1).json()["state"] is None  # before the start


@pytest.mark.parametrize("at", ["-1", "999", "x"])
def test_state_at_an_impossible_n_is_400(alice, duel, at):
    response = alice.get(f"/api/v1/games/{duel}/state/", at=at)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_events_after_n_returns_only_the_tail(alice, duel):
    events = alice.get(f"/api/v1/games/{duel}/events/", after=2).json()["events"]
    assert [e["seq"] for e in events] == [3, 4]
    assert [e["type"] for e in events] == ["PlayerJoined", "GameStarted"]


def test_the_log_never_shows_the_seed_before_the_end(alice, duel):
    created = alice.get(f"/api/v1/games/{duel}/events/").json()["events"][0]
    assert created["type"] == "GameCreated" and "seed" not in created["data"]
    assert created["data"]["seed_hash"] == alice.game(duel)["seed_hash"]


@pytest.mark.django_db(transaction=True)
def test_a_long_poll_wakes_when_someone_moves(alice, bob, duel):
    version = alice.game(duel)["version"]
    card = alice.game(duel)["state"]["hand"][0]

    def move_soon():
        time.sleep(0.5)
        alice.move(duel, {"type": "play", "card": card}, version)
        connections.close_all()

    mover = threading.Thread(target=move_soon)
    started = time.monotonic()
    mover.start()
    response = bob.get(f"/api/v1/games/{duel}/events/", after=version, wait=20)
    waited = time.monotonic() - started
    mover.join()
    assert [e["seq"] for e in response.json()["events"]] == [version + 1]
    assert waited < 15  # woke on the news, not at the end of the wait


def test_a_long_poll_with_news_already_there_returns_at_once(alice, duel):
    response = alice.get(f"/api/v1/games/{duel}/events/", after=0, wait=30)
    assert len(response.json()["events"]) == 4


@pytest.mark.parametrize("params", [{"wait": "31"}, {"wait": "-1"}, {"after": "x"}, {"limit": "0"}])
def test_bad_event_query_parameters_are_400(alice, duel, params):
    response = alice.get(f"/api/v1/games/{duel}/events/", **params)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_a_player_disputes_an_event_and_staff_see_it(alice, carol, duel):
    response = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": 4, "reason": "the deal looks off"})
    assert response.status_code == 201 and response.json()["status"] == "open"
    # A dispute is a row for staff, not an event (tests/games/test_disputes.py)
    assert Event.objects.filter(game_id=duel, type="DisputeOpened").count() == 0
    assert alice.get(f"/api/v1/games/{duel}/disputes/").json()[0]["reason"] == "the deal looks off"
    stranger = carol.post(f"/api/v1/games/{duel}/disputes/", {"seq": 4, "reason": "x"})
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_a_player")


@pytest.mark.parametrize("body", [{"seq": 99, "reason": "x"}, {"seq": 1}, {"seq": 1, "reason": ""}, {}])
def test_bad_disputes_are_400_and_write_nothing(alice, duel, body):
    response = alice.post(f"/api/v1/games/{duel}/disputes/", body)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert Dispute.objects.count() == 0


def test_the_openapi_schema_documents_every_endpoint_and_the_move_vocabulary(anonymous):
    response = anonymous.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in [
        "/api/v1/games/",
        "/api/v1/games/{game_id}/moves/",
        "/api/v1/games/{game_id}/events/",
        "/api/v1/games/{game_id}/state/",
        "/api/v1/accounts/register/",
        "/api/v1/kinds/",
    ]:
        assert path in schema["paths"], path
    assert "Idempotency-Key" in str(schema["paths"]["/api/v1/games/{game_id}/moves/"])


def test_interactive_docs_are_served_from_the_app_not_a_cdn(anonymous):
    response = anonymous.get("/api/v1/docs/")
    html = response.content.decode()
    assert response.status_code == 200 and "swagger-ui" in html
    assert "cdn" not in html.lower() and "/static/drf_spectacular_sidecar/" in html
    assert anonymous.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js").status_code == 200
