"""Pick Pic keeps its secrets over a whole game (tests/engines/secrecy.py says how).

The secrets, from the rulebook: the deck's order; each hand ("a secret hand"); who gave which
card, until the giver "reveals themselves" at evaluation - and for good below the random card,
which nobody claims; which card of a stack is the random one, until evaluation; each seat's gifts
and ranking while the others still choose (simultaneous phases).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from games.engines import get
from games.engines.pickpic import ENGINE
from tests.engines.secrecy import Observer, Perturbation, Trace, check, record, swap_within_one_shuffle

SEEDS = [f"whole-{i}" for i in range(5)]
DECKS = ("deck", "reshuffle")  # the shuffles cards are dealt from (not a stack's own shuffle)


@dataclass
class Round:
    number: int
    deal: int  # the move that dealt its photos and hands (-1: setup)
    rank: int  # the move that dealt the random cards (the last gift)
    evaluation: int  # the move that evaluated it
    dealt: dict  # the state of its rank phase: gifts, random, stacks
    ranked: dict  # its evaluation (the state's whole record of it)


def rounds(trace: Trace) -> list[Round]:
    found, deal = [], -1
    for i, (before, after) in enumerate(zip(trace.states, trace.states[1:])):
        if before["phase"] == "give" and after["phase"] == "rank":
            rank = i
        if before["phase"] == "rank" and after["phase"] != "rank":
            found.append(Round(before["round"], deal, rank, i, trace.states[rank + 1], after["last_round"]))
            deal = i
    return found


def relabel(move: dict, a: int, b: int) -> dict:
    swap = {a: b, b: a}
    if move["type"] == "give":
        return {**move, "gifts": {to: [swap.get(c, c) for c in cards] for to, cards in move["gifts"].items()}}
    return {**move, "order": [swap.get(c, c) for c in move["order"]]}


def in_round(number: int, change):
    """Apply `change(state, actor, move)` to the moves of round `number` only."""

    def translate(state, actor, move, step):
        return change(state, actor, move) if state["round"] == number else move

    return translate


def gifts_swapped(a: int, b: int):
    """Other seats' gifts with a and b exchanged; a ranking stays as it is while its stack holds
    the same cards (a ranker ranks what it sees)."""

    def change(state, actor, move):
        if move["type"] == "give":
            return relabel(move, a, b)
        stack = state["stacks"][actor]
        return move if sorted(move["order"]) == sorted(stack) else relabel(move, a, b)

    return change


def giver_of(dealt: dict, receiver: int, card: int) -> int | None:
    for giver, given in enumerate(dealt["gifts"]):
        if card in (given or {}).get(str(receiver), []):
            return giver
    return None


def perturbations(trace: Trace, chooser: random.Random):
    n = trace.players
    for rnd in rounds(trace):
        seat = chooser.randrange(n)
        receiver = chooser.choice([s for s in range(n)])
        stack = rnd.dealt["stacks"][receiver]
        random_card = rnd.dealt["random"][receiver]
        gifts = [c for c in stack if c != random_card]
        # 1. The random card and a gift: the same to every seat but the gift's giver.
        gift = chooser.choice(gifts)
        giver = giver_of(rnd.dealt, receiver, gift)
        for observer in {seat, receiver} - {giver}:
            yield Perturbation(
                observer,
                f"round {rnd.number}: is {random_card} or {gift} seat {receiver}'s random card?",
                swap_within_one_shuffle(trace, (random_card, rnd.rank), (gift, rnd.deal), DECKS),
                in_round(rnd.number, gifts_swapped(random_card, gift)),
                rnd.evaluation,
            )
        # 2. Who gave two cards ranked below the random card: nobody ever claims them.
        order = next(s for s in rnd.ranked["stacks"] if s["seat"] == receiver)
        below = [e["card"] for e in order["order"][order["random_position"] + 1 :]]
        pairs = [
            (a, b)
            for a in below
            for b in below
            if a < b and giver_of(rnd.dealt, receiver, a) != giver_of(rnd.dealt, receiver, b)
        ]
        if pairs:
            a, b = chooser.choice(pairs)
            givers = {giver_of(rnd.dealt, receiver, a), giver_of(rnd.dealt, receiver, b)}
            for observer in set(range(n)) - givers:
                yield Perturbation(
                    observer,
                    f"round {rnd.number}: who gave {a} and {b} to seat {receiver}, both below the random card?",
                    swap_within_one_shuffle(trace, (a, rnd.deal), (b, rnd.deal), DECKS),
                    in_round(rnd.number, gifts_swapped(a, b)),
                    None,
                )
        # 3. A pending gift: which of two other seats got which card (4-5 players).
        giver = chooser.choice([s for s in range(n) if s != seat])
        others = [s for s in range(n) if s not in (giver, seat)]
        if len(others) >= 2:
            s1, s2 = chooser.sample(others, 2)
            a = rnd.dealt["gifts"][giver][str(s1)][0]
            b = rnd.dealt["gifts"][giver][str(s2)][0]

            def other_gift(state, actor, move, giver=giver, a=a, b=b):
                if move["type"] == "give":
                    return relabel(move, a, b) if actor == giver else move
                return gifts_swapped(a, b)(state, actor, move)

            yield Perturbation(
                seat,
                f"round {rnd.number}: did seat {giver} give {a} to {s1} and {b} to {s2}, or the other way?",
                {},
                in_round(rnd.number, other_gift),
                rnd.evaluation,
            )
        # 4. A pending ranking, before the last one evaluates the round.
        rankers = [a for a, _ in trace.moves[rnd.rank + 1 : rnd.evaluation] if a != seat]
        if rankers:
            ranker = chooser.choice(rankers)

            def reversed_ranking(state, actor, move, ranker=ranker):
                if move["type"] == "rank" and actor == ranker:
                    return {**move, "order": move["order"][::-1]}
                return move

            yield Perturbation(
                seat,
                f"round {rnd.number}: how did seat {ranker} rank?",
                {},
                in_round(rnd.number, reversed_ranking),
                rnd.evaluation,
            )
        # 5. The deck's order: two photos of the next round, exchanged.
        following = [r for r in rounds(trace) if r.number == rnd.number + 1]
        if (
            following
            and trace.source(trace.states[following[0].deal + 1]["table"][0], following[0].deal, DECKS)[0].step
            < following[0].deal
        ):
            photos = trace.states[following[0].deal + 1]["table"]
            a, b = photos[0], photos[1]
            yield Perturbation(
                seat,
                f"the deck's order: is {a} or {b} on top?",
                swap_within_one_shuffle(trace, (a, following[0].deal), (b, following[0].deal), DECKS),
                horizon=following[0].deal,
            )


def check_game(engine, players: int, seed: str, options=None) -> int:
    trace = record(engine, players, seed, options)
    observer, chooser, checked = Observer(trace), random.Random(seed), 0
    for perturbation in perturbations(trace, chooser):
        checked += check(observer, perturbation)
    return checked


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_can_tell_apart_games_that_differ_only_in_its_secrets(players, seed):
    assert check_game(ENGINE, players, f"{seed}-{players}") > 100


@pytest.mark.parametrize("players", [3, 4, 5])
def test_long_games_through_reshuffles_and_the_comments_variant(players):
    options = {"target": 45, "comments": players != 4}
    assert check_game(ENGINE, players, f"long-{players}", options) > 100


def test_the_property_catches_version_1s_refill_in_the_middle_of_a_deal():
    """Version 1's defect, found by the property: under version 1, round 7 of a 3-player game
    deals the random cards from the discards and the gifts from the old deck."""
    v1 = get("pickpic", 1)
    with pytest.raises(AssertionError, match="different shuffles"):
        for seed in SEEDS:
            check_game(v1, 3, f"{seed}-v1", {"target": 60})
