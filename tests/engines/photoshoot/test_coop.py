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
    assert turn(result.state) == 1  # the turn was spent


def test_a_correct_action_is_not_caught():
    result = step(started(3), 0, {"type": "swap", "cells": [0, 1]})
    assert result.event_type == "CharactersSwapped" and result.state["tally"]["control_tokens"] == 0


def test_a_false_photo_is_caught():
    result = step(started(2), 0, {"type": "photo"})
    assert result.event_type == "ErrorCaught" and result.state["tally"]["validated"] == 0


def test_version_1_a_missing_wave_is_caught_when_the_next_action_comes():
    """Rules version 1 (kept for its games): the teammates owed their wave as moves."""
    state = started(3, effects=["pam-wave"], version=1)
    state = play(state, 0, {"type": "swap", "cells": [3, 6], "rituals": {"wave": True}})
    assert state["last"]["owed"]["wave"] == [1, 2]
    state = play(state, 1, {"type": "wave"})
    result = step(state, 1, {"type": "swap", "cells": [0, 1]})  # seat 2 never waved
    assert result.event_type == "ErrorCaught" and result.record["refused"] == "swap"
    assert result.state["grid"] == ROW_MAJOR and turn(result.state) == 1  # seat 1 plays again


def test_version_1_a_complete_wave_passes():
    state = started(3, effects=["pam-wave"], version=1)
    state = play(state, 0, {"type": "swap", "cells": [3, 6], "rituals": {"wave": True}})
    state = play(state, 1, {"type": "wave"})
    state = play(state, 2, {"type": "wave"})
    result = step(state, 1, {"type": "swap", "cells": [0, 1]})
    assert result.event_type == "CharactersSwapped"
