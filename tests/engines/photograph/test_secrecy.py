"""Photograph keeps its secrets over a whole game (tests/engines/secrecy.py says how).

The secrets, from the rulebook: a face-down card shows its back only ("colour and whether 1-6 or
7-12"), in the deck, the layout and other players' hands; a blurred shot is shown once, then
"players may not check the number on this card"; the simultaneous winds of the sunset and the end
stay secret until everyone has wound. So two cards with the same back, exchanged in the deck
before a seat has seen either face, must leave that seat's observations unchanged.
"""

from __future__ import annotations

import random

import pytest

from games.engines.photograph import ENGINE
from games.engines.photograph.cards import back
from games.engines.photograph.moves import SIMULTANEOUS
from tests.engines.secrecy import (
    Observer,
    Perturbation,
    Trace,
    archive,
    check,
    first_step,
    record,
    replay,
    swap_within_one_shuffle,
)

SEEDS = [f"whole-{i}" for i in range(4)]
DECKS = ("deck",)


def faces_known(state: dict, seat: int) -> set[str]:
    """The faces `seat` has the right to know in `state` (the rulebook's table, not the views)."""
    known = {p["card"] for row in state["layout"] for p in row if p and p["up"]}
    for owner, hand in enumerate(state["hands"]):
        known |= {e["card"] for e in hand if e["public"] or owner == seat}
    # Played cards were all shown: face-up ones stay, blurred ones were seen when played.
    known |= {e["card"] for reels in state["reels"] for reel in reels.values() for e in reel}
    known |= {e["card"] for e in state["out"] if e["seen"]}
    for owner, left in enumerate(state["last_cards"]):
        known |= {e["card"] for e in left if e["public"] or owner == seat}
    return known


def perturbations(trace: Trace, chooser: random.Random):
    n, deck = trace.players, trace.shuffles[0].result
    assert trace.shuffles[0].label == DECKS
    known = {seat: [faces_known(s, seat) for s in trace.states] for seat in range(n)}
    for seat in range(n):
        unseen = [c for c in deck if c not in known[seat][0]]
        pairs = [(a, b) for a in unseen for b in unseen if a < b and back(a) == back(b)]
        for a, b in chooser.sample(pairs, min(3, len(pairs))):
            # The first move after which the seat may know either face.
            horizon = first_step(trace, lambda i: bool({a, b} & known[seat][i + 1]))
            if horizon == 0:
                continue
            yield Perturbation(
                seat,
                f"{a} and {b} (same back) exchanged in the deck",
                swap_within_one_shuffle(trace, (a, -1), (b, -1), DECKS),
                horizon=horizon,
            )
    # A pending simultaneous wind, before the last one resolves the phase.
    for start, (before, after) in enumerate(zip(trace.states, trace.states[1:])):
        if after["phase"] in SIMULTANEOUS and before["phase"] not in SIMULTANEOUS:
            resolve = first_step(trace, lambda i: trace.events[i]["data"]["record"].get("resolved"), start + 1)
            winders = list(range(start + 1, resolve))
            for index in winders:
                actor, move = trace.moves[index]
                options = [m for m in ENGINE.legal_moves(trace.states[index], actor) if m != move]
                if not options:
                    continue
                other = chooser.choice(options)

                def wind_otherwise(state, who, chosen, step, index=index, other=other):
                    return other if step == index else chosen

                for seat in set(range(n)) - {actor}:
                    yield Perturbation(
                        seat, f"seat {actor}'s secret wind at move {index}", translate=wind_otherwise, horizon=resolve
                    )


def check_game(players: int, seed: str, options=None) -> int:
    trace = record(ENGINE, players, seed, options)
    observer, chooser, checked = Observer(trace), random.Random(seed), 0
    for perturbation in perturbations(trace, chooser):
        checked += check(observer, perturbation)
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_can_tell_apart_games_that_differ_only_in_its_secrets(players, seed):
    assert check_game(players, f"{seed}-{players}", {"missed_shot": seed.endswith("1")}) > 50


def blurred_pairs(trace: Trace, seat: int):
    """Pairs of cards with the same back, each played blurred, whose faces the seat never had a
    right to check otherwise (never in its hand, face up, public or seen when removed)."""
    blurred = {
        p["card"]: i for i, e in enumerate(trace.events) for p in e["data"]["record"].get("played", []) if p["blurred"]
    }
    checkable = set()
    for state in trace.states:
        checkable |= faces_known({**state, "reels": [{} for _ in state["reels"]]}, seat)
    cards = sorted(c for c in blurred if c not in checkable)
    return [(a, b) for a in cards for b in cards if a < b and back(a) == back(b)]


def check_archives(players: int, seed: str) -> int:
    """ "From this point on, players may not check the number on this card": exchanging two
    same-back cards that were both played blurred leaves every later log read and every replay
    unchanged (the moment of play itself shows the face; that is the rule)."""
    trace, checked = record(ENGINE, players, seed), 0
    for seat in range(players):
        for a, b in blurred_pairs(trace, seat)[:3]:
            states, events = replay(
                trace, Perturbation(seat, f"{a} <-> {b}", swap_within_one_shuffle(trace, (a, -1), (b, -1), DECKS))
            )
            still_blurred = [[p["blurred"] for p in e["data"]["record"].get("played", [])] for e in events]
            if still_blurred != [[p["blurred"] for p in e["data"]["record"].get("played", [])] for e in trace.events]:
                continue  # the other number fitted a reel: a different game, not a secret
            assert archive(ENGINE, states, events, seat) == archive(ENGINE, trace.states, trace.events, seat), (
                seat,
                a,
                b,
            )
            checked += 1
    return checked


def test_blurred_numbers_cannot_be_checked_later_in_the_log_or_in_replays():
    assert sum(check_archives(players, f"{seed}-{players}") for seed in SEEDS for players in (2, 3, 4)) >= 5


def test_the_archive_property_catches_a_blurred_number_left_in_the_log(monkeypatch):
    from games.engines.photograph import views

    played = views._played
    monkeypatch.setattr(views, "_played", lambda plays, fresh: played(plays, True))
    with pytest.raises(AssertionError):
        for seed in SEEDS:
            for players in (2, 3, 4):
                check_archives(players, f"{seed}-{players}")
