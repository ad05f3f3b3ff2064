"""Each game's knowledge for its bots: how to imagine a full state from a seat's view
(`determinize`), how good a state is for the seat (`evaluate`), which moves are worth trying
(`candidates`), how the imagined players play on (`policy`) and for how long (`horizon`).

A kit reads the view, the legal moves and the seat's log; it may read the engine's public
tables (cards, scoring rules) like a player reads the rulebook."""

from __future__ import annotations

import importlib
import random
from typing import Any

KITS = {
    "photograph": "games.bots.kinds.photograph",
    "provence": "games.bots.kinds.provence",
    "pickpic": "games.bots.kinds.pickpic",
    "photoshoot": "games.bots.kinds.photoshoot",
}


class Kit:
    search_cap = 60  # level 3 ranks at most this many moves with level 2 before searching
    # Level 3 plays its first candidate unless another's mean beats it by this many standard
    # errors (0: the best mean wins).
    keep_first = 0.0

    def random_move(self, me, rng: random.Random) -> dict | None:
        """Level 1: any legal move."""
        return rng.choice(me.legal)

    def decide(self, me, level: int, rng: random.Random, budget):
        """A game may decide outright: a move, or None to let the chance pass; NotImplemented
        leaves the choice to the generic levels."""
        return NotImplemented

    def determinize(self, me, rng: random.Random) -> dict:
        raise NotImplementedError

    def evaluate(self, me, state: dict) -> float:
        raise NotImplementedError

    def candidates(self, me, rng: random.Random, cap: int) -> list[dict]:
        moves = list(me.legal)
        if len(moves) > cap:
            moves = rng.sample(moves, cap)
        return moves

    def policy(self, me, state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
        """How the others answer a move that level 2 tries."""
        return rng.choice(moves)

    def shortlist(self, me, rng: random.Random, width: int) -> list[dict] | None:
        """Level 3's candidates, best first; None: level 2's best `width`."""
        return None

    def playout(self, me, state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
        """How every seat plays in level 3's play-outs."""
        return self.policy(me, state, seat, moves, rng)

    def horizon(self, me) -> int:
        return 400


def kit_for(kind: str) -> Kit:
    return importlib.import_module(KITS[kind]).KIT


def margin(scores: dict[int, float] | list[float], seat: int) -> float:
    """The seat's score less the best other score: what a winner maximises."""
    scores = dict(enumerate(scores)) if isinstance(scores, list) else scores
    others = [v for s, v in scores.items() if s != seat]
    return scores[seat] - (max(others) if others else 0)


def deal(slots: list[Any], pool: list[str], fits, rng: random.Random) -> list[str | None]:
    """One card for each slot from `pool` (removed from it), each fitting its slot
    (`fits(slot, card)`), the most constrained slots first; None where nothing fits."""
    out: list[str | None] = [None] * len(slots)
    order = sorted(range(len(slots)), key=lambda i: sum(fits(slots[i], c) for c in pool))
    for i in order:
        fitting = [c for c in pool if fits(slots[i], c)]
        if fitting:
            card = rng.choice(fitting)
            pool.remove(card)
            out[i] = card
    return out
