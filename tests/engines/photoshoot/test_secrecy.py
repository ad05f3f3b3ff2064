"""Photoshoot keeps its secrets over whole games (tests/engines/secrecy.py says how).

The secrets, from the rulebook and the issue: the order of the objective pile and of the two
Effect piles ("shuffled face-down piles"), until a card is drawn from them; and whether the
latest action was an error, until the Control team challenges it ("spotting it is the Control
team's game"): nothing a seat or a spectator is shown (view, replayed state, legal moves, the log
line fresh or later, the answer to any move it may try, refused ones included) may differ between
an erroneous action and the same action judged correct. The seed is published only at the end.
"""

from __future__ import annotations

import copy
import json
import random
from datetime import timedelta

import pytest

from games.engines import base
from games.engines.photoshoot import ENGINE
from tests.engines.secrecy import (
    T0,
    Observer,
    Perturbation,
    Trace,
    _event,
    check,
    first_step,
    observe,
    record,
    swap_within_one_shuffle,
)

# (players, options): the cooperative variant (2-3), both team sizes, the family variant, levels.
GAMES = [
    (2, {}),
    (3, {"family": True}),
    (4, {}),
    (4, {"level": 3}),
    (5, {"level": 5}),
    (6, {"level": 2, "family": True}),
]
# Observations are compared for at most this many moves of a game (a pile that is never drawn
# from would otherwise be compared for the whole game, every seat, a thousand moves long).
HORIZON = 250
PILES = {"objectives": ("objectives",), "blue": ("effects",), "orange": ("effects",)}


def pile(state: dict, name: str) -> list:
    return state["objective_pile"] if name == "objectives" else state["piles"][name]


def seats(trace: Trace) -> list[int | None]:
    return [None, *range(trace.players)]


def perturbations(trace: Trace, chooser: random.Random):
    """Two cards of one pile exchanged: nobody may tell until one of them is drawn."""
    for name, decks in PILES.items():
        hidden = pile(trace.states[0], name)
        if len(hidden) < 2:
            continue
        a, b = chooser.sample(hidden, 2)
        drawn = first_step(
            trace,
            lambda i, a=a, b=b, name=name: (
                a not in pile(trace.states[i + 1], name) or b not in pile(trace.states[i + 1], name)
            ),
        )
        swaps = swap_within_one_shuffle(trace, (a, -1), (b, -1), decks if name == "objectives" else ("effects",))
        if name != "objectives":  # each colour is its own shuffle
            swaps = {label: where for label, where in swaps.items() if label == ("effects", name)}
            assert swaps, f"{a} and {b} of the {name} pile come from its own shuffle"
        for seat in seats(trace):
            yield Perturbation(
                seat,
                f"the {name} pile: is {a} or {b} deeper?",
                swaps,
                horizon=min(HORIZON, len(trace.moves)) if drawn is None else min(drawn, HORIZON),
            )


@pytest.mark.parametrize("players, options", GAMES)
def test_no_seat_nor_spectator_can_tell_the_piles_order_before_a_card_is_drawn(players, options):
    trace = record(ENGINE, players, f"piles-{players}-{options}", options)
    observer, checked = Observer(trace), 0
    for perturbation in perturbations(trace, random.Random(f"{players}-{options}")):
        checked += check(observer, perturbation)
    assert checked > 20 * (players + 1)


def test_a_perturbation_that_changes_a_seen_card_is_caught():
    """The property can fail: exchanging the objective on the table with one in the pile is seen
    at once (the table is public)."""
    trace = record(ENGINE, 4, "caught")
    observer = Observer(trace)
    shuffle = next(s for s in trace.shuffles if s.label == ("objectives",))
    table = len(shuffle.result) - 1  # the top card is revealed at setup
    with pytest.raises(AssertionError, match="tells apart at setup"):
        check(observer, Perturbation(None, "the objective on the table", {("objectives",): (0, table)}))


# -- whether an action was an error ---------------------------------------------------------------
def judged_correct(state: dict) -> dict:
    """The same position, with the latest action judged correct (the server's secret verdict
    only; what the table saw stays)."""
    forged = copy.deepcopy(state)
    forged["last"]["faults"] = []
    return forged


PROBES = [
    {"type": "challenge", "action": 0},
    {"type": "photo"},
    {"type": "swap", "cells": [0, 8]},
    {"type": "swap", "cells": [0, 1]},
    {"type": "push", "cell": 0, "direction": "right"},
    {"type": "wave"},
    {"type": "answer"},
    {"type": "ready"},
    {"type": "mend", "cells": [0, 1]},
]


def answer(state: dict, seat: int, move: dict, when) -> str:
    """What a seat is told when it tries `move`: the refusal's kind and text, or (accepted, not a
    challenge: its verdict is public by design) what everyone sees afterwards."""
    try:
        step = ENGINE.play(copy.deepcopy(state), seat, json.loads(json.dumps(move)), when)
    except base.EngineError as error:
        return f"{type(error).__name__}: {error.detail}"
    if move["type"] == "challenge":
        return "accepted"
    event = _event(step, 1, seat, move)
    return json.dumps([observe(ENGINE, step.state, event, viewer) for viewer in [None, *range(state["players"])]])


def erroneous_steps(trace: Trace):
    for i, state in enumerate(trace.states[1:]):
        last = state["last"]
        if last and last["status"] == "open" and last["faults"] and state["phase"] == "round":
            yield i, state


@pytest.mark.parametrize("players, options", [(4, {}), (5, {"level": 4}), (6, {"level": 5})])
def test_nothing_tells_an_erroneous_action_from_a_correct_one_before_a_challenge(players, options):
    trace = record(ENGINE, players, f"errors-{players}", options)
    found = 0
    for i, state in list(erroneous_steps(trace))[:8]:
        found += 1
        forged = judged_correct(state)
        event = trace.events[i]
        for seat in seats(trace):
            assert observe(ENGINE, state, event, seat) == observe(ENGINE, forged, event, seat), (i, seat)
        when = T0 + timedelta(minutes=i + 1)  # the recorded game's next move's instant
        for seat in range(players):
            probes = (
                PROBES + [{"type": "challenge", "action": state["last"]["number"]}] + ENGINE.legal_moves(state, seat)
                if seat in ENGINE.active_players(state)
                else PROBES
            )
            for move in probes:
                assert answer(state, seat, move, when) == answer(forged, seat, move, when), (i, seat, move)
        # the log line of the erroneous action itself holds no verdict
        for seat in seats(trace):
            line = json.dumps(ENGINE.describe({**event, "fresh": True}, seat))
            assert "fault" not in line and '"error"' not in line and "before" not in line
    assert found >= 3, "the random games made errors to hide"


@pytest.mark.parametrize("players, options", [(3, {}), (4, {"level": 5}), (6, {})])
def test_the_log_entries_that_are_not_reveals_draw_nothing_and_judge_nothing(players, options):
    """`reveals` lets staff roll back across the silent entries only: none of them changes a pile,
    the objective, the effects in play, or shows a verdict."""
    trace = record(ENGINE, players, f"reveals-{players}", options)
    silent = 0
    for before, event, after in zip(trace.states, trace.events, trace.states[1:]):
        if ENGINE.reveals(event):
            continue
        silent += 1
        for key in ("objective", "objective_pile", "piles", "effects"):
            assert after[key] == before[key], (event["type"], key)
        assert not {"error", "faults"} & set(event["data"]["record"]), event
    assert silent > 10
