"""Photoshoot over HTTP with a real Celery worker running the hourglass: whole team and
cooperative games, the ready step, challenges, the 409 of a stale teammate, and moves after the
hourglass refused."""

from datetime import datetime

import pytest
from django.utils import timezone

from games.play import store
from games.models import Event, Game
from tests.conftest import start_game
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]
SECONDS = 5


@pytest.fixture
def worker():
    purge_queue()
    w = Worker().start()
    yield w
    w.stop()
    purge_queue()


def view(player, game_id):
    return player.game(game_id)["state"]


def ready_all(players, game_id):
    """Every seat that must be ready posts `ready` (and mends the square if asked)."""
    for _ in range(20):
        state = view(players[0], game_id)
        if state["phase"] != "ready":
            return state
        for seat in state["active"]:
            moves = players[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
            wanted = {"ready", "mend"}
            listed = [m for m in moves.get("moves", moves if isinstance(moves, list) else []) if m["type"] in wanted]
            move = listed[0] if listed else {"type": "ready"}
            response = players[seat].move(game_id, move)
            if response.status_code == 201:
                break
    return view(players[0], game_id)


def wait_round_end(game_id, rounds_done, worker):
    ok = wait_for(
        lambda: Event.objects.filter(game_id=game_id, type="HourglassRanOut").count() >= rounds_done,
        timeout=SECONDS + 25,
    )
    assert ok, worker.output()[-3000:]


def test_the_kind_is_listed_with_options_and_move_schema(anonymous):
    kinds = {k["kind"]: k for k in anonymous.get("/api/v1/kinds/").json()}
    info = kinds["photoshoot"]
    assert info["min_players"] == 2 and info["max_players"] == 6
    props = info["options_schema"]["properties"]
    assert props["hourglass_seconds"]["default"] == 90 and props["hourglass_seconds"]["minimum"] == 5
    assert props["level"]["default"] == 1
    assert {m["properties"]["type"]["const"] for m in info["move_schema"]["oneOf"]} >= {
        "ready",
        "swap",
        "push",
        "photo",
        "challenge",
        "wave",
        "answer",
        "mend",
    }


def photos_until_the_hourglass(players, game_id):
    """The photographers shout "Photo!" in turn, nobody challenges (each counts: 2 points), until
    the server ends the round; a move that loses the race with the hourglass is refused."""
    detail = players[0].game(game_id)
    version, state = detail["version"], detail["state"]
    while state["phase"] == "round":
        response = players[state["turn"]].move(game_id, {"type": "photo"}, expected_version=version)
        if response.status_code == 201:
            version, state = response.json()["version"], response.json()["state"]
            continue
        assert response.json()["code"] in (
            "version_conflict",
            "unavailable_move",
            "not_your_turn",
            "game_not_active",
        ), response.content
        detail = players[0].game(game_id)
        version, state = detail["version"], detail["state"]
    return state


def test_a_whole_team_game_over_http_with_the_hourglass_fired_by_the_worker(make_player, worker):
    players = [make_player() for _ in range(4)]
    game_id = start_game(players[0], players[1:], kind="photoshoot", options={"hourglass_seconds": SECONDS})
    state = view(players[0], game_id)
    assert state["phase"] == "ready" and state["deadline"] is None and state["teams"] == [[0, 2], [1, 3]]

    # Round 1: team 0 photographs.
    state = ready_all(players, game_id)
    assert state["phase"] == "round"
    deadline = datetime.fromisoformat(state["deadline"].replace("Z", "+00:00"))
    assert Game.objects.get(pk=game_id).next_deadline == deadline
    # a teammate acting out of turn is refused
    wrong = players[2].move(game_id, {"type": "swap", "cells": [0, 1]})
    assert (wrong.status_code, wrong.json()["code"]) == (409, "not_your_turn")
    # a teammate's action decided on a stale version gets the usual 409
    version = players[0].game(game_id)["version"]
    assert players[0].move(game_id, {"type": "swap", "cells": [0, 1]}, expected_version=version).status_code == 201
    stale = players[2].move(game_id, {"type": "swap", "cells": [1, 2]}, expected_version=version)
    assert (stale.status_code, stale.json()["code"]) == (409, "version_conflict")
    # the control team challenges the latest action (a correct swap): photographers gain a token
    challenged = players[1].move(game_id, {"type": "challenge", "action": 1}, expected_version=version + 1)
    assert challenged.status_code == 201, challenged.content
    assert challenged.json()["state"]["tally"]["photographer_tokens"] == 1
    photos_until_the_hourglass(players, game_id)
    wait_round_end(game_id, 1, worker)
    # an action after the hourglass is refused: the round is over
    late = players[0].move(game_id, {"type": "photo"})
    assert late.status_code in (400, 409) and late.json()["code"] in ("unavailable_move", "not_your_turn")
    state = view(players[3], game_id)
    assert state["photographers"] == 1 and state["deadline"] is None
    assert state["last_round"]["points"][0] == 2 * state["last_round"]["validated"] + 1

    # Round 2 on: the teams alternate until one has 25 and both had as many photographer rounds.
    rounds = 1
    while Game.objects.get(pk=game_id).status == "active":
        state = ready_all(players, game_id)
        if state["phase"] != "round":
            break
        photos_until_the_hourglass(players, game_id)
        rounds += 1
        wait_round_end(game_id, rounds, worker)
    assert wait_for(lambda: Game.objects.get(pk=game_id).status == "finished", timeout=10)
    game = Game.objects.get(pk=game_id)
    assert rounds % 2 == 0, "both teams had as many photographer rounds"
    expiries = Event.objects.filter(game_id=game_id, type="TimerExpired")
    assert expiries.count() == rounds and {e.data["timer"] for e in expiries} == {"hourglass"}
    final = store.replay_from_scratch(game)
    assert game.result["teams"] == [[0, 2], [1, 3]] and game.result["team_scores"] == final["scores"]
    assert max(final["scores"]) >= 25
    best = max(final["scores"])
    assert game.result["winners"] == sorted(
        s for t, team in enumerate(final["teams"]) for s in team if final["scores"][t] == best
    )
    assert final == store.state_at(game)


def test_a_whole_cooperative_game_over_http(make_player, worker):
    players = [make_player() for _ in range(2)]
    game_id = start_game(players[0], players[1:], kind="photoshoot", options={"hourglass_seconds": SECONDS})
    for round_no in range(1, 6):
        state = ready_all(players, game_id)
        assert state["round"] == round_no and state["phase"] == "round"
        response = players[state["turn"]].move(game_id, {"type": "photo"})  # false: the referee catches it
        assert response.status_code == 201
        assert response.json()["state"]["tally"]["control_tokens"] == 1
        wait_round_end(game_id, round_no, worker)
    assert wait_for(lambda: Game.objects.get(pk=game_id).status == "finished", timeout=10)
    game = Game.objects.get(pk=game_id)
    assert game.result["cooperative"] == {"target": 25, "won": False}
    assert game.result["team_scores"] == [-5]


def test_a_player_who_never_comes_is_handled_by_the_time_control(make_player, worker):
    players = [make_player() for _ in range(4)]
    game_id = start_game(
        players[0],
        players[1:],
        kind="photoshoot",
        options={"hourglass_seconds": SECONDS, "time_control": "per_move", "move_seconds": 2},
    )
    for seat in (0, 1):
        players[seat].move(game_id, {"type": "ready"})
    # seat 2 never posts `ready`: the server readies it when its 2 s run out
    assert wait_for(lambda: view(players[0], game_id)["phase"] == "round", timeout=30), worker.output()[-3000:]
    auto = Event.objects.filter(game_id=game_id, type="PlayerReady", actor=2).first()
    assert auto is not None and auto.data.get("auto") is True


@pytest.mark.parametrize(
    "options", [{"hourglass_seconds": 4}, {"level": 6}, {"teams": [0, 1, 0, 1]}, {"family": "yes"}, {"hourglass": 90}]
)
def test_bad_options_are_refused_at_create(alice, options):
    response = alice.post("/api/v1/games/", {"kind": "photoshoot", "options": options})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


@pytest.mark.parametrize(
    "move",
    [
        {"type": "swap", "cells": [0, 0]},
        {"type": "swap", "cells": "01"},
        {"type": "push", "cell": 5},
        {"type": "photo", "rituals": {"say": "hi"}},
        {"type": "challenge", "action": 99},
    ],
)
def test_malformed_moves_are_refused_and_nothing_is_written(make_player, move):
    players = [make_player() for _ in range(4)]
    game_id = start_game(players[0], players[1:], kind="photoshoot")
    state = ready_all(players, game_id)
    version = players[0].game(game_id)["version"]
    seat = 1 if move["type"] == "challenge" else state["turn"]
    if move["type"] == "challenge":
        players[state["turn"]].move(game_id, {"type": "swap", "cells": [0, 1]})
        version += 1
    response = players[seat].move(game_id, move)
    assert (response.status_code, response.json()["code"]) == (400, "illegal_move"), response.content
    assert response.json()["detail"]
    assert players[0].game(game_id)["version"] == version


def test_a_move_racing_the_hourglass_is_refused_and_the_round_ends_by_the_timer(make_player):
    """ "An action after it is refused", even when the deadline falls between the check a move
    makes for what is due (`deadlines.is_due`, which would settle it first) and the move's judging:
    simulated by a check that sees nothing due. The move's own turn settles the hourglass at its
    instant, refuses the move, and rolls both back; the timer machinery then ends the round."""
    from games.play import deadlines

    players = [make_player() for _ in range(4)]
    game_id = start_game(players[0], players[1:], kind="photoshoot", options={"hourglass_seconds": SECONDS})
    state = ready_all(players, game_id)
    version = players[0].game(game_id)["version"]
    assert wait_for(lambda: Game.objects.get(pk=game_id).next_deadline < timezone.now(), timeout=SECONDS + 5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deadlines, "is_due", lambda game, now: False)
        late = players[state["turn"]].move(game_id, {"type": "photo"}, expected_version=version)
    assert late.status_code in (400, 409) and late.json()["code"] in ("unavailable_move", "not_your_turn")
    assert Game.objects.get(pk=game_id).version == version, "nothing is written"
    assert deadlines.expire_due(game_id) == 2
    expired, ended = Event.objects.filter(game_id=game_id).order_by("-seq")[:2][::-1]
    assert (expired.type, expired.data["timer"], ended.type, ended.actor) == (
        "TimerExpired",
        "hourglass",
        "HourglassRanOut",
        None,
    )
    assert not Event.objects.filter(game_id=game_id, type="ObjectiveValidated").exists()


def test_a_move_arriving_after_the_hourglass_ends_the_round_first_and_is_refused(make_player):
    """No worker here: the late move is the first to notice the hourglass ran out. The round's end
    is settled and committed first, by the timer machinery as a system event (actor None), and
    stands; the move, decided on the version before it, is refused with the current version, and
    replayed on that version it is refused by the rules."""
    players = [make_player() for _ in range(4)]
    game_id = start_game(players[0], players[1:], kind="photoshoot", options={"hourglass_seconds": SECONDS})
    state = ready_all(players, game_id)
    version = players[0].game(game_id)["version"]
    assert wait_for(lambda: Game.objects.get(pk=game_id).next_deadline < timezone.now(), timeout=SECONDS + 5)
    late = players[state["turn"]].move(game_id, {"type": "photo"}, expected_version=version)
    assert (late.status_code, late.json()["code"]) == (409, "version_conflict")
    assert late.json()["version"] == version + 2
    expired, ended = Event.objects.filter(game_id=game_id).order_by("-seq")[:2][::-1]
    assert (expired.seq, expired.type, ended.type, ended.actor) == (
        version + 1,
        "TimerExpired",
        "HourglassRanOut",
        None,
    )
    again = players[state["turn"]].move(game_id, {"type": "photo"}, expected_version=version + 2)
    assert again.status_code in (400, 409) and again.json()["code"] in ("unavailable_move", "not_your_turn")
    assert Game.objects.get(pk=game_id).version == version + 2
    assert view(players[0], game_id)["phase"] == "ready" and view(players[0], game_id)["deadline"] is None
