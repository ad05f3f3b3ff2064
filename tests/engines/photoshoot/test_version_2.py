"""Photoshoot rules version 2: results that say what happened, rituals that can be
performed online, mending as the rulebook says, one turn rule after a cancelled action, and a
timeout that is a timeout. Each test names its rule (docs/photoshoot.md, "Rules versions")."""

import random
from datetime import timedelta

import pytest

from games.engines.base import EngineError, IllegalMove, UnavailableMove
from games.engines.photoshoot import ENGINE
from tests.engines.contract import T0
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, at, challenge, engine_of, new, play, started, step, turn

#  0 Max     1 Olivia  2 Alice
#  3 Pam     4 Edgar   5 Jo
#  6 Chloé   7 Arthur  8 James
# 4 players, default teams: team 0 = seats 0, 2 (photographers); team 1 = seats 1, 3.
PAM, EDGAR = [3, 6], [4, 7]
TEAM_RITUALS = ["pam-wave", "edgar-ready", "olivia-slap", "alice-shake"]


def run_out(state, when=500):
    return engine_of(state).play(state, None, {"type": "hourglass_run_out"}, at(when))


def finish(state, scores):
    """Play the rounds out with the given scores until the game is over."""
    for _ in range(12):
        if state["phase"] == "over":
            return state
        state["scores"] = list(scores)
        if state["phase"] == "ready":
            state = started_again(state)
        state = run_out(state).state
    raise AssertionError("the game did not end")


def all_ready(state):
    while engine_of(state).view(state, None)["awaiting_ready"]:
        state = play(state, engine_of(state).view(state, None)["awaiting_ready"][0], {"type": "ready"})
    return state


def started_again(state):
    state = all_ready(state)
    assert state["phase"] == "round"
    return state


def test_versions_1_and_2_are_kept():
    assert ENGINE.rules_versions == (1, 2, 3)
    assert new(version=2)["rules_version"] == 2 and "rules_version" not in new(version=1)


# -- results that say what happened ----------------------------------------------------------------
def test_rule_a_lost_cooperative_game_has_no_winners():
    """ "If the team has not reached 25 points, it loses the game"."""
    out = ENGINE.outcome(finish(started(3), [24]))
    assert out["cooperative"] == {"target": 25, "won": False}
    assert out["winners"] == [] and out["places"] == [1, 1, 1]


def test_rule_a_won_cooperative_game_names_its_whole_team():
    out = ENGINE.outcome(finish(started(2), [25]))
    assert out["cooperative"]["won"] is True and out["winners"] == [0, 1] and out["places"] == [1, 1]


def test_version_1_named_every_seat_of_a_lost_cooperative_game_a_winner():
    out = engine_of(new(version=1)).outcome(finish(started(3, version=1), [24]))
    assert out["cooperative"]["won"] is False and out["winners"] == [0, 1, 2]


@pytest.mark.parametrize(
    "players,teams,places",
    [
        (4, "alternate", [1, 2, 1, 2]),
        (5, "alternate", [1, 2, 1, 2, 1]),
        (6, "alternate", [1, 2, 1, 2, 1, 2]),
        (5, "halves", [1, 1, 1, 2, 2]),
    ],
)
def test_rule_team_games_place_teams_every_seat_gets_its_team_s_place(players, teams, places):
    out = ENGINE.outcome(finish(started(players, teams=teams), [30, 10]))
    assert out["places"] == places and out["winners"] == [s for s, p in enumerate(places) if p == 1]
    assert [b["team_score"] for b in out["breakdown"]] == [30 if p == 1 else 10 for p in places]


def test_rule_equal_team_scores_share_place_1():
    out = ENGINE.outcome(finish(started(5), [26, 26]))
    assert out["places"] == [1] * 5 and out["winners"] == [0, 1, 2, 3, 4]


def test_version_1_placed_the_losing_team_by_the_seats_ahead():
    out = engine_of(new(version=1)).outcome(finish(started(5, version=1), [10, 30]))
    assert out["places"] == [3, 1, 3, 1, 3]


def test_rule_a_forfeited_seat_leaves_its_team_and_is_placed_after_every_team():
    state = finish(started(5), [30, 10])
    state = ENGINE.forfeit(state, 2)
    out = ENGINE.outcome(state)
    assert out["places"] == [1, 2, 3, 2, 1] and out["winners"] == [0, 4]
    assert out["forfeited"] == [2] and out["tie_break"] == "forfeit"


def test_rule_a_lost_cooperative_game_has_no_winners_even_after_a_forfeit():
    state = ENGINE.forfeit(finish(started(3), [10]), 1)
    out = ENGINE.outcome(state)
    assert out["winners"] == [] and out["places"] == [1, 2, 1]


# -- rituals declared with the action --------------------------------------------------------------
def test_rule_pam_s_wave_is_declared_with_her_move():
    state = act(started(effects=["pam-wave"]), {"type": "swap", "cells": PAM, "rituals": {"wave": True}})
    assert state["last"]["owed"] == {"wave": [], "answer": []}
    assert all("wave" not in ENGINE.move_types(state, s) for s in range(4))
    assert challenge(state, 0.001).record["error"] is False
    forgot = act(started(effects=["pam-wave"]), {"type": "swap", "cells": PAM})
    assert challenge(forgot, 0.001).record["faults"] == ["Pam moved without a Mexican wave"]


def test_rule_edgar_s_answer_is_declared_with_his_move():
    asked = {"say": ["Tout le monde est prêt ?"], "answered": True}
    state = act(started(effects=["edgar-ready"]), {"type": "swap", "cells": EDGAR, "rituals": asked})
    assert all("answer" not in ENGINE.move_types(state, s) for s in range(4))
    assert challenge(state, 0.001).record["error"] is False
    unanswered = act(
        started(effects=["edgar-ready"]), {"type": "swap", "cells": EDGAR, "rituals": {"say": asked["say"]}}
    )
    assert challenge(unanswered).record["faults"] == ["the team did not answer Edgar"]
    unasked = act(started(effects=["edgar-ready"]), {"type": "swap", "cells": EDGAR, "rituals": {"answered": True}})
    assert challenge(unasked).record["error"] is True


def test_rule_the_teammates_moves_wave_and_answer_are_gone():
    state = act(started(effects=TEAM_RITUALS), {"type": "swap", "cells": PAM, "rituals": {"wave": True}})
    for move in ({"type": "wave"}, {"type": "answer"}):
        with pytest.raises(UnavailableMove):
            step(state, 2, move)


def _ritual_cards_for_both_teams(state):
    for team in (0, 1):
        state["effects"][team] = list(TEAM_RITUALS)
    state["piles"]["blue"] = [c for c in state["piles"]["blue"] if c not in TEAM_RITUALS]
    return state


def _machine_speed_game(version):
    """A whole 4-player game: the photographers always play the first action `legal_moves`
    offers (a correct movement or a correct "Photo!", every ritual done), a second apart; the
    control team challenges every action 1 ms after it. Returns (control tokens won, ritual
    actions made, photographer tokens won)."""
    engine = ENGINE.at_version(version)
    state = _ritual_cards_for_both_teams(engine.setup(4, {"hourglass_seconds": 30}, "machine-speed"))
    clock = T0
    control_tokens = rituals = photographer_tokens = 0
    for _ in range(20000):
        if state["phase"] == "over":
            return control_tokens, rituals, photographer_tokens
        clock += timedelta(seconds=1)
        if state["phase"] == "ready":
            seat = min(engine.active_players(state))
            state = engine.play(state, seat, engine.legal_moves(state, seat)[0], clock).state
            continue
        if clock >= engine.deadlines(state)[0].at:
            control_tokens += state["tally"]["control_tokens"]
            photographer_tokens += state["tally"]["photographer_tokens"]
            state = engine.play(state, None, {"type": "hourglass_run_out"}, clock).state
            continue
        seat = engine.view(state, None)["turn"]
        state = engine.play(state, seat, engine.legal_moves(state, seat)[0], clock).state
        moved = set(state["last"]["moved"])
        rituals += bool(moved & {"Pam", "Edgar", "Olivia", "Alice"})
        controller = state["teams"][1 - state["photographers"]][0]
        state = engine.play(
            state,
            controller,
            {"type": "challenge", "action": state["last"]["number"]},
            clock + timedelta(milliseconds=1),
        ).state
    raise AssertionError("no end")


def test_rule_a_control_team_challenging_at_machine_speed_wins_no_token_for_a_ritual_done_right():
    control_tokens, rituals, photographer_tokens = _machine_speed_game(2)
    assert rituals > 20, "the game moved Pam, Edgar, Olivia and Alice many times"
    assert control_tokens == 0 and photographer_tokens > 0


def test_version_1_lost_that_race():
    """Kept for its games: a teammate's wave or answer posted after the move loses to an instant
    challenge."""
    control_tokens, rituals, _ = _machine_speed_game(1)
    assert rituals > 20 and control_tokens > 0


# -- mending as the rulebook says ------------------------------------------------------------------
ARTHUR_BY_MAX = ["Max", "Arthur", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Olivia", "James"]


def mending(grid=ARTHUR_BY_MAX, effects=("arthur",), **kw):
    state = new(**kw)
    state["grid"], state["effects"][0] = list(grid), list(effects)
    state = all_ready(state)
    assert engine_of(state).view(state, None)["mending"] is True and state["phase"] == "ready"
    return state


def test_rule_mending_is_one_move_that_separates_them():
    """Arthur: "If at the start of a round the two characters are side by side, make a move to
    separate them before starting"."""
    state = mending()
    offered = ENGINE.legal_moves(state, 0)
    assert offered and all(m["type"] == "mend" for m in offered)
    with pytest.raises(IllegalMove, match="mends the square"):
        step(state, 0, {"type": "mend", "cells": [4, 5]})  # correct swap, Arthur still by Max
    with pytest.raises(IllegalMove):
        step(state, 0, {"type": "mend", "cells": [0, 4]})  # a diagonal is no swap
    done = step(state, 0, {"type": "mend", "cells": [1, 4]}, 3)
    assert done.record["mended"] is True and done.state["phase"] == "round"
    assert done.state["hourglass"]["start"] == at(3).isoformat()


def test_rule_a_mend_applies_the_blue_cards_rituals():
    state = mending(effects=("arthur", "edgar-smile"))
    with pytest.raises(IllegalMove, match="Ouistiti"):
        step(state, 0, {"type": "mend", "cells": [1, 4]})  # moves Edgar without "Ouistiti"
    done = step(state, 0, {"type": "mend", "cells": [1, 4], "rituals": {"say": ["Ouistiti"], "smile": True}})
    assert done.record["moved"] == ["Arthur", "Edgar"] and done.record["rituals"]["smile"] is True
    assert all(m["rituals"]["smile"] for m in ENGINE.legal_moves(state, 0))


def test_rule_a_mend_that_moves_max_is_stroked_by_the_next_player():
    grid = ["Arthur", "Max", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Olivia", "James"]
    state = mending(grid=grid, effects=("arthur", "max-stroke"), version=2)
    state = play(state, 0, {"type": "mend", "cells": [1, 4]})  # Max moves down
    assert state["phase"] == "round" and state["stroke_due"] is True
    # Version 2: the mender's own first action owes it (version 3: the player after the mender).
    assert challenge(act(state, {"type": "swap", "cells": [7, 8]})).record["error"] is True


def test_rule_jo_mends_by_pushing():
    grid = ["Pam", "Edgar", "Alice", "Max", "Arthur", "Jo", "Chloé", "Olivia", "James"]
    state = mending(grid=grid, effects=("arthur", "jo"))
    with pytest.raises(IllegalMove):
        step(state, 0, {"type": "mend", "cells": [4, 5]})  # Jo does not swap
    done = step(state, 0, {"type": "mend", "cell": 5, "direction": "left"})
    assert done.record["mended"] is True and done.state["grid"][3:6] == ["Arthur", "Jo", "Max"]


# Arthur beside Max and James away from Olivia: no single swap fixes both.
BOTH_AT_FAULT = ["Max", "Arthur", "Alice", "Pam", "Edgar", "Jo", "Olivia", "Chloé", "James"]


def test_rule_when_no_single_move_mends_the_square_the_player_mends_again():
    """Both notes at once ("separate them", "bring them closer"): when no one move can, the
    first photographer makes correct moves until the square is mended, each with its rituals,
    and the round starts only then."""
    state = mending(grid=BOTH_AT_FAULT, effects=("arthur", "james", "edgar-smile"))
    offered = ENGINE.legal_moves(state, 0)
    assert [m["cells"] for m in offered] == [[0, 3], [1, 2], [1, 4]]  # first steps of the shortest
    assert all(m["rituals"]["smile"] for m in offered)
    with pytest.raises(IllegalMove):
        step(state, 0, {"type": "mend", "cells": [0, 4]})  # still no diagonal swap
    smiled = {"say": ["Ouistiti"], "smile": True}
    sideways = step(state, 0, {"type": "mend", "cells": [3, 4], "rituals": smiled})
    assert sideways.record["mended"] is False  # a correct move that mends nothing is accepted too
    first = step(state, 0, {"type": "mend", "cells": [1, 4], "rituals": smiled}, 2)
    assert first.record["mended"] is False and first.record["hourglass"] is None
    view = ENGINE.view(first.state, None)
    assert view["mending"] is True and view["phase"] == "ready" and view["turn"] is None
    assert view["deadline"] is None
    # One move now mends it: the rule of a single mend applies again.
    with pytest.raises(IllegalMove, match="mends the square"):
        step(first.state, 0, {"type": "mend", "cells": [2, 5]})
    done = step(first.state, 0, {"type": "mend", "cells": [6, 7]}, 5)
    assert done.record["mended"] is True and done.state["grid"][6:] == ["Chloé", "Olivia", "James"]
    assert done.state["phase"] == "round" and turn(done.state) == 0  # the mends were no turns
    assert done.state["hourglass"]["start"] == at(5).isoformat()


def test_version_1_mended_with_several_plain_swaps():
    state = new(version=1)
    state["grid"], state["effects"][0] = list(ARTHUR_BY_MAX), ["arthur"]
    state = all_ready(state)
    state = play(state, 0, {"type": "mend", "cells": [4, 5]})  # accepted: still mending
    assert engine_of(state).view(state, None)["mending"] is True


# -- one turn rule after a cancelled action ----------------------------------------------------------
def test_rule_after_a_cancelled_action_the_next_player_plays_in_both_modes():
    """Our rule (the rulebook is silent): a cancelled action spent its player's turn; the next
    teammate plays, whether a challenge (team game) or the referee (cooperative) cancelled it."""
    teams = challenge(act(started(4), {"type": "swap", "cells": [0, 8]}))
    assert teams.record["error"] is True and teams.state["grid"] == ROW_MAJOR
    assert turn(teams.state) == 2
    coop = step(started(3), 0, {"type": "swap", "cells": [0, 8]})
    assert coop.event_type == "ErrorCaught" and turn(coop.state) == 1
    waved = step(started(3, effects=["pam-wave"]), 0, {"type": "swap", "cells": PAM})
    assert waved.event_type == "ErrorCaught" and turn(waved.state) == 1  # a ritual too


# -- a timeout that is a timeout -------------------------------------------------------------------
def test_rule_a_timed_out_photographer_passes_its_turn():
    state = started(4)
    assert ENGINE.auto_move(state, 0, random.Random(1)) == {"type": "pass"}
    passed = step(state, 0, {"type": "pass"})
    assert passed.event_type == "Passed" and passed.state["grid"] == ROW_MAJOR
    assert turn(passed.state) == 2 and passed.state["last"] is None and passed.state["actions"] == 0


def test_rule_a_timed_out_control_seat_does_not_challenge():
    state = act(started(4), {"type": "swap", "cells": [0, 1]})
    for seed in range(20):
        assert ENGINE.auto_move(state, 1, random.Random(seed)) == {"type": "pass"}
    passed = step(state, 1, {"type": "pass"})
    assert passed.state["tally"] == state["tally"] and passed.record == {"seat": 1, "passed": "challenge", "action": 1}
    assert ENGINE.move_types(passed.state, 1) == set()  # it let it stand
    assert "challenge" in ENGINE.move_types(passed.state, 3)  # its teammate still may
    with pytest.raises(EngineError):
        step(passed.state, 1, {"type": "challenge", "action": 1})


def test_rule_a_pass_keeps_the_latest_action_challengeable():
    state = act(started(4), {"type": "swap", "cells": [0, 8]})
    state = play(state, 2, {"type": "pass"})
    assert challenge(state).record["error"] is True


def test_rule_a_timeout_in_the_ready_step_readies_or_mends_never_errs():
    state = new(4)
    assert ENGINE.auto_move(state, 0, random.Random(0)) == {"type": "ready"}
    state = mending()
    move = ENGINE.auto_move(state, 0, random.Random(0))
    assert move["type"] == "mend" and step(state, 0, move).record["mended"] is True


def test_version_1_timeouts_drew_from_the_list_with_its_errors():
    state = act(started(4, version=1), {"type": "swap", "cells": [0, 1]})
    assert engine_of(state).auto_move(state, 1, random.Random(0))["type"] == "challenge"
    assert "pass" not in engine_of(state).move_types(state, 2)


# -- bad input: refused, nothing changes -----------------------------------------------------------
@pytest.mark.parametrize(
    "move",
    [
        {"type": "mend"},
        {"type": "mend", "cells": [1, 1]},
        {"type": "mend", "cells": [1, 4], "cell": 1},
        {"type": "mend", "cell": 5, "direction": "sideways"},
        {"type": "mend", "cells": [1, 4], "rituals": []},
        {"type": "mend", "cells": [1, 4], "rituals": {"answered": "yes"}},
        {"type": "mend", "cells": [1, 4], "x": 1},
    ],
)
def test_malformed_mends_are_refused(move):
    state = mending()
    with pytest.raises(IllegalMove):
        step(state, 0, move)


def test_a_malformed_pass_is_refused_and_version_1_knows_neither_pass_nor_answered():
    state = started(4)
    with pytest.raises(IllegalMove):
        step(state, 0, {"type": "pass", "cells": [0, 1]})
    old = started(4, version=1)
    with pytest.raises(UnavailableMove):
        step(old, 0, {"type": "pass"})
    with pytest.raises(IllegalMove, match="unknown ritual"):
        step(old, 0, {"type": "swap", "cells": [0, 1], "rituals": {"answered": True}})


def test_rule_a_forfeited_photographer_s_turns_go_to_its_teammates():
    """Rules version 2: the server does not pass for a forfeited seat turn after turn; its
    teammates play on, and a team all out leaves the round to the hourglass."""
    state = ENGINE.forfeit(started(4), 0)
    assert turn(state) == 2 and 0 not in ENGINE.active_players(state)
    state = act(state, {"type": "swap", "cells": [0, 1]})
    assert turn(state) == 2
    out = ENGINE.forfeit(state, 2)
    assert not ENGINE.active_players(out) & {0, 2}
    old = engine_of(new(version=1)).forfeit(started(4, version=1), 0)
    assert turn(old) == 0 and 0 in engine_of(old).active_players(old)  # version 1 played for it
