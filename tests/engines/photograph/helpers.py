"""Builders for hand-made Photograph situations, and the invariants random games are checked with.

The knowledge model here is independent of the engine's own flags: it watches the full state and
remembers which cards each seat has really seen (face up in the layout or on a reel: everyone; in
a seat's own hand: that seat).
"""

from __future__ import annotations

import json
import re
from collections import Counter

from games.engines.photograph import ENGINE
from games.engines.photograph.cards import COLOURS, SUNSET, all_cards
from tests.engines.contract import T0

CARD_ID = re.compile(r"\b(?:%s)-\d+\b" % "|".join(COLOURS))


def new_game(players=2, seed="seed", **options):
    return ENGINE.setup(players, options, seed)


def place(card, column):
    return None if card is None else {"card": card, "up": column in (0, 3)}


def set_layout(state, rows):
    """`rows`: lists of 4 card ids or None; faces follow the columns (outer up, centre down)."""
    state["layout"] = [[place(card, col) for col, card in enumerate(row)] for row in rows]
    return state


def set_hand(state, seat, cards, public=False):
    state["hands"][seat] = [{"card": c, "public": public} for c in cards]
    return state


def reel(*cards):
    """reel("red-6", ("red-2", "blurred"), "red-9")"""
    return [{"card": c[0], "blurred": True} if isinstance(c, tuple) else {"card": c, "blurred": False} for c in cards]


def play(state, seat, move):
    return ENGINE.play(state, seat, move, T0)


def apply(state, seat, move):
    return play(state, seat, move).state


def event(step, seat, move, seq=1):
    return {"seq": seq, "type": step.event_type, "actor": seat, "data": {"move": move, "record": step.record}}


def hand_cards(state, seat):
    return [e["card"] for e in state["hands"][seat]]


# ----------------------------------------------------------------------------------------------
# Invariants
# ----------------------------------------------------------------------------------------------
def every_card(state):
    """Where every card is: each shot card of the colours in play exactly once, and the sunset card
    in the deck until it is revealed."""
    found = list(state["deck"])
    found += [p["card"] for row in state["layout"] for p in row if p is not None]
    for seat in range(state["players"]):
        found += hand_cards(state, seat)
        found += [e["card"] for r in state["reels"][seat].values() for e in r]
        found += [e["card"] for e in state["last_cards"][seat]]
    found += [e["card"] for e in state["out"]]
    counts = Counter(found)
    assert counts[SUNSET] == (1 if state["sunset"] == "deck" else 0)
    del counts[SUNSET]
    assert all(n == 1 for n in counts.values()), [c for c, n in counts.items() if n > 1]
    assert sorted(counts) == sorted(all_cards(state["colours"]))


class Knowledge:
    """Who has seen which card's number, from the full state alone."""

    def __init__(self, players):
        self.public = set()
        self.private = [set() for _ in range(players)]

    def observe(self, state):
        for row in state["layout"]:
            for p in row:
                if p is not None and p["up"]:
                    self.public.add(p["card"])
        for seat in range(state["players"]):
            self.private[seat].update(hand_cards(state, seat))
            for r in state["reels"][seat].values():
                self.public.update(e["card"] for e in r)

    def known(self, viewer):
        return self.public | (self.private[viewer] if viewer is not None else set())


def numbers_shown(value):
    """Every (colour, number) a JSON value shows."""
    shown = set()
    if isinstance(value, dict):
        if "colour" in value and "number" in value:
            shown.add(f"{value['colour']}-{value['number']}")
        for v in value.values():
            shown |= numbers_shown(v)
    elif isinstance(value, list):
        for v in value:
            shown |= numbers_shown(v)
    return shown


def check_secrecy(knowledge, state, ev):
    """No viewer is shown a number they have not seen, through view or describe; and no raw card
    id ever leaves the engine."""
    for viewer in [None, *range(state["players"])]:
        shown = ENGINE.view(state, viewer), ENGINE.describe(ev, viewer)
        text = json.dumps(shown)
        assert not CARD_ID.search(text), "raw card ids leaked"
        leaked = numbers_shown(list(shown)) - knowledge.known(viewer)
        assert not leaked, f"viewer {viewer} was shown {sorted(leaked)}"
        # every hand shows its length and colours (backs) in hand order; a pending simultaneous
        # wind is not applied yet, so it cannot show through the order
        seen_hands = shown[0]["hands"]
        for seat in range(state["players"]):
            actual = hand_cards(state, seat)
            assert [c["colour"] for c in seen_hands[seat]] == [c.split("-")[0] for c in actual]


def make_checker(players):
    knowledge = Knowledge(players)

    def on_step(before, ev, after):
        knowledge.observe(before)
        knowledge.observe(after)
        every_card(after)
        check_secrecy(knowledge, after, ev)

    return on_step
