"""The round structure, the pipeline and the end of the game."""

import json

import pytest

from games.engines import base, get
from games.engines.base import GameOver, IllegalMove, NotYourTurn, UnavailableMove
from games.engines.pickpic import ENGINE
from games.engines.pickpic.moves import hand_size
from tests.engines.pickpic.helpers import (
    T0,
    assert_cards_accounted,
    give_state,
    play,
    rank_all,
    rank_state,
    standard_gifts,
)


def test_registered_identity_and_player_range_three_to_five():
    assert get("pickpic") is ENGINE
    assert (ENGINE.kind, ENGINE.title, ENGINE.min_players, ENGINE.max_players) == ("pickpic", "Pick Pic", 3, 5)
    for players in (2, 6, "4", True):
        with pytest.raises(ValueError):
            ENGINE.setup(players, {}, "s")


def test_options_target_20_and_comments_off_by_default():
    """End of the Game: "if one or more players have reached 20 points"; the variant is opt-in."""
    schema = ENGINE.options_schema()
    assert schema["properties"]["target"]["default"] == 20
    assert schema["properties"]["comments"]["default"] is False
    assert schema["additionalProperties"] is False
    assert ENGINE.setup(4, {}, "s")["options"] == {"target": 20, "comments": False}
    assert ENGINE.setup(4, {"target": 7, "comments": True}, "s")["options"] == {"target": 7, "comments": True}


@pytest.mark.parametrize(
    "options", [{"target": 0}, {"target": "20"}, {"target": True}, {"comments": "yes"}, {"colour": 1}]
)
def test_bad_options_are_refused_at_setup(options):
    with pytest.raises(ValueError):
        ENGINE.setup(4, options, "s")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_reveals_a_photo_per_player_and_deals_secret_hands(players):
    """1. Reveal a card: "Draw one card and place it face-up in front of each player"; 2. Give
    cards: "Each player draws a secret hand"."""
    state = ENGINE.setup(players, {}, "deal")
    assert state["round"] == 1 and state["phase"] == "give"
    assert len(state["table"]) == players
    assert [len(h) for h in state["hands"]] == [hand_size(players)] * players
    assert len(state["deck"]) == 120 - players - players * hand_size(players)
    assert state["scores"] == [0] * players
    assert_cards_accounted(state)
    assert ENGINE.setup(players, {}, "deal") == state, "setup derives everything from the seed"
    assert ENGINE.setup(players, {}, "other")["deck"] != state["deck"]


def test_giving_is_simultaneous_and_nothing_resolves_until_all_have_given():
    """Give cards: every seat acts, in any order; "When all players have received exactly one card
    from each of the other players" the rank phase starts."""
    state = give_state(4)
    assert ENGINE.active_players(state) == {0, 1, 2, 3}
    for seat in (2, 0, 3):
        state = play(state, seat, {"type": "give", "gifts": standard_gifts(4)[seat]}).state
        assert seat not in ENGINE.active_players(state) and state["phase"] == "give"
        assert ENGINE.legal_moves(state, seat) == []
    step = play(state, 1, {"type": "give", "gifts": standard_gifts(4)[1]})
    assert step.event_type == "CardsGiven" and step.state["phase"] == "rank"
    assert ENGINE.active_players(step.state) == {0, 1, 2, 3}


def test_once_all_have_given_one_random_card_joins_each_stack():
    """3. Rank cards: "draw one random card from the deck and shuffle it into your stack"."""
    state = give_state(4)
    deck_before = list(state["deck"])
    for seat in range(4):
        step = play(state, seat, {"type": "give", "gifts": standard_gifts(4)[seat]})
        state = step.state
    assert state["random"] == deck_before[::-1][:4], "random cards come from the deck's top"
    assert len(state["deck"]) == len(deck_before) - 4
    for r in range(4):
        received = sorted(c for g in standard_gifts(4) for c in g.get(str(r), []))
        assert sorted(state["stacks"][r]) == sorted(received + [state["random"][r]])
    assert step.record["stacks"] == state["stacks"] and step.record["deck_size"] == len(state["deck"])
    assert_cards_accounted(state)


def test_three_player_round_through_the_engine():
    """3-player game: "each player draws 4 cards to their hand and gives 2 cards to each of the
    other players": stacks of 2 + 2 + the random card."""
    state = ENGINE.setup(3, {}, "three")
    assert [len(h) for h in state["hands"]] == [4, 4, 4]
    for seat in range(3):
        moves = ENGINE.legal_moves(state, seat)
        assert len(moves) == 6
        state = play(state, seat, moves[-1]).state
    assert [len(s) for s in state["stacks"]] == [5, 5, 5]
    assert len(ENGINE.legal_moves(state, 0)) == 120
    assert_cards_accounted(state)


def test_stack_order_hides_givers_and_the_random_card():
    """Rank cards: the random card is shuffled in "without revealing it": the stack's order
    depends on its cards and the seed only."""
    a = give_state(4)
    b = give_state(4)
    swapped = standard_gifts(4)
    # Seats 1 and 2 swap what they give seat 0 (30 <-> 40): seat 0's stack must look the same.
    swapped[1]["0"], swapped[2]["0"] = [40], [30]
    b["hands"][1], b["hands"][2] = sorted([40, 32, 33]), sorted([30, 41, 43])
    for seat in range(4):
        a = play(a, seat, {"type": "give", "gifts": standard_gifts(4)[seat]}).state
        b = play(b, seat, {"type": "give", "gifts": swapped[seat]}).state
    assert a["stacks"][0] == b["stacks"][0]
    assert a["stacks"][0] != sorted(a["stacks"][0]) or a["stacks"][1] != sorted(a["stacks"][1])


def test_ranking_is_simultaneous_and_evaluation_waits_for_everybody():
    """Rank cards: "All players do this simultaneously, and when everybody is ready, you move on
    to the evaluation"."""
    state = rank_state(4)
    for seat in (3, 1, 0):
        step = play(state, seat, {"type": "rank", "order": state["stacks"][seat]})
        assert step.event_type == "CardsRanked" and step.record == {"round": 1}
        state = step.state
        assert state["phase"] == "rank" and seat not in ENGINE.active_players(state)
    step = play(state, 2, {"type": "rank", "order": state["stacks"][2]})
    assert step.event_type == "RoundEvaluated"


def test_end_of_the_round_discards_the_round_cards_and_the_next_round_starts():
    """End of the Round: "discard all the cards used during this round"; then a new round."""
    state = rank_state(4)
    used = set(state["table"]) | {c for s in state["stacks"] for c in s}
    deck = list(state["deck"])
    state, step = rank_all(state, [s for s in state["stacks"]])
    assert set(step.record["discarded"]) == used and set(state["discard"]) == used
    assert state["round"] == 2 and state["phase"] == "give"
    assert step.record["next"]["table"] == state["table"] == deck[::-1][:4]
    assert step.record["next"]["hands"] == state["hands"]
    assert state["gifts"] == state["rankings"] == state["stacks"] == [None] * 4
    assert_cards_accounted(state)


def test_the_game_ends_after_the_round_in_which_someone_reached_the_target():
    """End of the Game: "At the end of the round, if one or more players have reached 20 points,
    the game ends and the player with the highest points is the winner"."""
    orders = [[30, 100, 40, 50], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]]
    # seat 0 scores 1 (ranker) and seat 1 scores 2 (top giver): 18 + 2 = 20 ends the game.
    state, step = rank_all(rank_state(4, scores=[3, 18, 19, 0]), orders)
    assert state["phase"] == "over" and ENGINE.active_players(state) == set()
    result = ENGINE.result(state)
    assert result["scores"] == [4, 20, 19, 0]
    assert result["winners"] == [1] and result["places"] == [3, 1, 2, 4]
    assert result["breakdown"][1]["total"] == 20 and step.record["result"] == result
    assert step.record["next"] is None
    assert_cards_accounted(state)
    with pytest.raises(GameOver):
        ENGINE.play(state, 0, {"type": "give", "gifts": {}}, T0)


def test_below_the_target_the_game_goes_on():
    orders = [[30, 100, 40, 50], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]]
    state, _ = rank_all(rank_state(4, scores=[3, 17, 19, 0]), orders)
    assert state["phase"] == "give" and state["scores"] == [4, 19, 19, 0]
    assert ENGINE.result(state) is None


def test_the_highest_score_wins_not_the_first_to_reach_the_target():
    """End of the Game: "the player with the highest points is the winner". The Overview's "The
    first player to reach 20 points will win" is a summary: the detailed rule decides."""
    orders = [[30, 40, 50, 100], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]]
    # seat 0 ranks with the random card last: +4; seats 1 +2, 2 +1, 3 +1.
    state, _ = rank_all(rank_state(4, scores=[17, 10, 23, 5]), orders)
    assert state["scores"] == [21, 12, 24, 6]
    assert ENGINE.result(state)["winners"] == [2]


def test_a_tie_shares_the_victory():
    """End of the Game: "In case of a tie, share the victory"."""
    orders = [[30, 100, 40, 50], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]]
    state, _ = rank_all(rank_state(4, scores=[19, 18, 20, 0]), orders)
    result = ENGINE.result(state)
    assert result["scores"] == [20, 20, 20, 0]
    assert result["winners"] == [0, 1, 2] and result["places"] == [1, 1, 1, 4]


def test_target_option_changes_the_end():
    orders = [[30, 100, 40, 50], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]]
    state, _ = rank_all(rank_state(4, options={"target": 2}), orders)
    assert state["phase"] == "over" and ENGINE.result(state)["winners"] == [1]


def test_variant_comments_through_the_engine():
    """Variants: ranked cards are "revealed one by one giving short comments"."""
    state = rank_state(4, options={"comments": True})
    comments = {0: {"30": "the same warm light"}}
    state, step = rank_all(state, [[30, 100, 40, 50], *[s for s in state["stacks"][1:]]], comments)
    first = step.record["evaluation"]["stacks"][0]["order"][0]
    assert first == {
        "card": 30,
        "giver": 1,
        "random": False,
        "giver_points": 2,
        "ranker_points": 1,
        "comment": "the same warm light",
    }
    plain = rank_state(4)
    with pytest.raises(IllegalMove, match="variant"):
        play(plain, 0, {"type": "rank", "order": [30, 100, 40, 50], "comments": comments[0]})


def test_pipeline_errors_in_order():
    state = give_state(4)
    given = play(state, 0, {"type": "give", "gifts": standard_gifts(4)[0]}).state
    with pytest.raises(NotYourTurn):
        play(given, 0, {"type": "give", "gifts": standard_gifts(4)[0]})
    with pytest.raises(UnavailableMove):
        play(state, 1, {"type": "rank", "order": [1, 2, 3]})
    with pytest.raises(IllegalMove):
        play(state, 1, {"type": "give"})
    with pytest.raises(IllegalMove):
        ENGINE.play(state, 1, ["give"], T0)
    with pytest.raises(UnavailableMove):
        play(rank_state(4), 0, {"type": "give", "gifts": standard_gifts(4)[0]})


def test_step_itself_refuses_what_the_pipeline_would_catch():
    """step validates in full even when called directly (system actor, wrong phase, twice)."""
    state = give_state(4)
    given = play(state, 0, {"type": "give", "gifts": standard_gifts(4)[0]}).state
    cases = [
        (state, None, {"type": "give", "gifts": standard_gifts(4)[0]}, "seated"),
        (state, 7, {"type": "give", "gifts": standard_gifts(4)[0]}, "seated"),
        (state, 0, {"type": "rank", "order": []}, "not a move of the give phase"),
        (state, 0, {"type": 5}, "not a move"),
        (given, 0, {"type": "give", "gifts": standard_gifts(4)[0]}, "already given"),
        (state, 0, "x", "object"),
    ]
    for st, actor, move, why in cases:
        with pytest.raises(IllegalMove, match=why):
            ENGINE.step(st, actor, move, T0)
    ranked = play(rank_state(4), 0, {"type": "rank", "order": [30, 40, 50, 100]}).state
    with pytest.raises(IllegalMove, match="already ranked"):
        ENGINE.step(ranked, 0, {"type": "rank", "order": [30, 40, 50, 100]}, T0)
    over = dict(ranked, phase="over")
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.step(over, 1, {"type": "rank", "order": []}, T0)


def test_move_types_are_cheap_and_match_legal_moves():
    state = give_state(5)
    assert ENGINE.move_types(state, 0) == {"give"} == {m["type"] for m in ENGINE.legal_moves(state, 0)}
    assert ENGINE.move_types(state, None) == set()
    assert ENGINE.move_types(rank_state(5), 2) == {"rank"}


def test_step_keeps_unknown_top_level_keys_and_never_mutates_its_input():
    state = give_state(4)
    state["_forfeited"] = [3]
    frozen = json.dumps(state, sort_keys=True)
    after = play(state, 0, {"type": "give", "gifts": standard_gifts(4)[0]}).state
    assert after["_forfeited"] == [3] and json.dumps(state, sort_keys=True) == frozen
    final, _ = rank_all(
        rank_state(4) | {"_forfeited": [2]},
        [[30, 40, 50, 100], [21, 41, 51, 101], [22, 32, 52, 102], [23, 33, 43, 103]],
    )
    assert final["_forfeited"] == [2]


def test_forfeits_are_handled_by_the_base_outcome():
    state = base.clone(give_state(3))
    state = ENGINE.forfeit(ENGINE.forfeit(state, 0), 2)
    assert ENGINE.outcome(state)["winners"] == [1]


def test_stack_order_does_not_tell_the_random_card_from_a_gift():
    """Rank cards: the random card is shuffled in "without revealing it"."""
    a, b = give_state(4), give_state(4)
    assert a["deck"][-1] == 120  # seat 0's random card in `a`
    # In `b`, seat 1 gives seat 0 card 120 instead of 30, and 30 is the random card.
    b["hands"][1] = sorted([120, 32, 33])
    b["deck"][-1] = 30
    gifts_b = standard_gifts(4)
    gifts_b[1]["0"] = [120]
    for seat in range(4):
        a = play(a, seat, {"type": "give", "gifts": standard_gifts(4)[seat]}).state
        b = play(b, seat, {"type": "give", "gifts": gifts_b[seat]}).state
    assert (a["random"][0], b["random"][0]) == (120, 30)
    assert a["stacks"][0] == b["stacks"][0]


def test_scoring_tokens_are_plain_counters_without_a_supply_limit():
    """Setting Up: "Place all the scoring tokens aside" (42 x 1, 12 x 5, 6 x 10 = 162 points):
    the tokens only keep score, so scores are plain numbers and never run out."""
    state = rank_state(4, scores=[160, 0, 0, 0], options={"target": 200})
    state, _ = rank_all(state, [[30, 40, 50, 100], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]])
    assert state["scores"][0] == 164 and state["phase"] == "give"


JUNK = [
    {"type": "give", "gifts": "all"},
    {"type": "give", "gifts": {"1": None}},
    {"type": "give", "gifts": {"1": [[21]], "2": [22], "3": [23]}},
    {"type": "give", "gifts": {"1": {"x": 1}, "2": [22], "3": [23]}},
    {"type": "give", "gifts": {1: [21], 2: [22], 3: [23]}},
    {"type": "rank", "order": None},
    {"type": "rank", "order": [{"card": 1}]},
    {"type": "rank", "order": [30, 40, 50, 100], "comments": {30: "int key"}},
    {"type": "rank", "order": [30, 40, 50, 100], "comments": "text"},
    {"type": "give"},
    {"type": "rank"},
    {"type": "pass"},
    {"type": ""},
]


@pytest.mark.parametrize("move", JUNK)
def test_malformed_moves_are_refused_with_an_engine_error_never_a_crash(move):
    for state in (give_state(4), rank_state(4, options={"comments": True})):
        with pytest.raises(base.EngineError):
            play(state, 0, move)
        with pytest.raises(IllegalMove):
            ENGINE.step(state, 0, move, T0)
