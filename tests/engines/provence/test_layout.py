"""Details of the Scene Phase: where a new card may go, and what stays visible.

The starting card start1 is "R G R / Lh P W" at the origin: x 0..2, y 0..1, the photographer on
the scooter (1, 1) and the drone on the tree (0, 0).
"""

import itertools

import pytest

from games.engines.provence import cards, layout
from tests.engines.provence.helpers import landscape


def error(land, card, x, y, rotation=0, under=False):
    return layout.placement_error(land, card, x, y, rotation, under)


def test_the_starting_card_lies_at_the_origin_with_the_tokens_on_scooter_and_tree():
    land = landscape()
    grid = layout.visible(land)
    assert sorted(grid) == [(x, y) for x in range(3) for y in range(2)]
    assert grid[tuple(land["photographer"])][:2] == ("meadow", "scooter")
    assert grid[tuple(land["drone"])][:2] == ("meadow", "tree")


def test_rule_1_cards_may_be_placed_horizontally_or_vertically():
    land = landscape()
    assert error(land, "s09", 3, 0, 0) is None  # 3x2 to the right
    assert error(land, "s09", 3, 0, 90) is None  # 2x3 to the right
    assert error(land, "s09", 0, -2, 180) is None
    assert error(land, "s09", -2, 0, 270) is None


def test_rule_2_a_new_card_must_touch_orthogonally_cover_or_be_tucked_under():
    land = landscape()
    assert error(land, "s09", 3, 0) is None  # orthogonally adjacent
    assert "touch" in error(land, "s09", 4, 0)  # a gap of one square
    assert "touch" in error(land, "s09", 3, 2)  # only diagonal to (2, 1)
    assert error(land, "s09", 1, -1) is None  # covering (1, 0) and (2, 0)
    assert error(land, "s09", 1, -1, under=True) is None  # hidden under (1, 0) and (2, 0)


def test_tucking_under_needs_an_earlier_card_to_go_under():
    """Rule 2 "hidden under a previously placed card": a card beside the landscape is simply
    placed, not tucked."""
    assert "tucked under" in error(landscape(), "s09", 3, 0, under=True)


def test_rule_3_at_least_one_square_of_the_new_card_is_visible():
    land = landscape()
    assert "visible" in error(land, "s09", 0, 0, 0, under=True)  # hidden entirely
    assert error(land, "s09", 0, 1, 0, under=True) is None  # its bottom row sticks out


def test_a_tucked_card_shows_only_its_squares_outside_the_earlier_cards():
    land = landscape()
    layout.place(land, "s09", 1, -1, 0, True)  # "Lh Lh W / M G G" under the top row
    grid = layout.visible(land)
    assert grid[(1, 0)][2] == grid[(2, 0)][2] == "start1"  # still the starting card
    assert grid[(3, 0)] == ("meadow", None, "s09")
    assert [grid[(x, -1)][0] for x in (1, 2, 3)] == ["lavender", "lavender", "wheat"]


def test_a_card_placed_on_top_covers_what_lies_beneath():
    land = landscape()
    layout.place(land, "s09", 1, -1, 0, False)
    grid = layout.visible(land)
    assert grid[(1, 0)] == ("mill", None, "s09") and grid[(2, 0)] == ("meadow", None, "s09")


def test_a_later_card_tucked_under_stays_below_every_earlier_card():
    land = landscape()
    layout.place(land, "s09", 1, -1, 0, False)
    layout.place(land, "s18", 2, -1, 0, True)  # under both start1 and s09
    grid = layout.visible(land)
    assert grid[(3, -1)][2] == "s09" and grid[(2, 0)][2] == "s09"
    assert grid[(4, -1)][2] == "s18"


def test_rule_4_squares_with_a_photographer_or_drone_token_can_not_be_covered():
    land = landscape()
    assert "token" in error(land, "s09", 0, 1)  # covers the photographer at (1, 1)
    assert "token" in error(land, "s09", -2, -1)  # covers the drone at (0, 0)
    # Tucking a card under never covers a token: the token's square stays on top.
    assert error(land, "s09", -1, 0, 0, under=True) is None


def church_landscape():
    # s07 "C W W / C M Sw": its church on (3, 0) and (3, 1), right of the starting card.
    return landscape("start1", ("s07", 3, 0, 0, False))


def test_rule_5_a_church_is_covered_whole_or_not_at_all():
    land = church_landscape()
    assert "church" in error(land, "s09", 3, -1, 0)  # would cover (3, 0) only
    assert error(land, "s09", 3, -1, 90) is None  # covers (3, 0) and (3, 1): both
    assert error(land, "s09", 4, -1, 0) is None  # covers neither


def test_rule_5_applies_to_a_tucked_card_own_church():
    """A church ends up fully visible or fully hidden, whichever card lies on top."""
    land = landscape()
    assert "church" in error(land, "s07", 2, -1, 0, under=True)  # church (2,-1) out, (2,0) under
    assert error(land, "s07", 2, 0, 0, under=True) is None  # both church squares under start1


def brute_force(land, card, margin=4):
    grid = layout.visible(land)
    xs = [x for x, _ in grid]
    ys = [y for _, y in grid]
    found = set()
    for x, y, rotation, under in itertools.product(
        range(min(xs) - margin, max(xs) + margin),
        range(min(ys) - margin, max(ys) + margin),
        cards.ROTATIONS,
        (False, True),
    ):
        if layout.placement_error(land, card, x, y, rotation, under) is None:
            found.add((x, y, rotation, under))
    return found


@pytest.mark.parametrize("card", ["s07", "s09", "s44"])
def test_enumerated_placements_are_exactly_the_legal_ones(card):
    land = landscape("start3", ("s07", 3, 0, 0, False), ("s12", -1, -2, 90, False), ("s33", 1, 1, 0, True))
    listed = list(layout.placements(land, card))
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force(land, card)
