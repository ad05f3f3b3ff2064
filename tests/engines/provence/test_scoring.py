"""Game End & Final Scoring, on hand-built landscapes (see helpers.grid_from)."""

from collections import Counter

import pytest

from games.engines import base
from games.engines.provence import ENGINE, cards, scoring
from tests.engines.provence.helpers import grid_from


# -- A. Lavender ------------------------------------------------------------------------------
def test_lavender_example_blue_larger_6x1_plus_smaller_2x2_is_10():
    """ "Blue has a larger field of 6x1 lavender squares plus a smaller field of 2x2 lavender
    squares: 6x1 + 2x2 = 10 points." """
    grid = grid_from("""
        Lv . Lh Lh
        Lv . .  .
        Lv . .  .
        Lv . .  .
        Lv . .  .
        Lv . .  .
    """)
    assert scoring.lavender(grid)["points"] == 6 * 1 + 2 * 2 == 10


def test_lavender_example_red_two_fields_of_the_same_size_3x1_plus_3x2_is_9():
    grid = grid_from("""
        Lh Lh Lh . Lv
        .  .  .  . Lv
        .  .  .  . Lv
    """)
    assert scoring.lavender(grid)["points"] == 3 * 1 + 3 * 2 == 9


def test_only_one_horizontal_and_one_vertical_field_score():
    """ "ONLY score one horizontal and one vertical field. All other fields are not scored." """
    grid = grid_from("""
        Lv . Lv . Lh Lh Lh . Lh Lh
        Lv . Lv . .  .  .  . .  .
        Lv . .  . .  .  .  . .  .
    """)
    assert scoring.lavender(grid)["points"] == 3 * 1 + 3 * 2


def test_a_single_direction_of_lavender_scores_1_per_square():
    assert scoring.lavender(grid_from("Lh Lh Lh Lh"))["points"] == 4


def test_lavender_penalty_3_for_every_spot_a_vertical_field_meets_a_horizontal_one():
    """ "Example: 2 such spots costs 6 points (-6 points)." """
    grid = grid_from("""
        Lv Lh Lh
        Lv .  .
        Lv Lh .
    """)
    lav = scoring.lavender(grid)
    assert lav["meets"] == 2 and lav["penalty"] == -6


def test_lavender_diagonal_contact_is_no_penalty_and_no_field():
    grid = grid_from("""
        Lv .
        .  Lh
    """)
    lav = scoring.lavender(grid)
    assert lav["penalty"] == 0 and lav["points"] == 1 + 2


# -- A. Wheat ---------------------------------------------------------------------------------
def test_wheat_example_1_a_3x2_rectangle_plus_1_lone_square_is_13():
    """ "A 3x2 rectangle of wheat squares (6 squares) plus 1 lone square: 6x2 + 1x1 = 13". The
    lone square scores 1, so it belongs to the field (a separate single would score nothing)."""
    grid = grid_from("""
        W W W W
        W W W .
    """)
    assert scoring.wheat(grid)["points"] == 6 * 2 + 1 * 1 == 13


def test_wheat_example_2_six_squares_in_a_line_score_6():
    assert scoring.wheat(grid_from("W W W W W W"))["points"] == 6


def test_a_single_wheat_square_scores_nothing():
    """ "You must have 2 or more orthogonally adjacent fields to score ... 1 single field does not
    score any points." Diagonal squares are not adjacent."""
    assert scoring.wheat(grid_from("W"))["points"] == 0
    assert (
        scoring.wheat(
            grid_from("""
        W .
        . W
    """)
        )["points"]
        == 0
    )
    assert scoring.wheat(grid_from("W W"))["points"] == 2


def test_a_2x2_square_of_wheat_scores_2_per_square_as_in_the_scoring_example():
    """The text says "larger than 2x2", but the scoring example scores "4 of them within a
    rectangle ... 4x2": we follow the example."""
    assert (
        scoring.wheat(
            grid_from("""
        W W
        W W
    """)
        )["points"]
        == 8
    )


def test_wheat_in_a_2_wide_strip_is_all_inside_a_rectangle():
    grid = grid_from("""
        W W
        W W
        W W
        W .
    """)
    assert scoring.wheat(grid)["points"] == 6 * 2 + 1


# -- A. Sunflowers ----------------------------------------------------------------------------
def test_sunflowers_facing_the_deck_score_2_and_the_others_lose_3():
    """The deck lies beyond the top edge of every landscape: facing N is facing the deck."""
    sun = scoring.sunflowers(grid_from("Sn Sn Se Ss Sw"))
    assert (sun["points"], sun["penalty"]) == (2 * 2, -3 * 3)


# -- A. Towns ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "row,points",
    [
        ("Tc", 1),  # "A single town scores 1 point."
        ("Tc Tg", 3),
        ("Tc Tg Tp", 7),
        ("Tc Tg Tp Ti", 12),
        ("Tc Tc", 1 + 1),  # two sets of one shop
        ("Tc Tc Tg", 3 + 1),
        ("Tc Tg Tp Ti Tc Tg", 12 + 3),  # "Score each set individually."
    ],
)
def test_neighbouring_towns_score_their_sets_of_different_shops_1_3_7_12(row, points):
    assert scoring.towns(grid_from(row))["points"] == points


def test_separate_towns_are_scored_separately():
    grid = grid_from("""
        Tc Tg . Tp
        .  .  Ti .
    """)  # (2,1) is diagonal to (1,0) and (3,0): three towns
    assert scoring.towns(grid)["points"] == 3 + 1 + 1


def test_town_sets_are_as_large_as_possible():
    assert scoring.town_sets(["coffee", "coffee", "gift", "pizza"]) == [3, 1]


# -- C. Goals ---------------------------------------------------------------------------------
def test_goal_values_count_visible_squares_and_measure_largest_fields():
    grid = grid_from("""
        C  C  M  Sn Ss Sn
        Lv Lv Lh F  F  W
        Lv .  .  F  .  W
    """)
    assert scoring.goal_value(grid, "churches") == 2
    assert scoring.goal_value(grid, "mills") == 1
    assert scoring.goal_value(grid, "sunflowers_facing_deck") == 2
    assert scoring.goal_value(grid, "lavender_field") == 3  # the vertical field of 3
    assert scoring.goal_value(grid, "forest_field") == 3
    assert scoring.goal_value(grid, "wheat_field") == 2


def test_goal_first_place_6_second_place_3():
    assert scoring.goal_points([5, 3, 1]) == [6, 3, 0]


def test_goal_needs_at_least_one_visible_qualifying_square():
    assert scoring.goal_points([0, 0]) == [0, 0]
    assert scoring.goal_points([2, 0, 0]) == [6, 0, 0]


def test_goal_players_tied_for_first_gain_the_same_6_and_the_next_value_is_second():
    """ "If one or more players tie for a Goal, they gain the same points." Our reading (see
    docs/provence.md): places follow values, so a tie for 1st does not remove 2nd place."""
    assert scoring.goal_points([4, 4, 2, 1]) == [6, 6, 3, 0]


def test_goal_players_tied_for_second_all_gain_3():
    assert scoring.goal_points([5, 2, 2, 0]) == [6, 3, 3, 0]


# -- The scoring example, and the final count ---------------------------------------------------
EXAMPLE = """
    Lv Lh Lh Lh Lh Lh
    Lv .  W  W  .  .
    Lv .  W  W  W  W
    Lv .  .  .  .  .
    Lv .  Sn Ss .  C
    Lv .  Tc Tg Tp C
    .  .  .  .  .  .
    Tc Ti .  .  .  .
"""
RIVAL = """
    Ca Ca Lv Lv
    Cb Cb .  .
"""


THIRD = """
    F  F  W
    W  G  G
"""
# A real 3-player setup (ENGINE.setup(3, {}, EXAMPLE_SEED)): it deals the church goal and the
# lavender field goal, and photo cards on which seat 0's markers are worth 7, 6, 4, 2 and 8.
EXAMPLE_SEED = "scoring-example-0"
# (photo, spot): seat 0's marker; the rivals (seats 1, 2) took the spots above it first.
EXAMPLE_MARKERS = [("B2", 0), ("B1", 0), ("A1", 0), ("A2", 2), ("C2", 0)]


def example_state():
    state = ENGINE.setup(3, {}, EXAMPLE_SEED)
    assert sorted(g["goal"] for g in state["goals"]) == ["churches", "lavender_field"]
    dealt = {p["card"]: p for p in state["photos"]}
    backs = Counter(cards.PHOTO[c]["back"] for c in dealt)
    assert backs == {"A": 2, "B": 2, "C": 3}, "Game Setup: 2 A, 2 B and 3 C photo cards"
    for card, spot in EXAMPLE_MARKERS:
        markers = dealt[card]["markers"]
        for rival, above in zip((1, 2), range(spot)):
            markers[above].append(rival)  # "place a Player Marker on the highest empty spot"
        markers[spot].append(0)
    return state


def test_the_68_point_scoring_example():
    """Scoring Example: 32 for scenes, 27 for photos, 9 for goals: 68 - from a real setup (the
    two goals and the photo cards as Game Setup deals them), nothing a game could not produce."""
    state = example_state()
    scores, _, breakdown = scoring.final(state, [grid_from(EXAMPLE), grid_from(RIVAL), grid_from(THIRD)])
    mine = breakdown[0]
    assert (mine["lavender"], mine["lavender_penalty"]) == (6 * 1 + 5 * 2, -3)
    assert mine["wheat"] == 4 * 2 + 2 * 1
    assert (mine["sunflowers"], mine["sunflower_penalty"]) == (2, -3)
    assert mine["towns"] == 7 + 3
    assert 16 - 3 + 10 + 2 - 3 + 10 == 32
    assert mine["photos"] == 7 + 6 + 4 + 2 + 8 == 27
    # 6 lavender squares: 1st place; 2 church squares against the rival's 4: 2nd place.
    assert mine["goal_detail"] == {"lavender_field": 6, "churches": 3}
    assert mine["goals"] == 9
    assert scores[0] == mine["total"] == 68
    assert mine["markers_placed"] == 5


def test_the_scoring_examples_goals_lie_on_two_different_goal_cards():
    """The example scores a lavender goal and a church goal in one game: Game Setup ("Randomly
    select 2 Goal Cards ... with a random side facing up") must be able to deal that pair."""
    card_of = {goal: card for card, sides in cards.GOAL_CARDS.items() for goal in sides}
    assert card_of["lavender_field"] != card_of["churches"]
    dealt = {frozenset(g["goal"] for g in ENGINE.setup(2, {}, f"pairs-{i}")["goals"]) for i in range(200)}
    assert frozenset({"lavender_field", "churches"}) in dealt


def test_every_two_goals_of_different_cards_can_be_dealt_and_no_others():
    dealt = {frozenset(g["goal"] for g in ENGINE.setup(2, {}, f"pairs-{i}")["goals"]) for i in range(300)}
    possible = {
        frozenset({a, b})
        for c1, s1 in cards.GOAL_CARDS.items()
        for c2, s2 in cards.GOAL_CARDS.items()
        if c1 < c2
        for a in s1
        for b in s2
    }
    assert dealt == possible and len(possible) == 12


def tie_state(*photo_cards):
    """Two seats, goals nobody scores (no mills, no forests), markers as given."""
    return {
        "players": 2,
        "photos": [{"card": c, "markers": m} for c, m in photo_cards],
        "goals": [{"card": "G2", "goal": "mills"}, {"card": "G3", "goal": "forest_field"}],
    }


def test_tie_break_the_tied_player_with_fewer_player_markers_wins():
    """ "In the case of a tie, the tied player with FEWER PLAYER MARKERS wins the game." """
    state = tie_state(
        ("C4", [[0], [], []]),  # seat 0: 7 with one marker
        ("A1", [[], [], [1]]),  # seat 1: 2 ...
        ("A2", [[1], [], []]),
    )  # ... + 4, two markers
    scores, keys, breakdown = scoring.final(state, [grid_from("G"), grid_from("Tc")])  # + 1
    assert scores == {0: 7, 1: 7}
    assert (breakdown[0]["markers_placed"], breakdown[1]["markers_placed"]) == (1, 2)
    result = base.make_result(scores, keys)
    assert result["winners"] == [0] and result["places"] == [1, 2]


def test_tie_break_still_tied_players_share_the_victory():
    """ "If there is still a tie, the tied players share the victory." """
    state = tie_state(("C4", [[0], [], []]), ("B3", [[1], [], []]))  # 7 each, one marker each
    scores, keys, _ = scoring.final(state, [grid_from("G"), grid_from("G")])
    assert scores == {0: 7, 1: 7}
    result = base.make_result(scores, keys)
    assert result["winners"] == [0, 1] and result["places"] == [1, 1]


# -- the running score (the players bar) ------------------------------------------------------
def test_the_running_score_is_the_final_scoring_of_the_landscapes_as_they_stand():
    """Landscapes, photos and goals are public: every viewer's players bar shows, for every seat,
    what the final scoring would give now, and at the end exactly the result."""
    import random
    from datetime import datetime, timezone

    at = datetime(2026, 1, 1, tzinfo=timezone.utc)
    state = ENGINE.setup(2, {}, "running")
    chooser = random.Random(3)
    seen_points = False
    while not ENGINE.is_over(state):
        seat = min(ENGINE.active_players(state))
        state = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)), at)
        scores, _, _ = scoring.final(state)
        for viewer in (0, 1, None):
            assert ENGINE.standing(ENGINE.view(state, viewer)) == [
                {"seats": [0], "score": scores[0]},
                {"seats": [1], "score": scores[1]},
            ]
        seen_points = seen_points or any(scores.values())
    assert seen_points
    assert [s["score"] for s in ENGINE.standing(ENGINE.view(state, 0))] == ENGINE.result(state)["scores"]
