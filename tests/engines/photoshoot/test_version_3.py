"""Photoshoot rules version 3: a forfeit never wins a cooperative game, "the player after" is the
next seat that actually plays (Olivia's slap, Max's stroke), Max's stroke is owed by that player
and by nobody else, and the interpretations docs/photoshoot.md writes down. Each test names its
rulebook sentence; version 2's behaviour is shown beside each changed rule (its games keep it)."""

import random
from itertools import takewhile

import pytest

from games.engines.base import EngineError, NotYourTurn
from games.engines.photoshoot import ENGINE
from games.engines.photoshoot import effects as fx
from games.engines.photoshoot import objectives as obj
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, at, challenge, engine_of, new, play, started, step, turn
from tests.engines.photoshoot.test_version_2 import finish, mending

#  0 Max     1 Olivia  2 Alice
#  3 Pam     4 Edgar   5 Jo
#  6 Chloé   7 Arthur  8 James
# 6 players, default teams: team 0 = seats 0, 2, 4 (photographers); team 1 = seats 1, 3, 5.
MAX, OLIVIA, OTHER = [0, 3], [1, 4], [7, 8]  # moves Max; moves Olivia; moves neither


def test_version_3_is_current_and_versions_1_and_2_are_kept():
    assert ENGINE.rules_version == 3 and ENGINE.rules_versions == (1, 2, 3)
    assert new()["rules_version"] == 3 and new(version=2)["rules_version"] == 2


# -- a forfeit never wins a cooperative game --------------------------------------------------------
def test_rule_a_forfeit_in_a_cooperative_game_leaves_the_others_to_play_on():
    """ "If the team has not reached 25 points, it loses the game": a teammate leaving decides
    nothing. The seats still in play on, one alone if need be, and the game ends after its 5
    rounds like any cooperative game."""
    for players, out in ((2, [1]), (3, [1, 2])):
        state = started(players)
        for seat in out:
            state = ENGINE.forfeit(state, seat)
        assert ENGINE.outcome(state) is None and not ENGINE.is_over(state)
        assert turn(state) == 0
        state = act(state, {"type": "swap", "cells": [0, 1]})
        assert turn(state) == 0, "the seat left takes every turn"


def test_rule_a_cooperative_game_below_25_is_lost_whoever_forfeited():
    out = ENGINE.outcome(finish(ENGINE.forfeit(started(2), 1), [10]))
    assert out["winners"] == [] and out["cooperative"] == {"target": 25, "won": False}
    assert out["places"] == [1, 2] and out["forfeited"] == [1] and out["tie_break"] == "forfeit"
    assert out["teams"] == [[0, 1]] and out["team_scores"] == [10]


def test_rule_the_seats_that_played_on_win_if_the_team_reaches_25():
    state = ENGINE.forfeit(ENGINE.forfeit(started(3), 1), 2)
    out = ENGINE.outcome(finish(state, [25]))
    assert out["winners"] == [0] and out["cooperative"]["won"] is True and out["places"] == [1, 2, 2]


def test_rule_a_cooperative_game_every_seat_left_ends_at_once_lost():
    state = ENGINE.forfeit(ENGINE.forfeit(started(2), 1), 0)
    state["scores"] = [30]
    out = ENGINE.outcome(state)
    assert ENGINE.is_over(state) and out["winners"] == []
    assert out["cooperative"] == {"target": 25, "won": False} and out["forfeited"] == [0, 1]


def test_rule_a_forfeit_before_the_first_round_decides_nothing_either():
    """The same before anybody is ready: 2 players, seat 1 forfeits in round 1 at 0 points; 3
    players, two forfeit. The game goes on for the seat left, which plays alone once the server
    has readied the seats that left (it plays their turns, as for every forfeited seat)."""
    for players, out in ((2, [1]), (3, [1, 2])):
        state = ENGINE.setup(players, {}, "r")
        for seat in out:
            state = ENGINE.forfeit(state, seat)
        assert ENGINE.outcome(state) is None and not ENGINE.is_over(state)
        for seat in sorted(ENGINE.active_players(state)):
            state = play(state, seat, ENGINE.auto_move(state, seat, random.Random(0)))
        assert state["phase"] == "round" and turn(state) == 0
        assert turn(act(state, {"type": "swap", "cells": [0, 1]})) == 0


def test_version_2_let_a_forfeit_win_a_cooperative_game():
    old = engine_of(new(version=2))
    out = old.outcome(old.forfeit(old.setup(2, {}, "r"), 1))
    assert out["winners"] == [0] and "cooperative" not in out


# -- Olivia's slap: the player after them is the next seat that plays --------------------------------
def _six_with_seat_2_out(version=None, **kw):
    state = started(6, version=version, **kw)
    return engine_of(state).forfeit(state, 2)


def test_rule_olivia_s_slap_goes_to_the_next_seat_that_plays():
    """Olivia: "Before moving Olivia, the active player must slap the hand of the player after
    them." The turn skips a forfeited seat, so does the slap: seat 4 plays after seat 0."""
    state = _six_with_seat_2_out(effects=["olivia-slap"])
    right = act(state, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 4}})
    assert turn(right) == 4 and challenge(right).record["error"] is False
    wrong = challenge(act(state, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 2}})).record
    assert wrong["error"] is True and "slapping" in wrong["faults"][0]
    offered = [m for m in ENGINE.legal_moves(state, 0) if m["type"] == "swap" and "rituals" in m]
    assert offered and all(m["rituals"]["slap"] == 4 for m in offered)


def test_rule_olivia_s_slap_in_a_cooperative_game_with_a_seat_gone():
    state = ENGINE.forfeit(started(3, effects=["olivia-slap"]), 1)
    done = step(state, 0, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 2}})
    assert done.event_type == "CharactersSwapped" and done.state["tally"]["control_tokens"] == 0


def test_version_2_judged_the_slap_against_the_fixed_team_order():
    state = _six_with_seat_2_out(version=2, effects=["olivia-slap"])
    assert challenge(act(state, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 4}})).record["error"]
    assert not challenge(act(state, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 2}})).record["error"]


# -- Max's stroke: owed by the next player, not by the next action ------------------------------------
def test_rule_max_s_stroke_is_owed_by_the_player_after_the_mover():
    """Max: "Each time Max is moved, the next player must stroke his tile before playing." """
    state = act(started(6, effects=["max-stroke"]), {"type": "swap", "cells": MAX})
    assert state["stroke_due"] == 2 and turn(state) == 2
    assert all(ENGINE.view(state, v)["stroke_due"] == 2 for v in (None, 0, 1))  # the table sees it
    forgot = challenge(act(state, {"type": "swap", "cells": OTHER})).record
    assert forgot["error"] is True and "stroke" in forgot["faults"][0]
    stroked = act(state, {"type": "swap", "cells": OTHER, "rituals": {"stroke": True}})
    assert challenge(stroked).record["error"] is False and stroked["stroke_due"] is None


def test_rule_a_pass_does_not_hand_the_stroke_to_the_following_teammate():
    """The player after the mover must stroke "before playing": a turn let go (a pass, a
    timeout) plays nothing and owes nothing, and the duty ends with it; the teammate after
    was never the next player."""
    state = act(started(6, effects=["max-stroke"]), {"type": "swap", "cells": MAX})
    state = play(state, 2, {"type": "pass"})
    assert state["stroke_due"] is None and turn(state) == 4
    after = act(state, {"type": "swap", "cells": OTHER})  # seat 4, no stroke
    assert challenge(after).record["error"] is False
    old = act(started(6, effects=["max-stroke"], version=2), {"type": "swap", "cells": MAX})
    old = act(play(old, 2, {"type": "pass"}), {"type": "swap", "cells": OTHER})
    assert challenge(old).record["error"] is True  # version 2 moved the duty on


def test_rule_a_timed_out_player_owes_the_stroke_no_longer():
    """A timeout is a pass (the server plays it): the turn is let go, nothing is played, and the
    duty ends with it as with a pass; the teammate after owes nothing."""
    state = act(started(6, effects=["max-stroke"]), {"type": "swap", "cells": MAX})
    timeout = ENGINE.auto_move(state, 2, random.Random(0))
    assert timeout == {"type": "pass"}
    state = play(state, 2, timeout)
    assert state["stroke_due"] is None and turn(state) == 4
    assert challenge(act(state, {"type": "swap", "cells": OTHER})).record["error"] is False


def test_rule_the_table_shows_who_left_and_whether_the_player_owed_the_stroke():
    """What the Control team judges by is on the table: the seats that left (the player after
    skips them) and, for the latest action, whether its player owed Max's stroke then (the view
    before it named that seat in `stroke_due`), the same for every viewer."""
    state = act(_six_with_seat_2_out(effects=["max-stroke"]), {"type": "swap", "cells": MAX})
    views = [ENGINE.view(state, v) for v in (None, 0, 1, 2, 3)]
    assert all(v["forfeited"] == [2] and v["last_action"]["stroke_owed"] is False for v in views)
    forgot = act(state, {"type": "swap", "cells": OTHER})  # seat 4 owed it
    assert ENGINE.view(forgot, 1)["last_action"]["stroke_owed"] is True
    assert ENGINE.view(forgot, 1)["stroke_due"] is None
    assert (
        "stroke_owed"
        not in engine_of(new(version=2)).view(
            act(started(6, effects=["max-stroke"], version=2), {"type": "swap", "cells": MAX}), 1
        )["last_action"]
    )


def test_rule_a_mend_that_moves_max_is_stroked_by_the_player_after_the_mender():
    """A mend is no turn: the mender plays the round's first turn, and "the next player" after
    the one who moved Max is the teammate who plays the second."""
    grid = ["Arthur", "Max", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Olivia", "James"]
    state = mending(grid=grid, effects=("arthur", "max-stroke"))
    state = play(state, 0, {"type": "mend", "cells": [1, 4]})  # Max moves down
    assert state["phase"] == "round" and state["stroke_due"] == 2 and turn(state) == 0
    first = act(state, {"type": "swap", "cells": OTHER})  # the mender: nothing owed
    assert challenge(first).record["error"] is False
    second = act(first, {"type": "swap", "cells": [6, 3]})  # seat 2: owed, forgotten
    assert challenge(second).record["error"] is True


def test_rule_the_stroke_skips_a_forfeited_seat_and_ends_with_a_cancelled_turn():
    state = _six_with_seat_2_out(effects=["max-stroke"])
    state = act(state, {"type": "swap", "cells": MAX})
    assert state["stroke_due"] == 4
    cancelled = challenge(act(state, {"type": "swap", "cells": [0, 8], "rituals": {"stroke": True}}))
    assert cancelled.record["error"] is True and cancelled.state["stroke_due"] is None
    assert challenge(act(cancelled.state, {"type": "swap", "cells": OTHER})).record["error"] is False
    gone = ENGINE.forfeit(state, 4)  # the seat that owed it leaves: nobody owes it
    assert gone["stroke_due"] is None and turn(gone) == 0
    assert challenge(act(gone, {"type": "swap", "cells": OTHER})).record["error"] is False


def test_rule_a_player_alone_strokes_for_its_own_move_of_max():
    state = ENGINE.forfeit(started(2, effects=["max-stroke"]), 1)
    state = act(state, {"type": "swap", "cells": MAX})
    assert state["stroke_due"] == 0
    assert step(state, 0, {"type": "swap", "cells": OTHER}).event_type == "ErrorCaught"


# -- interpretations -------------------------------------------------------------------------------
def test_rule_equal_team_scores_share_the_result_and_ask_for_a_rematch():
    """ "If both teams have the same number of points, a new game must be played to break the
    tie!" The game's own result is a tie, shared; `rematch` says a new game is called for."""
    out = ENGINE.outcome(finish(started(4), [26, 26]))
    assert out["places"] == [1, 1, 1, 1] and out["winners"] == [0, 1, 2, 3] and out["rematch"] is True
    assert "rematch" not in ENGINE.outcome(finish(started(4), [26, 20]))
    assert "rematch" not in engine_of(new(version=2)).outcome(finish(started(4, version=2), [26, 26]))


def test_interpretation_a_photo_closes_the_window_on_the_action_before():
    """ "If an error was not noticed by the Control team and the Photographer team has already
    made one or more further swaps, the error is not taken into account": only the latest
    action can be challenged, and any further action, a "Photo!" too, closes its window."""
    state = act(started(4), {"type": "swap", "cells": [0, 8]})  # a diagonal: an error
    state = act(state, {"type": "photo"})
    with pytest.raises(EngineError, match="can no longer be challenged"):
        step(state, 1, {"type": "challenge", "action": 1})
    assert ENGINE.legal_moves(state, 1)[0] == {"type": "challenge", "action": 2}


def test_interpretation_playing_out_of_turn_is_refused_not_an_error_to_challenge():
    """ "Playing when it is not your turn" is a game error at the table; the server keeps the
    turn, so it refuses the action and nothing happens."""
    state = started(4)
    with pytest.raises(NotYourTurn):
        step(state, 2, {"type": "swap", "cells": [0, 1]})
    with pytest.raises(NotYourTurn):
        step(state, 1, {"type": "photo"})


def test_interpretation_a_posted_action_cannot_be_corrected():
    """ "If the player corrects their error before the Control team has said anything" is not an
    error: online, the player composes the action (rituals included) before posting it, and the
    posted action is what the table saw. Its player has no move left to correct it with."""
    state = act(started(4), {"type": "swap", "cells": [0, 8]})
    assert ENGINE.move_types(state, 0) == set()
    with pytest.raises(NotYourTurn):
        step(state, 0, {"type": "swap", "cells": [0, 8]})
    assert challenge(state).record["error"] is True


def test_interpretation_jo_s_push_rotates_his_whole_line():
    """Jo "pushes all the characters in his row or column" and "cannot push into empty space":
    the line moves one cell and the tile pushed over the far edge comes back at the near end."""
    state = started(4, effects=["jo"])
    state = act(state, {"type": "push", "cell": 5, "direction": "left"})  # Pam, Edgar, Jo
    assert state["grid"][3:6] == ["Edgar", "Jo", "Pam"] and state["last"]["moved"] == ["Edgar", "Jo", "Pam"]
    assert challenge(state).record["error"] is False
    into_space = act(started(4, effects=["jo"]), {"type": "push", "cell": 5, "direction": "right"})
    assert challenge(into_space).record["error"] is True


def test_interpretation_no_token_is_won_once_the_10_are_gone():
    """Components: "10 Camera tokens". An empty supply gives no token until the round's scoring
    returns them; a challenge still cancels the error."""
    state = act(started(4), {"type": "swap", "cells": [0, 8]})
    state["tokens"] = 0
    caught = challenge(state)
    assert caught.record["error"] is True and caught.record["token"] is None
    assert caught.state["grid"] == ROW_MAJOR and caught.state["tally"]["control_tokens"] == 0
    ended = ENGINE.play(caught.state, None, {"type": "hourglass_run_out"}, at(500)).state
    assert ended["tokens"] == 10


# -- the moves offered ------------------------------------------------------------------------------
def test_rule_every_correct_movement_is_offered_after_the_useful_ones():
    """Version 3 offers the useful movements first, then every other correct movement (all
    rituals done), so a player choosing among the offered moves may take a way round instead of
    undoing the move before; version 2 offered the useful ones only."""

    def movements(state):
        """The offered movements before the first example of an error (its rituals forgotten)."""
        return [m["cells"] for m in takewhile(lambda m: "rituals" in m, engine_of(state).legal_moves(state, 0))]

    state, old = started(4, objective=0), started(4, objective=0, version=2)
    assert obj.placed(ROW_MAJOR, 0) < len([c for c in obj.cells(0) if c])  # something to place
    useful, offered = movements(old), movements(state)
    assert offered[: len(useful)] == useful
    assert len(offered) == len(fx.correct_movements(ROW_MAJOR, [])) > len(useful)
    for move in engine_of(state).legal_moves(state, 0)[: len(offered)]:
        assert challenge(act(state, move)).record["error"] is False
