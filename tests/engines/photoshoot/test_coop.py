"""Cooperative Variant (2 to 3 players): one Photographer team, no Control team; the server is
the referee and catches every error itself."""
from games.engines.photoshoot import ENGINE
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, at, new, play, started, step, turn


def run_out(state, when=500):
    return ENGINE.play(state, None, {"type": "hourglass_run_out"}, at(when))


def test_with_2_or_3_players_all_play_together():
    for players in (2, 3):
        state = new(players)
        assert state["mode"] == "coop" and state["teams"] == [list(range(players))]
        assert ENGINE.view(state, None)["awaiting_ready"] == list(range(players))


def test_there_is_no_control_team_and_nothing_to_challenge():
    state = act(started(3), {"type": "swap", "cells": [0, 1]})
    assert ENGINE.view(state, None)["challengeable"] is None
    assert all("challenge" not in ENGINE.move_types(state, s) for s in range(3))


def test_the_referee_catches_an_error_at_once_and_the_team_draws_a_token():
    state = started(3)
    result = step(state, 0, {"type": "swap", "cells": [0, 8]})
    assert result.event_type == "ErrorCaught" and result.record["error"] is True
    assert result.state["grid"] == ROW_MAJOR and result.state["tally"]["control_tokens"] == 1
    assert turn(result.state) == 1   # the turn was spent


def test_a_correct_action_is_not_caught():
    result = step(started(3), 0, {"type": "swap", "cells": [0, 1]})
    assert result.event_type == "CharactersSwapped" and result.state["tally"]["control_tokens"] == 0


def test_a_false_photo_is_caught():
    result = step(started(2), 0, {"type": "photo"})
    assert result.event_type == "ErrorCaught" and result.state["tally"]["validated"] == 0


def test_a_missing_wave_is_caught_when_the_next_action_comes():
    state = started(3, effects=["pam-wave"])
    state = play(state, 0, {"type": "swap", "cells": [3, 6], "rituals": {"wave": True}})
    assert state["last"]["owed"]["wave"] == [1, 2]
    state = play(state, 1, {"type": "wave"})
    result = step(state, 1, {"type": "swap", "cells": [0, 1]})   # seat 2 never waved
    assert result.event_type == "ErrorCaught" and result.record["refused"] == "swap"
    assert result.state["grid"] == ROW_MAJOR and turn(result.state) == 1  # seat 1 plays again


def test_a_complete_wave_passes():
    state = started(3, effects=["pam-wave"])
    state = play(state, 0, {"type": "swap", "cells": [3, 6], "rituals": {"wave": True}})
    state = play(state, 1, {"type": "wave"})
    state = play(state, 2, {"type": "wave"})
    result = step(state, 1, {"type": "swap", "cells": [0, 1]})
    assert result.event_type == "CharactersSwapped"


def test_scoring_2_per_objective_minus_1_per_token():
    state = started(2)
    state = play(state, 0, {"type": "swap", "cells": [0, 8]})   # caught: -1
    state["tally"]["validated"] = 3
    result = run_out(state)
    assert result.record["points"] == [5] and result.state["scores"] == [5]


def test_effects_are_added_as_in_the_normal_game():
    state = started(2)
    state["scores"] = [5]
    state = run_out(state).state
    assert len(state["effects"][0]) == 1


def test_five_rounds_then_won_with_25_points():
    state = started(2)
    for round_no in range(1, 6):
        assert state["round"] == round_no and ENGINE.result(state) is None
        if round_no == 5:
            state["scores"] = [25]
        state = run_out(state).state
        while state["phase"] == "ready":
            seat = min(ENGINE.active_players(state))
            state = play(state, seat, ENGINE.legal_moves(state, seat)[0])
    out = ENGINE.result(state)
    assert out["cooperative"] == {"target": 25, "won": True} and out["teams"] == [[0, 1]]


def test_five_rounds_under_25_points_is_lost():
    state = new(3)
    state["round"] = 5
    state = started_round(state)
    state["scores"] = [24]
    out = ENGINE.result(run_out(state).state)
    assert out["cooperative"]["won"] is False and out["team_scores"] == [24]


def started_round(state):
    while state["phase"] == "ready":
        seat = min(ENGINE.active_players(state))
        state = play(state, seat, ENGINE.legal_moves(state, seat)[0])
    return state
