"""Walking in Provence's bot kit. Hidden from a seat: the deck, the others' hands, the cards they
passed, and the choices they made this phase before it resolves. The landscapes, photos, goals
and markers are public. The kit deals the unseen scene cards to the others and the deck, and lets
each seat that has already chosen make any choice it could have made."""
from __future__ import annotations

import random

from games.engines.provence import cards, scoring

from . import Kit, margin


class ProvenceKit(Kit):
    search_cap = 24

    def determinize(self, me, rng: random.Random) -> dict:
        v, seat = me.view, me.seat
        players = v["players"]
        you = v.get("you") or {}
        hand = [c["id"] for c in you.get("hand", [])]
        placed = {p["card"] for land in v["landscapes"] for p in land["cards"]}
        mine = set(hand) | ({you["passed"]} if you.get("passed") else set())
        pool = [c for c in cards.scene_ids(players) if c not in placed and c not in mine]
        rng.shuffle(pool)
        hands = []
        for s in range(players):
            if s == seat:
                hands.append(list(hand))
            else:
                hands.append([pool.pop() for _ in range(min(v["hand_sizes"][s], len(pool)))])
        passing = [None] * players
        if you.get("passed") is not None:
            passing = [pool.pop() if s != seat and pool else None for s in range(players)]
            passing[seat] = you["passed"]
        state = {
            "players": players, "round": v["round"], "phase": v["phase"],
            "deck": pool[: v["deck"]], "hands": hands, "passing": passing,
            "pending": [None] * players,
            "landscapes": [{"cards": [dict(p) for p in land["cards"]],
                            "photographer": list(land["photographer"]),
                            "drone": list(land["drone"])} for land in v["landscapes"]],
            "photos": [{"card": p["card"], "markers": [list(m) for m in p["markers"]]}
                       for p in v["photos"]],
            "goals": [dict(g) for g in v["goals"]], "markers": list(v["markers"]),
        }
        # Those who already chose this phase: any choice they could have made.
        for s, done in enumerate(v["submitted"]):
            if done and s != seat:
                state = me.engine.apply(state, s, self.policy(me, state, s, me.engine.legal_moves(
                    state, s), rng), _at())
        return state

    def evaluate(self, me, state: dict) -> float:
        scores, keys, _ = scoring.final(state)
        return margin(scores, me.seat)

    def horizon(self, me) -> int:
        # Playouts list thousands of placements per move: a round or two ahead, then the score.
        return 2 * me.view["players"] + 1


def _at():
    from games.bots.search import AT
    return AT


KIT = ProvenceKit()
