"""Photograph's bot kit. Hidden from a seat: the faces of face-down cards (their backs show colour
and 1-6 / 7-12), the deck's order and where the sunset card lies in it, and the secret winds of
others in a sunset or end phase. The kit deals the unseen faces onto the backs that fit them."""

from __future__ import annotations

import random

from games.engines.photograph import cards, moves, scoring

from . import Kit, deal, margin


def _card_id(shown: dict) -> str | None:
    return cards.make(shown["colour"], shown["number"]) if "number" in shown else None


def _fits(slot: dict, card: str) -> bool:
    back = cards.back(card)
    return back["colour"] == slot["colour"] and slot.get("range", back["range"]) == back["range"]


class PhotographKit(Kit):
    search_cap = 40

    def determinize(self, me, rng: random.Random) -> dict:
        v = me.view
        known: list[str] = []
        slots: list[dict] = []  # every card shown by its back, in reading order below

        def note(shown: dict | None) -> None:
            if shown is None:
                return
            card = _card_id(shown)
            if card:
                known.append(card)
            else:
                slots.append(shown)

        for row in v["layout"]:
            for place in row:
                note(place)
        for hand in v["hands"]:
            for entry in hand:
                note(entry)
        for reels in v["reels"]:
            for colour in v["colours"]:
                for entry in reels[colour]:
                    note(entry)
        for entry in v["out"]:
            note(entry)
        for entry in v.get("last_cards", []) or []:
            for e in entry:
                note(e)
        pool = [c for c in cards.all_cards(v["colours"]) if c not in set(known)]
        dealt = iter(deal(slots, pool, _fits, rng))

        def card_of(shown: dict) -> str:
            return _card_id(shown) or next(dealt) or rng.choice(pool or known)

        layout = [[None if p is None else {"card": card_of(p), "up": p["face_up"]} for p in row] for row in v["layout"]]
        hands = [
            [{"card": card_of(e), "public": e.get("public", True) if s != me.seat else e["public"]} for e in hand]
            for s, hand in enumerate(v["hands"])
        ]
        for s, hand in enumerate(v["hands"]):  # another seat's card shown by its face is public
            if s != me.seat:
                for entry, shown in zip(hands[s], hand):
                    entry["public"] = "number" in shown
        reels = [
            {c: [{"card": card_of(e), "blurred": bool(e.get("blurred"))} for e in r[c]] for c in v["colours"]}
            for r in v["reels"]
        ]
        out = [{"card": card_of(e), "seen": "number" in e} for e in v["out"]]
        rng.shuffle(pool)
        deck = pool[: v["deck_size"] - (1 if v["sunset"] == "deck" else 0)]
        if v["sunset"] == "deck":
            pile = len(cards.all_cards(v["colours"])) // cards.PILES
            below = min(len(deck), pile + rng.randint(0, pile))
            deck.insert(len(deck) - below, cards.SUNSET)
        players = v["players"]
        winds = [None] * players
        state = {
            "players": players,
            "options": dict(v["options"]),
            "colours": list(v["colours"]),
            "removed_colours": list(v["removed_colours"]),
            "first": v["first"],
            "turn": v["turn"],
            "turns": v["turns"],
            "phase": v["phase"],
            "taken": v.get("to_play", 0),
            "deck": deck,
            "sunset": v["sunset"],
            "deal_queue": [],
            "layout": layout,
            "hands": hands,
            "reels": reels,
            "good_shots": {c: dict(g) for c, g in v["good_shots"].items()},
            "out": out,
            "winds": winds,
            "last_cards": [[] for _ in range(players)],
            "shown": [],
        }
        # Others' secret winds: any wind they could have made.
        for seat, wound in enumerate(v.get("wound") or []):
            if wound and seat != me.seat:
                state["winds"][seat] = list(
                    (lambda m: (m["from"], m["to"]))(rng.choice(moves.legal_winds(len(hands[seat]))))
                )
        return state

    def evaluate(self, me, state: dict) -> float:
        if state["phase"] == moves.OVER:
            result = me.engine.result(state)
            return margin(result["scores"], me.seat) + (5 if me.seat in result["winners"] else 0)
        return margin([scoring.breakdown(state, s)["total"] for s in range(state["players"])], me.seat)


KIT = PhotographKit()
