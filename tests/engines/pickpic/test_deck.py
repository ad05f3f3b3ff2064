"""The deck: shuffled from the seed; the discards are reshuffled in when it runs short."""

import random

import pytest

from games.engines import get
from games.engines.pickpic import ENGINE
from games.engines.pickpic.deck import draw, new_deck
from tests.engines.pickpic.helpers import T0


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


# ---------------------------------------------------------------------------------------------
# Rules version 2: a round is dealt from one pool (docs/pickpic.md)
# ---------------------------------------------------------------------------------------------
def test_a_round_the_deck_cannot_cover_is_dealt_from_the_deck_and_the_discards_shuffled_together():
    """3 players use 18 cards a round: 12 are left for round 7. Version 2 shuffles those 12 with
    the discards before dealing, so photos, hands and random cards all come from one pool."""
    from tests.engines.pickpic.helpers import assert_cards_accounted, rank_all, rank_state

    state = rank_state(3)
    leftover = state["deck"][:12]
    state["discard"], state["deck"] = state["deck"][12:], list(leftover)
    state, step = rank_all(state, [ENGINE.legal_moves(state, s)[0]["order"] for s in range(3)])
    assert step.record["next"]["reshuffled"] == 1 and state["reshuffles"] == 1
    assert state["discard"] == [] and len(state["deck"]) == 120 - 3 - 12
    dealt = set(state["table"]) | {c for hand in state["hands"] for c in hand}
    assert not set(leftover) <= dealt, "the leftover went into the pool, not straight to the deal"
    assert_cards_accounted(state)
    givers = [ENGINE.legal_moves(state, s)[0] for s in range(3)]
    for seat, move in enumerate(givers):
        step = ENGINE.play(state, seat, move, T0)
        state = step.state
    assert step.record["reshuffled"] == 0, "the random cards come from the same pool, no refill"


def test_version_1_still_refills_in_the_middle_of_the_deal():
    """Games created under version 1 go on exactly as they were played."""
    from tests.engines.pickpic.helpers import rank_state

    v1 = get("pickpic", 1)
    state = rank_state(3)
    state["discard"], state["deck"] = state["deck"][12:], state["deck"][:12]
    orders = [v1.legal_moves(state, s)[0]["order"] for s in range(3)]
    for seat, order in enumerate(orders):
        step = v1.play(state, seat, {"type": "rank", "order": order}, T0)
        state = step.state
    assert step.record["next"]["reshuffled"] == 1 and len(state["discard"]) == 0
    assert len(state["deck"]) == 108 - 3, "12 left, 15 dealt: 3 came from the 108 discards"


def seen_before_attack(engine, seed, players=3, target=60):
    """Play a game; at each rank phase, guess that a stack's random card is the one card of it the
    seat has seen before (photos, its hands and stacks, the face-up rankings of past rounds).
    Returns (right guesses, stacks)."""
    state = engine.setup(players, {"target": target}, seed)
    chooser = random.Random(seed)
    seen = [set(state["table"]) | set(state["hands"][s]) for s in range(players)]
    hits = stacks = 0
    while not engine.is_over(state):
        seat = chooser.choice(sorted(engine.active_players(state)))
        before = state
        state = engine.play(state, seat, chooser.choice(engine.legal_moves(state, seat)), T0).state
        if before["phase"] == "give" and state["phase"] == "rank":
            for s in range(players):
                stacks += 1
                hits += set(state["stacks"][s]) & seen[s] == {state["random"][s]}
                seen[s] |= set(state["stacks"][s])
        elif before["phase"] == "rank" and state["phase"] == "give":
            ranked = {e["card"] for st in engine.view(state, None)["last_round"]["stacks"] for e in st["order"]}
            for s in range(players):
                seen[s] |= ranked | set(state["table"]) | set(state["hands"][s])
    return hits, stacks


def test_the_random_card_is_not_the_one_card_of_the_stack_seen_before():
    """Under version 1, at 3 players, round 7 dealt the hands from the old deck and the random cards from
    the discards, so "the one card in its stack that it has seen before is the random card".
    Under version 2 that guess never finds it; under version 1 it found it in every game."""
    seeds = [f"attack-{i}" for i in range(10)]
    hits = [seen_before_attack(ENGINE, seed)[0] for seed in seeds]
    assert sum(hits) == 0
    old = [seen_before_attack(get("pickpic", 1), seed)[0] for seed in seeds]
    assert all(h >= 1 for h in old), "version 1 kept as it was played (the defect included)"
