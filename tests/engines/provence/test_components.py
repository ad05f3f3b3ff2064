"""The reconstructed components agree with what the rulebook says about them."""

from collections import Counter

from games.engines.provence import cards, components
from games.engines.provence.layout import NEIGHBOURS


def test_fifty_scene_cards_20_marked_2plus_and_10_each_3plus_4plus_5plus():
    """Components: 50 Scene Cards; Setup step 1 lists 20/30/40/50 cards for 2/3/4/5 players."""
    marks = Counter(card["min_players"] for card in cards.SCENE.values())
    assert len(cards.SCENE) == 50
    assert marks == {2: 20, 3: 10, 4: 10, 5: 10}
    assert [len(cards.scene_ids(n)) for n in (2, 3, 4, 5)] == [20, 30, 40, 50]


def test_every_scene_card_is_a_grid_of_2x3_terrain_squares():
    terrains = Counter()
    for card in cards.SCENE.values():
        assert len(card["rows"]) == 2 and all(len(row) == 3 for row in card["rows"])
        terrains.update(cards.CODES[c][0] for row in card["rows"] for c in row)
    # "Forest, Lavender Field, Mill, Church, Wheat Field, Meadow, Town, and Sunflower Field"
    assert set(terrains) == {"forest", "lavender", "mill", "church", "wheat", "meadow", "town", "sunflower"}


def test_each_church_is_two_adjacent_squares_on_one_card():
    for card in cards.SCENE.values():
        church = [off for off, t, _ in cards.oriented(card["id"], 0) if t == "church"]
        assert len(church) in (0, 2), card["id"]
        if church:
            (ax, ay), (bx, by) = church
            assert (bx - ax, by - ay) in NEIGHBOURS


def test_lavender_grows_both_ways_towns_have_all_four_shops_sunflowers_face_all_edges():
    attrs = Counter(cards.CODES[c] for card in cards.SCENE.values() for row in card["rows"] for c in row)
    assert attrs[("lavender", "h")] > 0 and attrs[("lavender", "v")] > 0
    assert all(attrs[("town", shop)] > 0 for shop in cards.SHOPS)
    assert all(attrs[("sunflower", f)] > 0 for f in cards.FACINGS)


def test_five_starting_area_cards_each_with_a_scooter_and_tree_squares_that_are_meadows():
    assert len(cards.START) == 5
    for cid in cards.START:
        features = Counter(attr for _, t, attr in cards.oriented(cid, 0) if t == "meadow")
        assert features["scooter"] == 1 and features["tree"] >= 1


def test_fourteen_photo_cards_with_backs_a_b_c_enough_for_setup():
    """Setup step 2: 2 A and 2 B face up plus one face down; 3 C face up plus one face down."""
    backs = Counter(p["back"] for p in cards.PHOTO.values())
    assert sum(backs.values()) == 14
    assert backs["A"] >= 3 and backs["B"] >= 3 and backs["C"] >= 4


def test_photo_requirements_are_those_of_the_summary_of_requirements():
    allowed = {
        "lavender": {3, 4, 5},
        "wheat": {3, 4, 5},
        "town": {2},
        "forest": {2},
        "church": {1},
        "mill": {1},
        "sunflower": {1},
    }
    seen = set()
    for photo in cards.PHOTO.values():
        for terrain, count in photo["requires"]:
            assert count in allowed[terrain]
            seen.add((terrain, count))
    assert seen == {(t, n) for t, counts in allowed.items() for n in counts}


def test_photo_spots_descend_and_the_printed_examples_exist():
    for photo in cards.PHOTO.values():
        spots = photo["spots"]
        assert len(spots) >= 2 and spots == sorted(spots, reverse=True) and len(set(spots)) == len(spots)
    # "the topmost 6 spot is occupied ... she places her marker on the 4 spot" (the infinity spot)
    assert [6, 4] in [p["spots"] for p in cards.PHOTO.values()]
    values = {v for p in cards.PHOTO.values() for v in p["spots"]}
    assert {8, 7, 6, 4, 2} <= values  # "Points for Photos: 7 + 6 + 4 + 2 + 8"


def test_three_double_sided_goal_cards_show_the_six_goals_of_the_appendix():
    assert len(components.GOAL_CARDS) == 3
    assert sorted(cards.GOALS) == sorted(
        ["churches", "mills", "sunflowers_facing_deck", "lavender_field", "wheat_field", "forest_field"]
    )


def test_seven_markers_each_cover_the_seven_face_up_photo_cards():
    assert components.MARKERS_PER_PLAYER == 7 == 2 + 2 + 3
