"""The protocol's shared machinery: the pipeline's order, rankings, forfeits, seeded randomness."""

import pytest

from games.engines import base
from tests.duel import ENGINE as DUEL
from tests.engines.contract import T0


def fresh():
    return DUEL.setup(2, {}, "base-tests")


def over():
    return {**fresh(), "deck": [], "hands": [[], []], "trick": [], "tricks": [4, 2]}


def test_the_pipeline_checks_game_over_first():
    with pytest.raises(base.GameOver):
        DUEL.play(over(), 1, {"type": "nonsense"}, T0)


def test_then_the_inactive_seat():
    with pytest.raises(base.NotYourTurn):
        DUEL.play(fresh(), 1, {"type": "nonsense"}, T0)


def test_then_the_unavailable_move_type():
    with pytest.raises(base.UnavailableMove):
        DUEL.play(fresh(), 0, {"type": "draw"}, T0)


def test_then_the_engines_own_legality():
    with pytest.raises(base.IllegalMove):
        DUEL.play(fresh(), 0, {"type": "play", "card": "D99"}, T0)


@pytest.mark.parametrize("move", [None, "play", 3, [], {"card": "D01"}, {"type": 5}])
def test_a_move_that_is_not_an_object_with_a_type_is_illegal(move):
    with pytest.raises(base.IllegalMove):
        DUEL.play(fresh(), 0, move, T0)


def test_each_stage_has_its_own_code():
    codes = {base.GameOver.code, base.NotYourTurn.code, base.UnavailableMove.code, base.IllegalMove.code}
    assert codes == {"game_over", "not_your_turn", "unavailable_move", "illegal_move"}


def test_places_are_competition_ranks_and_equal_keys_share():
    assert base.places({0: (5,), 1: (7,), 2: (7,), 3: (1,)}) == {1: 1, 2: 1, 0: 3, 3: 4}


def test_make_result_ties_on_the_whole_key_share_the_victory():
    result = base.make_result({0: 10, 1: 10, 2: 3}, keys={0: (10, 2), 1: (10, 2), 2: (3, 9)})
    assert result["winners"] == [0, 1] and result["places"] == [1, 1, 3]
    broken = base.make_result({0: 10, 1: 10}, keys={0: (10, 1), 1: (10, 2)}, tie_break="more good shots")
    assert broken["winners"] == [1] and broken["tie_break"] == "more good shots"


def test_seeded_streams_are_reproducible_and_independent_per_label():
    assert base.rng("s", "deck").random() == base.rng("s", "deck").random()
    assert base.rng("s", "deck").random() != base.rng("s", "reshuffle", 1).random()
    assert base.rng("s", "deck").random() != base.rng("t", "deck").random()


def test_a_forfeit_never_mutates_and_is_kept_in_the_state():
    state = fresh()
    out = DUEL.forfeit(state, 1)
    assert "_forfeited" not in state and DUEL.forfeited(out) == [1]


def test_with_one_seat_left_the_game_is_over_and_that_seat_wins():
    result = DUEL.outcome(DUEL.forfeit(fresh(), 0))
    assert result["winners"] == [1] and result["forfeited"] == [0] and result["places"] == [2, 1]


def test_a_forfeited_seat_ranks_below_every_seat_still_in_whatever_its_score():
    result = DUEL.outcome(DUEL.forfeit(over(), 0))  # seat 0 had the most tricks
    assert result["scores"] == [4, 2] and result["places"] == [2, 1] and result["winners"] == [1]
