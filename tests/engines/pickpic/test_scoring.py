"""4. Evaluate scores, on hand-built rounds (expected points worked out by hand from the rules).

Card numbers (see helpers): the card seat g gave seat r is 20 + 10*g + r (3 players: also
70 + 10*g + r); seat r's random card is 100 + r. So 30 is "seat 1's gift to seat 0".
"""

from games.engines.pickpic.scoring import evaluate_round, evaluate_stack, giver_of
from tests.engines.pickpic.helpers import rank_all, rank_state, standard_gifts

# Seat 0 of 4 received 30 (from 1), 40 (from 2), 50 (from 3); its random card is 100.
RANDOM_FIRST_4 = [[100, 30, 40, 50], [101, 21, 41, 51], [102, 22, 32, 52], [103, 23, 33, 43]]


def with_seat0(order):
    return [order] + RANDOM_FIRST_4[1:]


def test_giver_of_maps_each_received_card_to_its_giver():
    assert giver_of(standard_gifts(4), 0) == {30: 1, 40: 2, 50: 3}
    assert giver_of(standard_gifts(3), 2) == {22: 0, 72: 0, 32: 1, 82: 1}


def test_random_card_ranked_first_nobody_scores_for_that_stack():
    """Evaluate scores: "when you reach the card that was given at random, stop ... No more points
    are given" - with the random card on top, nobody scores; the top-card bonus needs "(if it
    wasn't the random card)"."""
    state, step = rank_all(rank_state(4), RANDOM_FIRST_4)
    assert state["scores"] == [0, 0, 0, 0]
    for stack in step.record["evaluation"]["stacks"]:
        assert stack["random_position"] == 0 and stack["random_last_bonus"] == 0
        assert all(e["giver_points"] == e["ranker_points"] == 0 for e in stack["order"])


def test_walk_down_the_ranking_both_players_score_until_the_random_card():
    """Evaluate scores: "The player points at the card that he ranked highest. Then the player who
    played that card reveals themselves. Both players receive one point. Then continue to the
    next card. However, when you reach the card that was given at random, stop"."""
    state, step = rank_all(rank_state(4), with_seat0([30, 40, 100, 50]))
    # 30 (seat 1, top: 2) and 40 (seat 2: 1) score, each with 1 for the ranker; 50 is below.
    assert state["scores"] == [2, 2, 1, 0]
    order = step.record["evaluation"]["stacks"][0]["order"]
    assert [(e["card"], e["giver"], e["random"]) for e in order] == [
        (30, 1, False),
        (40, 2, False),
        (100, None, True),
        (50, 3, False),
    ]
    assert [(e["giver_points"], e["ranker_points"]) for e in order] == [(2, 1), (1, 1), (0, 0), (0, 0)]


def test_top_card_giver_scores_2_instead_of_1_and_the_ranker_still_1():
    """Bonus: "The player who played the highest ranked card (if it wasn't the random card)
    receives 2 points instead of 1." The player who *played* the card is its giver ("the player
    who played that card reveals themselves"); the ranker keeps the 1 of "Both players receive
    one point"."""
    state, _ = rank_all(rank_state(4), with_seat0([30, 100, 40, 50]))
    assert state["scores"] == [1, 2, 0, 0]


def test_random_card_ranked_last_gives_the_ranker_a_bonus_point():
    """Bonus: "A player who manages to place the random card at the very last position gets 1
    bonus point." Seat 0 ranks 50, 40, 30, then the random 100."""
    state, step = rank_all(rank_state(4), with_seat0([50, 40, 30, 100]))
    # ranker: 3 cards + 1 bonus; seat 3 top (2), seats 2 and 1 one each.
    assert state["scores"] == [4, 1, 1, 2]
    stack = step.record["evaluation"]["stacks"][0]
    assert stack["random_last_bonus"] == 1 and stack["random_position"] == 3


def test_random_card_second_to_last_earns_no_bonus():
    """Bonus: only "the very last position" counts."""
    state, _ = rank_all(rank_state(4), with_seat0([50, 40, 100, 30]))
    assert state["scores"] == [2, 0, 1, 2]


def test_three_player_giving_two_cards_each_both_can_score():
    """3-player game: "gives 2 cards to each of the other players", so a stack holds 5 cards and a
    giver can score for both of its cards."""
    orders = [
        [80, 30, 90, 100, 40],  # seat 0: seat 1 gave 80 (top: 2) and 30 (1); seat 2 gave 90
        [41, 21, 71, 91, 101],  # seat 1: random last; seat 2 gave 41 (top: 2) and 91 (1)
        [102, 22, 72, 32, 82],  # seat 2: random first, nobody scores
    ]
    state, step = rank_all(rank_state(3), orders)
    # seat 0: ranks 3 (3) + gave 21, 71 to seat 1 (1 + 1)        = 5
    # seat 1: gave 80, 30 (2 + 1) + ranks 4 and the bonus (5)    = 8
    # seat 2: gave 90 (1) + gave 41 (top, 2) and 91 (1)          = 4
    assert state["scores"] == [5, 8, 4]
    assert step.record["evaluation"]["points"] == [5, 8, 4]
    assert [len(s["order"]) for s in step.record["evaluation"]["stacks"]] == [5, 5, 5]


def test_every_player_is_evaluated_one_at_a_time_and_points_add_up():
    """Evaluate scores: "Evaluate each player one at a time"; each seat ranks its gifts in giver
    seat order with the random card last."""
    orders = [[30, 40, 50, 100], [21, 41, 51, 101], [22, 32, 52, 102], [23, 33, 43, 103]]
    state, step = rank_all(rank_state(4, scores=[1, 0, 5, 2]), orders)
    # seat 0: own stack 3 + 1 bonus, and tops the other three stacks (2 each)  = 10
    # seat 1: top of seat 0 (2) + own 4 + second on seats 2 and 3 (1 each)    = 8
    # seat 2: 1 + 1 + own 4 + 1 = 7; seat 3: 1 + 1 + 1 + own 4 = 7
    assert step.record["evaluation"]["points"] == [10, 8, 7, 7]
    assert state["scores"] == [11, 8, 12, 9], "round points add to the scores so far"
    assert step.record["evaluation"]["breakdown"][0] == {"as_giver": 3, "top_card": 3, "as_ranker": 3, "random_last": 1}
    assert [s["seat"] for s in step.record["evaluation"]["stacks"]] == [0, 1, 2, 3]
    assert state["tally"][0] == {"as_giver": 3, "top_card": 3, "as_ranker": 3, "random_last": 1}


def test_five_players_best_round_for_one_stack():
    state, _ = rank_all(
        rank_state(5),
        [[30, 40, 50, 60, 100]] + [[100 + r] + [c for c in state_stack(r) if c != 100 + r] for r in range(1, 5)],
    )
    # ranker 4 + bonus; seat 1 top (2); seats 2, 3, 4 one each.
    assert state["scores"] == [5, 2, 1, 1, 1]


def state_stack(r):
    return sorted(c for g in standard_gifts(5) for c in g.get(str(r), [])) + [100 + r]


def test_evaluate_stack_directly():
    result = evaluate_stack(2, [7, 8, 9], 9, {7: 0, 8: 1}, None)
    assert result["random_last_bonus"] == 1
    assert result["tallies"] == {
        "0": {"as_giver": 1, "top_card": 1, "as_ranker": 0, "random_last": 0},
        "1": {"as_giver": 1, "top_card": 0, "as_ranker": 0, "random_last": 0},
        "2": {"as_giver": 0, "top_card": 0, "as_ranker": 2, "random_last": 1},
    }
    assert "comment" not in result["order"][0]


def test_variant_comments_are_shown_with_each_card_at_evaluation():
    """Variants: "when evaluating, reveal them one by one giving short comments why you ranked
    the photo in that position"."""
    gifts = standard_gifts(3)
    rankings = [
        {"order": [80, 30, 90, 100, 40], "comments": {"30": "same blue", "100": "meh"}},
        {"order": [101, 21, 41, 71, 91], "comments": {}},
        {"order": [102, 22, 72, 32, 82], "comments": {}},
    ]
    out = evaluate_round(3, gifts, [100, 101, 102], rankings, with_comments=True)
    assert [e["comment"] for e in out["stacks"][0]["order"]] == [None, "same blue", None, "meh", None]
    plain = evaluate_round(3, gifts, [100, 101, 102], rankings, with_comments=False)
    assert all("comment" not in e for s in plain["stacks"] for e in s["order"])
