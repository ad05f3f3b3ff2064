"""Walking in Provence keeps its secrets over a whole game (tests/engines/secrecy.py says how).

The secrets, from the rulebook: the Scene Deck's order; each hand of 2 Scene Cards (and the card
passed left, known to its giver and its receiver); each seat's placement and walk while the others
still choose ("all players simultaneously"), until they are revealed together.
"""

from __future__ import annotations

import random

import pytest

from games.engines.provence import ENGINE
from tests.engines.secrecy import Observer, Perturbation, Trace, check, first_step, record, swap_within_one_shuffle

SEEDS = [f"whole-{i}" for i in range(2)]
DECKS = ("scene-deck",)


def cards_known(state: dict, seat: int) -> set[str]:
    """The Scene Cards `seat` has a right to know the place of in `state`: its hand, its pending
    choice and the card it passes, and every card placed in a landscape (placed face up)."""
    known = set(state["hands"][seat])
    if state["pending"][seat] and "card" in state["pending"][seat]:
        known.add(state["pending"][seat]["card"])
    if state["passing"][seat]:
        known.add(state["passing"][seat])
    for land in state["landscapes"]:
        known |= {c["card"] for c in land["cards"]}
    return known


def relabel_placement(a: str, b: str):
    """Other seats place b where they placed a (and the other way); where that placement does not
    fit the card, any placement of it (the choice is secret until revealed, as is the card)."""
    swap = {a: b, b: a}

    def translate(state, actor, move, step):
        if move.get("type") != "place" or move["card"] not in swap:
            return move
        other = {**move, "card": swap[move["card"]]}
        legal = ENGINE.legal_moves(state, actor)
        if other in legal:
            return other
        return next(m for m in legal if m["card"] == other["card"])

    return translate


def perturbations(trace: Trace, chooser: random.Random):
    n = trace.players
    deck = next(s for s in trace.shuffles if s.label == DECKS).result
    known = {seat: [] for seat in range(n)}
    for seat in range(n):
        seen: set[str] = set()
        for state in trace.states:
            seen = seen | cards_known(state, seat)
            known[seat].append(seen)
    for seat in range(n):
        unseen = [c for c in deck if c not in known[seat][0]]
        for a, b in chooser.sample([(a, b) for a in unseen for b in unseen if a < b], 1):
            horizon = first_step(trace, lambda i: bool({a, b} & known[seat][i + 1]))
            if horizon == 0:
                continue
            yield Perturbation(
                seat,
                f"{a} and {b} exchanged in the Scene Deck",
                swap_within_one_shuffle(trace, (a, -1), (b, -1), DECKS),
                relabel_placement(a, b),
                horizon,
            )
    # A pending placement or walk, replaced by another before the phase resolves.
    resolving = ("ScenesPlaced", "WalksRevealed")
    pending = [i for i, e in enumerate(trace.events) if e["type"] in ("CardChosen", "WalkChosen")]
    for index in chooser.sample(pending, min(3, len(pending))):
        actor, move = trace.moves[index]
        options = [m for m in ENGINE.legal_moves(trace.states[index], actor) if m != move]
        other = chooser.choice(options)
        resolve = first_step(trace, lambda i: trace.events[i]["type"] in resolving, index)

        def choose_otherwise(state, who, chosen, step, index=index, other=other):
            return other if step == index else chosen

        for seat in set(range(n)) - {actor}:
            yield Perturbation(
                seat,
                f"seat {actor}'s secret {move['type']} at move {index}",
                translate=choose_otherwise,
                horizon=resolve,
            )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_can_tell_apart_games_that_differ_only_in_its_secrets(players, seed):
    trace = record(ENGINE, players, f"{seed}-{players}")
    observer, chooser = Observer(trace), random.Random(seed)
    assert sum(check(observer, p) for p in perturbations(trace, chooser)) > 30
