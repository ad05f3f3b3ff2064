"""End of Round and Scoring, Adding Effects (every level), End of Game."""

import pytest

from games.engines.photoshoot import ENGINE
from games.engines.photoshoot import effects as fx
from tests.engines.photoshoot.helpers import act, at, challenge, new, started


def run_out(state, when=500):
    return ENGINE.play(state, None, {"type": "hourglass_run_out"}, at(when))


def colours(cards):
    return [fx.CARDS[c]["colour"] for c in cards]


def test_photographers_score_2_per_objective_and_1_per_token_control_1_per_token():
    state = act(started(), {"type": "photo"})  # unchallenged false photo: 2
    state = act(state, {"type": "swap", "cells": [0, 1]})
    state = challenge(state).state  # correct: photographer token
    state = act(state, {"type": "swap", "cells": [0, 8]})
    state = challenge(state).state  # error: control token
    result = run_out(state)
    assert result.record["points"] == [3, 1] and result.state["scores"] == [3, 1]
    assert result.state["tokens"] == 10, "the tokens go back to the supply once counted"


def test_when_the_ten_camera_tokens_run_out_no_more_are_won_this_round():
    state = started()
    for _ in range(12):
        state = challenge(act(state, {"type": "swap", "cells": [0, 1]})).state
    assert state["tally"]["photographer_tokens"] == 10 and state["tokens"] == 0
    assert run_out(state).state["scores"] == [10, 0]


def test_the_teams_swap_roles_at_the_end_of_each_round():
    state = run_out(started()).state
    assert state["photographers"] == 1 and state["round"] == 2
    assert ENGINE.view(state, None)["awaiting_ready"] == [0, 1, 2, 3]


EXPECTED = {  # level -> threshold -> colours drawn (Difficulty Levels)
    1: {0: [], 5: ["blue"], 15: ["orange"]},
    2: {0: ["blue"], 5: ["blue"], 15: ["orange"]},
    3: {0: ["blue"], 5: ["orange"], 15: ["orange"]},
    4: {0: ["blue"], 5: ["blue", "blue"], 15: ["orange"]},
    5: {0: ["blue"], 5: ["blue", "orange"], 15: ["orange"]},
}


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_effect_cards_are_drawn_at_each_threshold_of_the_level(level):
    state = new(4, level=level)
    want = EXPECTED[level]
    assert colours(state["effects"][0]) == want[0] == colours(state["effects"][1])
    state = started(level=level)
    state["effects"] = [[], []]
    state["drawn"] = [[0], [0]]
    state["scores"] = [4, 0]
    state = run_out(state).state  # 4 points: no threshold passed
    assert state["effects"] == [[], []]
    state["scores"] = [5, 0]
    result = run_out(started_again(state))
    assert colours(result.state["effects"][0]) == want[5]
    assert [d["threshold"] for d in result.record["drawn"]] == [5] * len(want[5])
    state = result.state
    state["scores"] = [15, 0]
    result = run_out(started_again(state))
    assert colours(result.state["effects"][0]) == want[5] + want[15]
    assert result.state["effects"][1] == [], "an effect only applies to the team that drew it"


def started_again(state):
    from tests.engines.photoshoot.helpers import play

    while state["phase"] == "ready":
        seat = min(ENGINE.active_players(state))
        state = play(state, seat, ENGINE.legal_moves(state, seat)[0])
    return state


def test_a_threshold_passed_in_the_other_teams_round_draws_before_its_photographer_round():
    """ "A team may pass the 5 or 15 point threshold during the other team's turn. It will then
    draw an Effect card before starting its Photographer round"."""
    state = started()
    state["scores"] = [0, 3]
    for _ in range(2):  # the control team (team 1) catches two errors: 3 + 2 = 5 points
        state = challenge(act(state, {"type": "swap", "cells": [0, 8]})).state
    result = run_out(state)
    assert result.state["scores"] == [0, 5]
    assert [(d["team"], d["threshold"], d["card"]["colour"]) for d in result.record["drawn"]] == [(1, 5, "blue")]
    assert len(result.state["effects"][1]) == 1 and result.state["photographers"] == 1
    view = ENGINE.view(result.state, None)
    assert view["black_frame"] == fx.characters_of(result.state["effects"][1])


def test_thresholds_are_drawn_once():
    state = started()
    state["scores"] = [20, 0]
    first = run_out(state).state
    assert colours(first["effects"][0]) == ["blue", "orange"]
    again = started_again(first)
    again = run_out(again).state
    assert colours(again["effects"][0]) == ["blue", "orange"]


@pytest.mark.parametrize("level", [1, 3, 5])
def test_family_variant_draws_only_blue_effect_cards(level):
    state = started(level=level, family=True)
    state["scores"] = [20, 0]
    state = run_out(state).state
    assert set(colours(state["effects"][0])) == {"blue"}
    assert len(state["effects"][0]) == len(EXPECTED[level][5]) + len(EXPECTED[level][15])


def test_the_game_ends_when_both_teams_have_played_as_many_photographer_rounds():
    state = started()
    state["scores"] = [30, 10]
    state = run_out(state).state  # team 0 passed 25 in round 1...
    assert state["phase"] == "ready" and state["photographers"] == 1  # ...team 1 still plays
    assert ENGINE.result(state) is None
    state = started_again(state)
    result = run_out(state)
    assert result.state["phase"] == "over" and result.state["photo_rounds"] == [1, 1]
    out = ENGINE.result(result.state)
    assert out["winners"] == [0, 2] and out["teams"] == [[0, 2], [1, 3]] and out["team_scores"] == [30, 10]
    assert out["scores"] == [30, 10, 30, 10] and out["places"] == [1, 2, 1, 2]  # teams placed


def test_the_second_team_can_overtake_in_its_last_round():
    state = started()
    state["scores"] = [25, 24]
    state = started_again(run_out(state).state)
    state["scores"] = [25, 27]
    out = ENGINE.result(run_out(state).state)
    assert out["winners"] == [1, 3]


def test_equal_points_is_a_shared_result():
    state = started()
    state["scores"] = [25, 20]
    state = started_again(run_out(state).state)
    state["scores"] = [25, 25]
    out = ENGINE.result(run_out(state).state)
    assert out["winners"] == [0, 1, 2, 3] and out["places"] == [1, 1, 1, 1]


def test_teams_option_chooses_who_is_on_which_team():
    """ "Divide into 2 teams as equally as possible (it is fine to play 2 against 3)"."""
    assert new(5, teams="halves")["teams"] == [[0, 1, 2], [3, 4]]
    assert new(6, teams="halves")["teams"] == [[0, 1, 2], [3, 4, 5]]
    assert new(5)["teams"] == [[0, 2, 4], [1, 3]]  # default: alternate seats, 3 against 2
    assert new(4)["teams"] == [[0, 2], [1, 3]]
    with pytest.raises(ValueError):
        new(5, teams="random")
    assert new(3, teams="halves")["teams"] == [[0, 1, 2]]  # cooperative: one team
