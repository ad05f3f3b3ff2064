"""Photoshoot's rule "a timeout is a timeout" (rules version 2, docs/photoshoot.md) through the
server's real timeout machinery: when seats' per-move clocks run out, the server passes for them.
A timed-out control seat never challenges (a challenge of a correct action would hand the other
team a token), a timed-out photographer never makes an action (an error would hand one to the
control team): nobody's tally changes by chance."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.play import deadlines
from games.models import Event, Game
from tests.conftest import start_game

pytestmark = pytest.mark.django_db
MOVE_SECONDS = 3600


def in_round(players):
    game_id = start_game(
        players[0],
        players[1:],
        kind="photoshoot",
        options={"time_control": "per_move", "move_seconds": MOVE_SECONDS, "hourglass_seconds": 3600},
    )
    for _ in range(10):
        state = players[0].game(game_id)["state"]
        if state["phase"] == "round":
            return game_id, state
        seat = state["awaiting_ready"][0] if state["awaiting_ready"] else state["active"][0]
        move = players[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"][0]
        assert players[seat].move(game_id, move).status_code == 201
    raise AssertionError("the round did not start")


def run_out_clocks(game_id, seats):
    """The seats' clocks ran out a minute ago (their time started an allowance before that)."""
    game = Game.objects.get(pk=game_id)
    ran_out = timezone.now() - timedelta(seconds=60)
    for seat in seats:
        game.clocks["seats"][str(seat)]["since"] = (ran_out - timedelta(seconds=MOVE_SECONDS)).isoformat()
    Game.objects.filter(pk=game_id).update(clocks=game.clocks, next_deadline=ran_out)


def test_rule_timed_out_control_seats_and_photographer_pass_and_nobody_gains_a_token(make_player):
    players = [make_player() for _ in range(4)]
    game_id, state = in_round(players)
    photographer = state["turn"]
    before = Event.objects.filter(game_id=game_id).count()
    move = next(
        m
        for m in players[photographer].get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"]
        if m["type"] in ("swap", "push", "photo")
    )
    assert players[photographer].move(game_id, move).status_code == 201
    game = Game.objects.get(pk=game_id)
    control = [s for s in game.active_seats if s not in state["teams"][state["photographers"]]]
    on_turn = players[0].game(game_id)["state"]["turn"]
    assert control and on_turn in game.active_seats
    run_out_clocks(game_id, [*control, on_turn])
    assert deadlines.expire_due(game_id) > 0
    later = list(Event.objects.filter(game_id=game_id, seq__gt=before + 1).order_by("seq"))
    timed_out = [e.data["seat"] for e in later if e.type == "TimerExpired" and e.data["timer"] == "clock"]
    assert sorted(timed_out) == sorted([*control, on_turn])
    auto = [e for e in later if (e.data or {}).get("auto")]
    assert auto and all(e.type == "Passed" and e.data["move"] == {"type": "pass"} for e in auto)
    assert not any(e.type in ("ActionChallenged", "CharactersSwapped", "RowPushed", "PhotoCalled") for e in later)
    after = players[0].game(game_id)["state"]
    assert after["tally"]["photographer_tokens"] == after["tally"]["control_tokens"] == 0
    assert after["turn"] != on_turn and after["last_action"]["passed"] == sorted(control)
    assert after["challengeable"] == 1  # nobody challenged: the action is still open
