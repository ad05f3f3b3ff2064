"""The face-down deck: shuffled from the game's seed, refilled from the discards when empty.

The rulebook never says what happens when the deck runs out (120 cards last 4 to 6 rounds); we
do what a table does and reshuffle the discard pile into a new deck. Every shuffle draws from its
own labelled stream (`base.rng(seed, "reshuffle", n)`), so replays are exact.
"""
from __future__ import annotations

from .. import base
from .cards import CARD_IDS


def new_deck(seed: str) -> list[int]:
    deck = list(CARD_IDS)
    base.rng(seed, "deck").shuffle(deck)
    return deck


def draw(state: base.State, count: int) -> list[int]:
    """Take `count` cards from the top of the deck (the end of the list), reshuffling the
    discards in when it runs dry. Mutates `state`: call it on a clone."""
    drawn = []
    for _ in range(count):
        if not state["deck"]:
            if not state["discard"]:
                raise RuntimeError("no card left in the deck nor the discards")
            refill = sorted(state["discard"])
            base.rng(state["_seed"], "reshuffle", state["reshuffles"]).shuffle(refill)
            state["deck"], state["discard"] = refill, []
            state["reshuffles"] += 1
        drawn.append(state["deck"].pop())
    return drawn
