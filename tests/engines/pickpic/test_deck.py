"""The deck: shuffled from the seed; the discards are reshuffled when it runs out."""
import pytest

from games.engines.pickpic import ENGINE
from games.engines.pickpic.deck import draw, new_deck


def test_setting_up_shuffle_the_cards_into_a_face_down_deck():
    """Setting Up the Game: "Shuffle the cards and place them in a face-down deck"."""
    deck = new_deck("s1")
    assert sorted(deck) == list(range(1, 121))
    assert deck == new_deck("s1")
    assert deck != new_deck("s2")
    assert deck != sorted(deck)


def test_draw_takes_from_the_top_of_the_deck():
    state = {"deck": [5, 6, 7], "discard": [], "reshuffles": 0, "_seed": "x"}
    assert draw(state, 2) == [7, 6]
    assert state["deck"] == [5]


def test_an_empty_deck_is_refilled_from_the_reshuffled_discards():
    """Rulebook silent; issue: "when the deck runs out, the discards are reshuffled"."""
    state = {"deck": [1], "discard": list(range(10, 20)), "reshuffles": 0, "_seed": "x"}
    drawn = draw(state, 3)
    assert drawn[0] == 1 and len(set(drawn)) == 3 and set(drawn[1:]) <= set(range(10, 20))
    assert state["discard"] == [] and state["reshuffles"] == 1
    assert sorted(state["deck"] + drawn[1:]) == list(range(10, 20))
    again = {"deck": [1], "discard": list(range(10, 20)), "reshuffles": 0, "_seed": "x"}
    assert draw(again, 3) == drawn, "a reshuffle is reproducible from the seed"
    other = {"deck": [1], "discard": list(range(10, 20)), "reshuffles": 1, "_seed": "x"}
    draw(other, 3)
    assert other["deck"] != state["deck"], "each reshuffle draws from its own stream"


def test_reshuffle_order_does_not_depend_on_the_discard_order():
    a = {"deck": [], "discard": [3, 1, 2, 9], "reshuffles": 0, "_seed": "x"}
    b = {"deck": [], "discard": [9, 2, 1, 3], "reshuffles": 0, "_seed": "x"}
    assert draw(a, 4) == draw(b, 4)


def test_no_card_anywhere_is_an_error_not_a_silent_short_draw():
    with pytest.raises(RuntimeError):
        draw({"deck": [], "discard": [], "reshuffles": 0, "_seed": "x"}, 1)


def test_a_round_starting_on_a_short_deck_reshuffles_the_discards_in():
    from tests.engines.pickpic.helpers import assert_cards_accounted, rank_all, rank_state
    state = rank_state(4)
    # Leave two cards in the deck: the next round needs 4 photos and 12 hand cards.
    state["discard"], state["deck"] = state["deck"][2:], state["deck"][:2]
    state, step = rank_all(state, [ENGINE.legal_moves(state, s)[0]["order"] for s in range(4)])
    assert step.record["next"]["reshuffled"] == 1
    assert state["reshuffles"] == 1 and state["round"] == 2
    assert_cards_accounted(state)
