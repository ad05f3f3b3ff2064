"""Cards may be placed horizontally or vertically; turning a card turns its lavender and
sunflowers."""

from games.engines.provence import cards


def squares(card, rotation):
    return {off: (t, a) for off, t, a in cards.oriented(card, rotation)}


def test_cards_lie_horizontally_at_0_and_180_and_vertically_at_90_and_270():
    """Scene Phase rule 1: cards may be placed horizontally or vertically."""
    assert cards.size(0) == cards.size(180) == (3, 2)
    assert cards.size(90) == cards.size(270) == (2, 3)
    for rotation in cards.ROTATIONS:
        w, h = cards.size(rotation)
        assert sorted(cards.footprint("s01", rotation)) == sorted((x, y) for x in range(w) for y in range(h))


def test_rotation_is_clockwise_about_the_card():
    # s01 is "G G G / Lh Sw Sw": the bottom-left Lh goes to the top-left after a quarter turn
    # clockwise, to the top-right after a half turn.
    assert squares("s01", 0)[(0, 1)][0] == "lavender"
    assert squares("s01", 90)[(0, 0)][0] == "lavender"
    assert squares("s01", 180)[(2, 0)][0] == "lavender"
    assert squares("s01", 270)[(1, 2)][0] == "lavender"


def test_a_quarter_turn_changes_the_growth_direction_of_lavender():
    """Each lavender square grows in a direction relative to the card."""
    assert squares("s01", 0)[(0, 1)] == ("lavender", "h")
    assert squares("s01", 90)[(0, 0)] == ("lavender", "v")
    assert squares("s01", 180)[(2, 0)] == ("lavender", "h")
    assert squares("s01", 270)[(1, 2)] == ("lavender", "v")


def test_turning_a_card_turns_where_its_sunflowers_face():
    """s01's sunflowers face the left edge of the card: a quarter turn clockwise makes them face
    the top, the deck side."""
    facings = {r: {a for t, a in squares("s01", r).values() if t == "sunflower"} for r in cards.ROTATIONS}
    assert facings == {0: {"W"}, 90: {"N"}, 180: {"E"}, 270: {"S"}}


def test_the_church_stays_two_adjacent_squares_in_every_rotation():
    for rotation in cards.ROTATIONS:
        (ax, ay), (bx, by) = cards.church_offsets("s07", rotation)
        assert abs(ax - bx) + abs(ay - by) == 1
