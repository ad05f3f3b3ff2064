"""Setup: colours, good shot cards, the deck of six piles with the sunset card, the layout
diagram and the first hands."""

from collections import Counter

import pytest

from games.engines.photograph import ENGINE
from games.engines.photograph.cards import (
    COLOURS,
    LAYOUT_DIAGRAM,
    SUNSET,
    back,
    build_deck,
    choose_colours,
    deal_order,
    face,
    is_card,
)

from .helpers import every_card, new_game


@pytest.mark.parametrize("players,colours", [(2, 5), (3, 6), (4, 7)])
def test_colours_in_play_per_player_count(players, colours):
    """Rulebook: "Playing with 4: use all the shot cards. 3: remove one color. 2: remove two colors"."""
    state = new_game(players)
    assert len(state["colours"]) == colours
    assert sorted(state["colours"] + state["removed_colours"]) == sorted(COLOURS)
    every_card(state)


def test_the_colours_leaving_the_game_come_from_the_seed():
    removed = {tuple(new_game(2, seed=f"s{i}")["removed_colours"]) for i in range(30)}
    assert len(removed) > 5
    assert new_game(3, seed="x")["removed_colours"] == new_game(3, seed="x")["removed_colours"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_good_shot_cards_only_of_the_colours_in_play(players):
    """Rulebook: "when playing with two or three, also remove the good shot card(s) of the matching color(s")."""
    state = new_game(players)
    assert sorted(state["good_shots"]) == sorted(state["colours"])
    assert all(g == {"holder": None, "void": False} for g in state["good_shots"].values())


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_sunset_card_is_shuffled_into_the_second_pile_from_the_bottom(players, seed):
    """Rulebook: "Don't forget to place the sunset card into the second pile from the bottom": six
    roughly equal piles, so the sunset card lies below the top four piles and above the last."""
    colours, _ = choose_colours(players, seed)
    deck = build_deck(colours, seed)
    shots = len(deck) - 1
    assert Counter(deck)[SUNSET] == 1 and shots == 12 * len(colours)
    position = deck.index(SUNSET)
    pile = shots // 6  # piles are this size or one more
    assert 4 * pile <= position <= 5 * (pile + 1)
    below = len(deck) - position - 1
    assert pile <= below <= 2 * (pile + 1)


def test_sunset_position_varies_with_the_seed():
    colours, _ = choose_colours(4, "s")
    assert len({build_deck(colours, f"s{i}").index(SUNSET) for i in range(20)}) > 3


@pytest.mark.parametrize("players,rows", [(2, 3), (3, 4), (4, 4)])
def test_layout_is_dealt_in_the_diagrams_order_outer_columns_up(players, rows):
    """Rulebook: "Layout for 2 players: 3 rows of 4 cards; for 3 or 4 players: 4 rows of 4. Deal ... in the
    order shown on the diagram ... cards in the leftmost and rightmost columns are laid face-up,
    while the two center columns are laid face-down"."""
    seed = "layout"
    state = new_game(players, seed=seed)
    deck = build_deck(choose_colours(players, seed)[0], seed)
    order = deal_order(players)
    assert len(state["layout"]) == rows and all(len(r) == 4 for r in state["layout"])
    assert len(order) == rows * 4 == len(set(order))
    grid = LAYOUT_DIAGRAM[players]
    assert sorted(n for row in grid for n in row) == list(range(1, rows * 4 + 1))
    for index, (r, c) in enumerate(order):
        assert grid[r][c] == index + 1
        assert state["layout"][r][c] == {"card": deck[index], "up": c in (0, 3)}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_five_cards_dealt_one_at_a_time_from_the_first_player(players):
    """Rulebook: "Starting with the first player, all players in turn take 1 card at a time ... The card you
    took first will end up leftmost in your hand, and the last one taken will be rightmost"."""
    seed = "hands"
    state = new_game(players, seed=seed)
    deck = build_deck(choose_colours(players, seed)[0], seed)
    after_layout = deck[len(deal_order(players)) :]
    first = state["first"]
    for seat in range(players):
        offset = (seat - first) % players
        expected = [after_layout[offset + players * k] for k in range(5)]
        assert [e["card"] for e in state["hands"][seat]] == expected
        assert not any(e["public"] for e in state["hands"][seat])
    assert state["turn"] == first and state["phase"] == "take"
    assert len(state["deck"]) == len(deck) - len(deal_order(players)) - 5 * players


def test_first_player_comes_from_the_seed():
    assert len({new_game(4, seed=f"f{i}")["first"] for i in range(30)}) == 4


def test_card_faces_and_backs():
    """Backs show "the colour and the number range (for example, 5 would be in the 1-6 range)"."""
    assert face("blue-5") == {"colour": "blue", "number": 5}
    assert back("blue-5") == {"colour": "blue", "range": "1-6"}
    assert back("gray-7") == {"colour": "gray", "range": "7-12"}
    assert back("gray-12")["range"] == "7-12" and back("red-1")["range"] == "1-6"
    assert is_card("purple-12") and not is_card("purple-13") and not is_card("pink-3")
    assert not is_card(5) and not is_card("blue-x")


def test_setup_rejects_bad_player_counts_and_options():
    for players in (1, 5):
        with pytest.raises(ValueError):
            ENGINE.setup(players, {}, "s")
    with pytest.raises(ValueError):
        ENGINE.setup(2, {"nope": 1}, "s")
    assert ENGINE.setup(2, {"missed_shot": True}, "s")["options"] == {"missed_shot": True}
    assert ENGINE.setup(2, {}, "s")["options"] == {"missed_shot": False}
