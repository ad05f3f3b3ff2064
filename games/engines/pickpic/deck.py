"""The face-down deck: shuffled from the game's seed, refilled from the discards.

The rulebook never says what happens when the deck runs out (120 cards last 4 to 6 rounds); we
do what a table does and reshuffle the discard pile into a new deck. Every shuffle draws from its
own labelled stream (`base.rng(seed, "reshuffle", n)`), so replays are exact.

Rules version 1 refilled the deck the moment it ran dry, even in the middle of a round: at 3
players (18 cards a round) round 7 dealt the hands partly from the old deck and the random cards
from the discards, which everybody had seen face up, so a seat could pick out its random card as
the one card of its stack it had seen before. From version 2 a round the deck cannot cover in full
is preceded by `mix_in_discards`: the rest of the deck and the discards are shuffled together and
the whole round (photos, hands and random cards) is dealt from that one pool, so nothing seen
face up tells a random card from a gift.
"""

from __future__ import annotations

from .. import base
from .cards import CARD_IDS


def new_deck(seed: str) -> list[int]:
    deck = list(CARD_IDS)
    base.rng(seed, "deck").shuffle(deck)
    return deck


def mix_in_discards(state: base.State) -> None:
    """Shuffle the discards and the rest of the deck into one new deck. Mutates `state`."""
    pool = sorted([*state["deck"], *state["discard"]])
    base.rng(state["_seed"], "reshuffle", state["reshuffles"]).shuffle(pool)
    state["deck"], state["discard"] = pool, []
    state["reshuffles"] += 1


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
