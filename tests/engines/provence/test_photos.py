"""Details of the Photo Phase: frames, the Summary of Requirements, and the markers."""

import pytest

from games.engines.provence import photos
from tests.engines.provence.helpers import grid_from

P = (10, 10)  # where the photographer or the drone stands in these tests

SQUARE = {
    "church": ("church", None),
    "mill": ("mill", None),
    "sunflower": ("sunflower", "S"),
    "town": ("town", "gift"),
    "forest": ("forest", None),
    "lavender": ("lavender", "v"),
    "wheat": ("wheat", None),
}
REQUIREMENTS = [
    ("church", 1),
    ("mill", 1),
    ("sunflower", 1),
    ("town", 2),
    ("forest", 2),
    ("lavender", 3),
    ("lavender", 4),
    ("lavender", 5),
    ("wheat", 3),
    ("wheat", 4),
    ("wheat", 5),
]


def row_of(terrain, count, x0, y):
    terrain_, attr = SQUARE[terrain]
    n = 2 if terrain == "church" else count
    return {(x0 + i, y): (terrain_, attr, "card-" + terrain) for i in range(n)}


def frames(holder):
    if holder == "photographer":
        return [photos.photographer_frames(P)["above"]]
    return [photos.drone_frame(P)]


@pytest.mark.parametrize("holder", ["photographer", "drone"])
@pytest.mark.parametrize("terrain,count", REQUIREMENTS)
def test_each_requirement_kind_met_inside_the_frame_and_not_when_a_square_falls_outside(holder, terrain, count):
    """ "All the required scene squares on the Photo Card must appear in this frame." The row
    y = 8 from x = 8 to 12 lies in the photographer's frame above and in the drone's frame."""
    inside = row_of(terrain, count, 8, 8)
    assert photos.frames_met(inside, frames(holder), [[terrain, count]])
    shifted = row_of(terrain, count, 7, 8)  # the first square now lies left of the frame
    assert not photos.frames_met(shifted, frames(holder), [[terrain, count]])


def test_the_photographer_frames_3x5_directly_above_below_left_or_right():
    frames_ = photos.photographer_frames(P)
    assert all(len(f) == 15 for f in frames_.values())
    assert set(frames_["above"]) == {(x, y) for x in range(8, 13) for y in range(7, 10)}
    assert set(frames_["below"]) == {(x, y) for x in range(8, 13) for y in range(11, 14)}
    assert set(frames_["left"]) == {(x, y) for x in range(7, 10) for y in range(8, 13)}
    assert set(frames_["right"]) == {(x, y) for x in range(11, 14) for y in range(8, 13)}
    assert all(P not in f for f in frames_.values())


@pytest.mark.parametrize("mill", [(10, 7), (12, 13), (7, 12), (13, 8)])
def test_a_mill_in_any_of_the_four_photographer_frames_completes_the_photo(mill):
    land = {"photographer": list(P), "drone": [0, 0]}
    assert photos.completed({mill: ("mill", None, "x")}, land, "A2")


@pytest.mark.parametrize("mill", [(13, 7), (7, 7), (10, 6), (14, 10), (12, 14)])
def test_squares_beside_the_frames_do_not_count_for_the_photographer(mill):
    land = {"photographer": list(P), "drone": [0, 0]}
    assert not photos.completed({mill: ("mill", None, "x")}, land, "A2")


def test_the_drone_frames_5x5_centred_on_itself():
    assert set(photos.drone_frame(P)) == {(x, y) for x in range(8, 13) for y in range(8, 13)}
    land = {"photographer": [0, 0], "drone": list(P)}
    church_mill_sun = {
        (8, 8): ("church", None, "c"),
        (8, 9): ("church", None, "c"),
        (12, 12): ("mill", None, "m"),
        (10, 11): ("sunflower", "E", "s"),
    }
    assert photos.completed(church_mill_sun, land, "C4")
    del church_mill_sun[(12, 12)]
    church_mill_sun[(13, 12)] = ("mill", None, "m")
    assert not photos.completed(church_mill_sun, land, "C4")


def test_photographer_cards_use_the_photographer_and_drone_cards_the_drone():
    grid = {(10, 8): ("mill", None, "x")}
    assert photos.completed(grid, {"photographer": [10, 10], "drone": [30, 30]}, "A2")
    assert not photos.completed(grid, {"photographer": [30, 30], "drone": [10, 10]}, "A2")


def test_requirement_1_adjacent_squares_must_be_orthogonally_adjacent_not_diagonally():
    diagonal = grid_from("""
        W . .
        . W .
        . . W
    """)
    assert photos.largest_group(diagonal, set(diagonal), "wheat") == 1
    assert not photos.frames_met(diagonal, [list(diagonal)], [["wheat", 3]])


def test_requirement_2_adjacent_squares_can_form_any_shape():
    l_shape = grid_from("""
        W . .
        W . .
        W W W
    """)
    assert photos.frames_met(l_shape, [list(l_shape)], [["wheat", 5]])


def test_requirement_3_adjacent_lavender_squares_must_grow_in_the_same_direction():
    mixed = grid_from("Lv Lv Lh Lh")
    assert not photos.frames_met(mixed, [list(mixed)], [["lavender", 3]])
    same = grid_from("Lh Lh Lh Lv")
    assert photos.frames_met(same, [list(same)], [["lavender", 3]])


def test_requirement_4_both_squares_of_the_church_must_appear_in_the_frame():
    grid = grid_from("""
        Ca Ca Cb
        .  .  Cb
    """)
    frame = [(0, 0), (1, 1), (2, 1), (3, 3)]  # one square of each church
    assert not photos.frames_met(grid, [frame], [["church", 1]])
    assert photos.frames_met(grid, [frame + [(2, 0)]], [["church", 1]])


def test_adjacency_counts_only_the_squares_inside_the_frame():
    grid = grid_from("W W W W W")
    frame = [(x, 0) for x in range(2, 7)]
    assert photos.frames_met(grid, [frame], [["wheat", 3]])
    assert not photos.frames_met(grid, [frame], [["wheat", 4]])


def test_every_requirement_of_a_card_must_be_met_in_the_same_frame():
    grid = {(0, 0): ("forest", None, "f"), (1, 0): ("forest", None, "f"), (1, 6): ("sunflower", "N", "s")}
    land = {"photographer": [1, 3], "drone": [9, 9]}
    # A4 needs a sunflower and 2 adjacent forests: the forests lie in the frame above, the
    # sunflower in the frame below.
    assert not photos.completed(grid, land, "A4")
    grid[(2, 1)] = ("sunflower", "E", "s2")  # now both are in the frame above
    assert photos.completed(grid, land, "A4")


def new_photo(card):
    from games.engines.provence import cards

    return {"card": card, "markers": [[] for _ in cards.PHOTO[card]["spots"]]}


def test_a_marker_goes_on_the_highest_empty_spot():
    photo = new_photo("B4")  # spots 8, 6, 4, 2
    assert photos.award(photo, [1]) == 0
    assert photos.award(photo, [0]) == 1
    assert photo["markers"] == [[1], [0], [], []]


def test_note_3_players_completing_the_same_card_in_one_turn_share_the_spot():
    photo = new_photo("B4")
    assert photos.award(photo, [2, 0]) == 0
    assert photo["markers"][0] == [0, 2]
    assert photos.award(photo, [1]) == 1


def test_note_4_with_no_empty_spot_markers_go_on_the_infinity_spot_without_limit():
    """The rulebook's example: the 6 spot taken by Yellow, Blue places on the 4 (infinity)
    spot; later completions still go on that 4."""
    photo = new_photo("B1")  # spots 6, 4 (infinity)
    photos.award(photo, [3])  # Yellow
    assert photos.award(photo, [0]) == 1  # Blue
    assert photos.award(photo, [1]) == 1
    assert photos.award(photo, [2, 4]) == 1
    assert photo["markers"] == [[3], [0, 1, 2, 4]]


def test_points_for_photos_add_up_the_spots_holding_the_seats_markers():
    """B. Points for Photos."""
    b1, b4 = new_photo("B1"), new_photo("B4")
    photos.award(b1, [0])  # 6
    photos.award(b4, [1])  # 8
    photos.award(b4, [0, 2])  # 6 each
    assert photos.points([b1, b4], 0) == 6 + 6
    assert photos.points([b1, b4], 1) == 8
    assert photos.points([b1, b4], 3) == 0
    assert photos.holders(b4) == {0, 1, 2}
