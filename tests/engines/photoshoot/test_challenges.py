"""The Control Team, the ready step and the hourglass."""

import pytest

from games.engines.base import EngineError, IllegalMove, NotYourTurn, UnavailableMove
from games.engines.photoshoot import ENGINE
from games.engines.photoshoot import objectives as obj
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, at, challenge, new, play, started, step, turn


def matching_state():
    """A round whose square matches its objective."""
    state = started()
    card = 0
    shown = obj.cells(card)
    rest = [n for n in ROW_MAJOR if n not in shown]
    state["grid"] = [c if c is not None else rest.pop() for c in shown]
    state["objective"] = card
    return state


def test_challenging_a_correct_action_gives_the_photographer_team_a_token():
    result = challenge(act(started(), {"type": "swap", "cells": [0, 1]}))
    assert result.event_type == "ActionChallenged"
    assert result.record["error"] is False and result.state["tally"]["photographer_tokens"] == 1
    assert result.state["grid"][0] == "Olivia"  # the action stands


def test_challenging_an_error_cancels_it_and_gives_the_control_team_a_token():
    result = challenge(act(started(), {"type": "swap", "cells": [0, 8]}))
    assert result.record["error"] is True and result.state["tally"]["control_tokens"] == 1
    assert result.state["grid"] == ROW_MAJOR


def test_only_the_latest_action_can_be_challenged_until_the_next_one():
    state = act(started(), {"type": "swap", "cells": [0, 8]})  # an error...
    state = act(state, {"type": "swap", "cells": [1, 2]})  # ...then a further swap
    with pytest.raises(IllegalMove, match="no longer"):
        step(state, 1, {"type": "challenge", "action": 1})
    # "the error is not taken into account and the round continues normally"
    assert state["grid"][0] == "James"


def test_an_action_is_challenged_once():
    state = challenge(act(started(), {"type": "swap", "cells": [0, 1]})).state
    with pytest.raises(NotYourTurn):  # the control team has nothing to challenge now
        step(state, 3, {"type": "challenge", "action": 1})


def test_a_challenge_must_name_the_latest_action():
    state = act(act(started(), {"type": "swap", "cells": [0, 1]}), {"type": "swap", "cells": [1, 2]})
    for bad in (
        {"type": "challenge"},
        {"type": "challenge", "action": "2"},
        {"type": "challenge", "action": 0},
        {"type": "challenge", "action": 2, "x": 1},
    ):
        with pytest.raises(IllegalMove):
            step(state, 1, bad)
    assert step(state, 1, {"type": "challenge", "action": 2}).record["error"] is False


def test_photographers_cannot_challenge_and_control_cannot_act():
    state = act(started(), {"type": "swap", "cells": [0, 1]})
    with pytest.raises(UnavailableMove):
        step(state, 2, {"type": "challenge", "action": 1})
    with pytest.raises(UnavailableMove):
        step(state, 1, {"type": "swap", "cells": [0, 1]})


def test_playing_when_it_is_not_your_turn_is_refused():
    state = started()
    assert turn(state) == 0
    with pytest.raises(NotYourTurn):
        step(state, 2, {"type": "swap", "cells": [0, 1]})  # the teammate must wait his turn
    state = act(state, {"type": "swap", "cells": [0, 1]})
    assert turn(state) == 2  # "take turns clockwise"
    state = act(state, {"type": "swap", "cells": [0, 1]})
    assert turn(state) == 0


def test_photo_validates_the_objective_and_reveals_a_new_one():
    state = matching_state()
    pile = len(state["objective_pile"])
    after = act(state, {"type": "photo"})
    assert after["tally"]["validated"] == 1 and after["objective"] != 0
    assert len(after["objective_pile"]) == pile - 1
    assert challenge(after).record["error"] is False


def test_false_photo_challenged_is_cancelled_and_the_objective_returns():
    state = started()
    assert not obj.matches(state["grid"], state["objective"])
    after = act(state, {"type": "photo"})
    assert after["objective"] != state["objective"]
    result = challenge(after)
    assert result.record["error"] is True and '"Photo!"' in result.record["faults"][0]
    assert result.state["objective"] == state["objective"] and result.state["tally"]["validated"] == 0
    # the revealed card goes back into the pile, not on top of it (its order stays unknown)
    assert sorted(result.state["objective_pile"]) == sorted(state["objective_pile"])


def test_false_photo_unchallenged_validates_its_objective():
    state = act(started(), {"type": "photo"})
    state = act(state, {"type": "swap", "cells": [0, 1]})
    assert state["tally"]["validated"] == 1
    ended = ENGINE.play(state, None, {"type": "hourglass_run_out"}, at(200)).state
    assert ended["scores"] == [2, 0]


# -- the ready step and the hourglass -------------------------------------------------------------
def test_the_round_starts_when_photographers_and_one_control_member_are_ready():
    state = new(4)
    assert state["phase"] == "ready" and ENGINE.active_players(state) == {0, 1, 2, 3}
    state = play(state, 0, {"type": "ready"}, 1)
    state = play(state, 3, {"type": "ready"}, 2)
    assert ENGINE.active_players(state) == {2}  # one control member is enough
    assert ENGINE.view(state, None)["deadline"] is None
    state = play(state, 2, {"type": "ready"}, 30)
    assert state["phase"] == "round"
    view = ENGINE.view(state, 1)
    assert view["deadline"] == at(30 + 90).isoformat() and view["hourglass_started"] == at(30).isoformat()
    [deadline] = ENGINE.deadlines(state)
    assert (deadline.at, deadline.kind, deadline.move) == (at(120), "hourglass", {"type": "hourglass_run_out"})


def test_hourglass_seconds_option():
    state = started(hourglass_seconds=5)
    assert ENGINE.deadlines(state)[0].at == at(5)
    with pytest.raises(ValueError):
        new(4, hourglass_seconds=4)


def test_when_the_hourglass_runs_out_the_system_ends_the_round():
    state = act(started(), {"type": "swap", "cells": [0, 1]})
    result = ENGINE.play(state, None, {"type": "hourglass_run_out"}, at(90))
    assert result.event_type == "HourglassRanOut"
    assert result.state["phase"] == "ready" and result.state["photographers"] == 1
    assert ENGINE.deadlines(result.state) == []


def test_an_action_after_the_hourglass_is_not_played():
    state = started()
    result = ENGINE.play(state, 0, {"type": "swap", "cells": [0, 1]}, at(90))
    assert result.event_type == "HourglassRanOut" and result.record["late_move"] == "swap"
    assert result.state["grid"] == ROW_MAJOR and result.state["phase"] == "ready"


def test_a_player_cannot_run_the_hourglass_out():
    with pytest.raises(UnavailableMove):
        step(started(), 0, {"type": "hourglass_run_out"})
    with pytest.raises(IllegalMove):
        ENGINE.play(new(4), None, {"type": "hourglass_run_out"}, at(0))  # no hourglass yet


def test_arthur_beside_max_at_the_start_of_a_round_is_mended_before_the_hourglass():
    state = new(4)
    state["grid"] = ["Max", "Arthur", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Olivia", "James"]
    state["effects"][0] = ["arthur"]
    for seat in (0, 1, 2):
        state = play(state, seat, {"type": "ready"})
    assert state["phase"] == "ready" and ENGINE.view(state, None)["mending"] is True
    assert ENGINE.active_players(state) == {0} and ENGINE.move_types(state, 0) == {"mend"}
    moves = ENGINE.legal_moves(state, 0)
    assert moves and all(m["type"] == "mend" for m in moves)
    with pytest.raises(IllegalMove):
        step(state, 0, {"type": "mend", "cells": [0, 4]})  # a diagonal is no swap
    state = play(state, 0, {"type": "mend", "cells": [1, 2]}, 7)
    assert state["phase"] == "round" and ENGINE.deadlines(state)[0].at == at(97)


def test_james_away_from_olivia_at_the_start_of_a_round_is_mended():
    state = new(4)
    state["grid"] = ["James", "Max", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Arthur", "Olivia"]
    state["effects"][0] = ["james"]
    moves = ENGINE.legal_moves(state, 0)
    mends = [m for m in moves if m["type"] == "mend"]
    assert mends
    state = play(state, 0, mends[0])
    while ENGINE.view(state, None)["mending"]:
        state = play(state, 0, [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "mend"][0])
    from games.engines.photoshoot import effects as fx

    assert fx.placement_fault(state["grid"], ["james"]) is None


def test_a_forfeited_control_team_does_not_hold_the_round_up():
    state = ENGINE.forfeit(ENGINE.forfeit(new(4), 1), 3)
    assert ENGINE.view(state, None)["awaiting_ready"] == [0, 2]


def test_game_over_refuses_moves():
    state = started()
    state["phase"] = "over"
    with pytest.raises(EngineError):
        step(state, 0, {"type": "swap", "cells": [0, 1]})
