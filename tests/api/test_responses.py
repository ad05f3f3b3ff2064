"""Real responses validate against the document: every kind played whole over HTTP, each answer
checked against its operation's documented status and schema, each state against its kind's own
`<Kind>View` component (and not against another kind's: a client can pick by `kind`)."""

from __future__ import annotations

import random
from datetime import datetime

import pytest
from django.utils import timezone as dj_timezone

from games.api.schema import kind_name
from games.play.kinds import all_kinds
from tests.api.openapi import Contract, fetch_document
from tests.conftest import start_game

from games import engines
from games.engines.base import Engine
from games.play.kinds import get_engine

# The kinds with view schemas of their own (the test game keeps the default).
PRECISE = [k for k in engines.kinds() if type(get_engine(k)).view_schema is not Engine.view_schema]


@pytest.fixture(scope="module")
def contract(django_db_blocker):
    with django_db_blocker.unblock():
        return Contract(fetch_document())


def checked(contract, player, method, path, body=None, validate=True, **extra):
    call = getattr(player.client, method)
    response = call(path, body, format="json", **extra) if body is not None or method != "get" else call(path, **extra)
    if validate:
        contract.check_response(method, path, response)
    return response


def state_fits_only_its_kind(contract, kind, state):
    own = contract.component(f"{kind_name(kind)}View")
    errors = list(own.iter_errors(state))
    assert not errors, f"{kind}: {[(list(e.absolute_path), e.message[:200]) for e in errors[:3]]}"
    for other in PRECISE:
        if other != kind and kind in PRECISE:  # the default schema takes any object
            assert not contract.component(f"{kind_name(other)}View").is_valid(state), (
                f"a {kind} view also passes as {other}'s: a client could not tell them apart"
            )


# Photoshoot: two teams (4 seats) and a short hourglass. Its rounds end when the hourglass runs
# out (no worker here: the first move after it settles it, a system event, and is refused; see
# `ran_out`). "Photo!" is favoured so a team reaches 25 in a few rounds.
SETUP = {"photoshoot": (4, {"hourglass_seconds": 5})}


def choose(kind, chooser, moves):
    photos = [m for m in moves if m.get("type") == "photo"]
    return photos[0] if kind == "photoshoot" and photos and chooser.random() < 0.6 else chooser.choice(moves)


def ran_out(state):
    """Whether the round's hourglass has run out by now: a move racing it is refused, with a 409
    when its end was settled first, else with a 400 (the rules: the round is over)."""
    deadline = state.get("deadline")
    return deadline is not None and datetime.fromisoformat(deadline.replace("Z", "+00:00")) <= dj_timezone.now()


@pytest.mark.parametrize("kind", all_kinds())
def test_a_whole_game_of_every_kind_answers_as_documented(kind, make_player, contract):
    players, options = SETUP.get(kind, (get_engine(kind).min_players, None))
    seats = [make_player() for _ in range(players)]
    spectator = make_player()
    game_id = start_game(seats[0], seats[1:], kind=kind, options=options)
    base = f"/api/v1/games/{game_id}/"
    chooser = random.Random(kind)
    checks = 0
    for step in range(5000):
        detail = checked(contract, seats[0], "get", base).json()
        if detail["status"] != "active":
            break
        state_fits_only_its_kind(contract, kind, detail["state"])
        if step % 7 == 0:
            for viewer in (spectator, seats[-1]):
                shown = checked(contract, viewer, "get", base).json()
                state_fits_only_its_kind(contract, kind, shown["state"])
                checked(contract, viewer, "get", f"{base}events/?after={max(0, detail['version'] - 5)}")
                at = checked(contract, viewer, "get", f"{base}state/?at={detail['version'] - 1}").json()
                if at["state"] is not None:  # null: before the game started
                    state_fits_only_its_kind(contract, kind, at["state"])
                checks += 1
        seat = chooser.choice(detail["active_seats"])
        # Provence lists hundreds of placements: every item is checked on every 5th step only.
        listed = checked(contract, seats[seat], "get", f"{base}legal-moves/", validate=step % 5 == 0).json()
        answer = checked(
            contract,
            seats[seat],
            "post",
            f"{base}moves/",
            {"move": choose(kind, chooser, listed["moves"]), "expected_version": listed["version"]},
        )
        if kind == "photoshoot" and answer.status_code != 201 and ran_out(detail["state"]):
            continue  # the hourglass ran out under the move: refused (and checked) as documented
        assert answer.status_code == 201, (answer.content, listed)
        state_fits_only_its_kind(contract, kind, answer.json()["state"])
    assert detail["status"] == "finished" and detail["result"]["winners"]
    assert contract.component("Result").is_valid(detail["result"])
    state_fits_only_its_kind(contract, kind, detail["state"])
    for player in (seats[0], spectator):
        checked(contract, player, "get", f"{base}events/?limit=1000")
        checked(contract, player, "get", "/api/v1/games/?mine=true")
    inbox = checked(contract, seats[1], "get", "/api/v1/notifications/").json()
    assert inbox["results"], "the game's end reached the inbox"
    assert checks >= 2, "views at several steps were checked"


def test_clocks_and_notification_data_are_as_documented(make_player, contract):
    alice, bob = make_player(), make_player()
    game_id = start_game(alice, [bob], kind="duel", options={"time_control": "bank"})
    detail = checked(contract, alice, "get", f"/api/v1/games/{game_id}/").json()
    assert detail["clocks"]["control"] == "bank"
    assert contract.component("Clocks").is_valid(detail["clocks"])
    assert not contract.component("Clocks").is_valid({"control": "bank", "seats": {"0": {"left": 1}}})
    inbox = checked(contract, bob, "get", "/api/v1/notifications/").json()
    for note in inbox["results"]:
        assert contract.component("NotificationData").is_valid(note["data"])


def test_the_once_bodiless_operations_answer_as_documented(make_player, contract):
    alice, bob = make_player(), make_player()
    game_id = start_game(alice, [bob], kind="duel")
    checked(contract, alice, "get", "/api/v1/accounts/vacation/")
    assert checked(contract, alice, "post", "/api/v1/accounts/vacation/", {"days": 1}).status_code == 201
    assert checked(contract, alice, "get", "/api/v1/accounts/vacation/").json()["on_vacation"] is True
    assert checked(contract, alice, "delete", "/api/v1/accounts/vacation/").status_code == 204
    assert checked(contract, bob, "post", f"/api/v1/games/{game_id}/mute/").json() == {"muted": True}
    assert checked(contract, bob, "delete", f"/api/v1/games/{game_id}/mute/").json() == {"muted": False}
    checked(contract, bob, "get", "/api/v1/notifications/unread-count/")
    checked(contract, bob, "post", "/api/v1/notifications/read-all/")
    checked(contract, bob, "get", "/api/v1/notifications/?unread=true")


# In French too: the codes, statuses and keys are the contract, the same in every language.
@pytest.mark.parametrize("language", ["en", "fr"])
def test_errors_answer_as_documented(make_player, anonymous, contract, duel, alice, bob, language):
    for client in (alice.client, bob.client, anonymous):
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    base = f"/api/v1/games/{duel}/"
    checked(contract, alice, "get", "/api/v1/games/00000000-0000-0000-0000-000000000000/")  # 404
    checked(contract, alice, "post", f"{base}moves/", {"move": {"type": "nope"}, "expected_version": 999})
    checked(contract, alice, "post", f"{base}moves/", {"move": "x"})  # 400 invalid
    checked(contract, alice, "post", f"{base}join/")  # 409
    checked(contract, alice, "post", "/api/v1/games/", {"kind": "duel", "options": {"nope": 1}})
    checked(contract, alice, "get", "/api/v1/games/?status=bogus")
    checked(contract, alice, "get", f"{base}events/?after=-1")
    assert checked(contract, bob, "post", f"{base}moves/", "[]", HTTP_IDEMPOTENCY_KEY="\t").status_code == 400
    response = anonymous.get(f"{base}legal-moves/")
    contract.check_response("get", f"{base}legal-moves/", response)
    assert response.status_code == 401
    response = alice.client.post("/api/v1/games/", "<x/>", content_type="application/xml")
    contract.check_response("post", "/api/v1/games/", response)
    assert response.status_code == 415
    response = alice.client.post("/api/v1/games/", '{"kind": "%s"}' % ("x" * 70_000), content_type="application/json")
    contract.check_response("post", "/api/v1/games/", response)
    assert response.status_code == 413


def test_304_and_the_etag_header(contract, duel, alice):
    first = checked(contract, alice, "get", f"/api/v1/games/{duel}/")
    again = alice.client.get(f"/api/v1/games/{duel}/", HTTP_IF_NONE_MATCH=first["ETag"])
    contract.check_response("get", f"/api/v1/games/{duel}/", again)
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
