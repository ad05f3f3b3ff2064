"""Whole-game secrecy, as a property: a seat cannot tell apart two games that differ only in what
it may not know.

A game is played from a seed with random legal moves (`record`). A *perturbation* builds another
game that a seat must not be able to tell from it: the same seed with two positions of one shuffle
exchanged (another deal, exactly as likely), and/or other seats making other choices
(`translate`). Both games are played through the real engine, and the seat's whole observation
history is compared step by step: its view, its legal moves, and the log line of each event, as
it is first sent (fresh) and as it reads later. The histories must be equal up to the
perturbation's `horizon`, the first move at which the rules let the seat learn the difference
(None: never). Each engine's test module supplies its perturbations from its rulebook's secrets;
this module knows no game (Photoshoot's tests can use it as they are).

Why exchanges inside one shuffle: every permutation of a shuffled list is equally likely, so the
exchanged deal is a game the seat has to reckon with. Cards dealt from two different shuffles (a
deck and its refill, say) cannot be exchanged this way: a perturbation that needs it fails, which
is how a deal that lets a seat tell them apart shows up.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterator

from games.engines import base
from games.engines.base import Engine

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
Label = tuple


# ---------------------------------------------------------------------------------------------
# Randomness: watch every shuffle, and exchange two positions of one of them
# ---------------------------------------------------------------------------------------------
class _Stream(random.Random):
    """base.rng's stream, with its shuffles logged and, for one label, two positions exchanged."""

    def __init__(self, original: random.Random, label: Label, world: "_World"):
        super().__init__()
        self.setstate(original.getstate())
        self.label, self.world = label, world

    def shuffle(self, x, *args, **kwargs):
        super().shuffle(x, *args, **kwargs)
        swap = self.world.swaps.get(self.label)
        if swap is not None:
            i, j = swap
            x[i], x[j] = x[j], x[i]
        self.world.shuffles.append(Shuffle(self.label, self.world.step, list(x)))


@dataclass(frozen=True)
class Shuffle:
    label: Label
    step: int  # the move during which it happened (-1: setup)
    result: list


@dataclass
class _World:
    swaps: dict[Label, tuple[int, int]]
    shuffles: list[Shuffle] = field(default_factory=list)
    step: int = -1


@contextlib.contextmanager
def _randomness(world: _World) -> Iterator[None]:
    """Route every engine module's `rng` (base.rng, or a name imported from it) through `world`."""
    original = base.rng

    def rng(seed: str, *label: Any) -> random.Random:
        return _Stream(original(seed, *label), tuple(label), world)

    patched = [
        m
        for name, m in list(sys.modules.items())
        if name.startswith("games.engines") and getattr(m, "rng", None) is original
    ]
    for module in patched:
        module.rng = rng
    try:
        yield
    finally:
        for module in patched:
            module.rng = original


# ---------------------------------------------------------------------------------------------
# A recorded game
# ---------------------------------------------------------------------------------------------
@dataclass
class Trace:
    engine: Engine
    players: int
    options: dict
    seed: str
    moves: list[tuple[int | None, dict]]  # (actor, move) of each step; None: an engine timer
    states: list[dict]  # states[0] after setup, states[i + 1] after move i
    events: list[dict]  # events[i]: the log entry of move i
    shuffles: list[Shuffle]

    def source(self, card: Any, step: int, decks: tuple[str, ...]) -> tuple[Shuffle, int]:
        """The shuffle `card` was dealt from, for a card drawn during move `step` (-1: setup):
        the latest shuffle of a deck (a label starting with one of `decks`) up to then that holds
        it, and its position in it."""
        for shuffle in reversed(self.shuffles):
            if shuffle.label[:1] in {(d,) for d in decks} and shuffle.step <= step and card in shuffle.result:
                return shuffle, shuffle.result.index(card)
        raise AssertionError(f"{card!r} was dealt from no shuffle")


def _event(step: base.Step, seq: int, actor: int, move: dict) -> dict:
    return {"seq": seq, "type": step.event_type, "actor": actor, "data": {"move": move, "record": step.record}}


def record(
    engine: Engine,
    players: int,
    seed: str,
    options: dict | None = None,
    chooser_seed: str | None = None,
    max_steps: int = 5000,
) -> Trace:
    """Play a whole game with random legal moves (a random active seat each time)."""
    world = _World({})
    options = dict(options or {})
    chooser = random.Random(chooser_seed or seed)
    with _randomness(world):
        state = engine.setup(players, options, seed)
        states, moves, events = [state], [], []
        for index in range(max_steps):
            if engine.is_over(state):
                break
            active = sorted(engine.active_players(state))
            if active:
                seat = chooser.choice(active)
                move = chooser.choice(engine.legal_moves(state, seat))
            else:  # nobody to act: a timer of the engine's (Photoshoot's hourglass) is due
                due = min(engine.deadlines(state), key=lambda d: d.at)
                seat, move = None, due.move
            world.step = index
            step = engine.play(state, seat, move, T0 + timedelta(minutes=index))
            moves.append((seat, move))
            events.append(_event(step, index + 1, seat, move))
            state = step.state
            states.append(state)
        else:
            raise AssertionError(f"no end after {max_steps} moves")
    return Trace(engine, players, options, seed, moves, states, events, world.shuffles)


# ---------------------------------------------------------------------------------------------
# Observations and perturbations
# ---------------------------------------------------------------------------------------------
def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


_legal_cache: dict[tuple[int, str, int], list[str]] = {}


def _legal(engine: Engine, state: dict, seat: int) -> list[str]:
    """The seat's legal moves, canonical; cached, since perturbed games replay the same states
    up to where they part (Provence lists thousands of placements)."""
    key = (id(engine), _canonical(state), seat)
    if key not in _legal_cache:
        if len(_legal_cache) > 20000:
            _legal_cache.clear()
        active = seat in engine.active_players(state) and not engine.is_over(state)
        _legal_cache[key] = sorted(map(_canonical, engine.legal_moves(state, seat))) if active else []
    return _legal_cache[key]


def observe(engine: Engine, state: dict, event: dict | None, seat: int) -> str:
    """Everything `seat` is shown at one step: its view, its legal moves, the step's log line
    fresh (the answer, the live channel) and as read later, and the players bar's scores."""
    view = engine.view(state, seat)
    seen = {
        "view": view,
        "standing": engine.standing(view),
        "replay": engine.replay_view(state, seat),
        "legal": _legal(engine, state, seat),
        "line": engine.describe({**event, "fresh": True}, seat) if event else None,
        "later": engine.describe({**event, "fresh": False}, seat) if event else None,
    }
    return _canonical(seen)


Translate = Callable[[dict, int, dict, int], dict]  # (other world's state, actor, move, step)


def same_move(state: dict, actor: int, move: dict, step: int) -> dict:
    return move


@dataclass
class Perturbation:
    """Another game `seat` must not tell apart from the recorded one before move `horizon`."""

    seat: int
    why: str
    swaps: dict[Label, tuple[int, int]] = field(default_factory=dict)
    translate: Translate = same_move
    horizon: int | None = None


def swap_within_one_shuffle(
    trace: Trace, first: tuple[Any, int], second: tuple[Any, int], decks: tuple[str, ...]
) -> dict[Label, tuple[int, int]]:
    """The exchange of two dealt cards, given as (card, move during which it was drawn), in the
    shuffles labelled `decks`. Fails when no single shuffle dealt both: then no equally likely
    deal exchanges them."""
    (s1, i), (s2, j) = trace.source(*first, decks), trace.source(*second, decks)
    assert s1 == s2, (
        f"{first[0]!r} and {second[0]!r} come from different shuffles "
        f"({s1.label} and {s2.label}): a seat can tell them apart"
    )
    return {s1.label: (i, j)}


class Observer:
    """The recorded game's observation histories, per seat, computed once."""

    def __init__(self, trace: Trace):
        self.trace = trace
        self._seen: dict[int, list[str]] = {}

    def history(self, seat: int) -> list[str]:
        if seat not in self._seen:
            t = self.trace
            self._seen[seat] = [observe(t.engine, t.states[0], None, seat)] + [
                observe(t.engine, t.states[i + 1], t.events[i], seat) for i in range(len(t.moves))
            ]
        return self._seen[seat]


def check(observer: Observer, perturbation: Perturbation) -> int:
    """Play the perturbed game and compare `seat`'s observations with the recorded ones up to the
    horizon. Returns how many steps were compared; fails on the first difference."""
    trace, seat = observer.trace, perturbation.seat
    engine, expected = trace.engine, observer.history(seat)
    end = len(trace.moves) if perturbation.horizon is None else perturbation.horizon
    world = _World(dict(perturbation.swaps))
    differs = False
    with _randomness(world):
        state = engine.setup(trace.players, trace.options, trace.seed)
        assert observe(engine, state, None, seat) == expected[0], (
            f"seat {seat} tells apart at setup: {perturbation.why}"
        )
        for index in range(end):
            actor, move = trace.moves[index]
            if actor != seat:
                move = perturbation.translate(state, actor, move, index)
            differs = differs or _canonical(state) != _canonical(trace.states[index])
            world.step = index
            step = engine.play(state, actor, move, T0 + timedelta(minutes=index))
            state = step.state
            seen = observe(engine, state, _event(step, index + 1, actor, move), seat)
            assert seen == expected[index + 1], (
                f"seat {seat} tells apart after move {index} ({trace.events[index]['type']}): "
                f"{perturbation.why}\n{_diff(seen, expected[index + 1])}"
            )
        differs = differs or _canonical(state) != _canonical(trace.states[end])
    assert differs or not end, f"the perturbation changed nothing: {perturbation.why}"
    return end + 1


def replay(trace: Trace, perturbation: Perturbation) -> tuple[list[dict], list[dict]]:
    """The perturbed game played to the end: (states, events), like the trace's."""
    engine, world = trace.engine, _World(dict(perturbation.swaps))
    with _randomness(world):
        state = engine.setup(trace.players, trace.options, trace.seed)
        states, events = [state], []
        for index, (actor, move) in enumerate(trace.moves):
            if actor != perturbation.seat:
                move = perturbation.translate(state, actor, move, index)
            world.step = index
            step = engine.play(state, actor, move, T0 + timedelta(minutes=index))
            state = step.state
            states.append(state)
            events.append(_event(step, index + 1, actor, move))
    return states, events


def archive(engine: Engine, states: list[dict], events: list[dict], seat: int) -> list[str]:
    """What `seat` can check once the game has moved on: every log line read later, every past
    state replayed."""
    return [_canonical(engine.describe({**e, "fresh": False}, seat)) for e in events] + [
        _canonical(engine.replay_view(s, seat)) for s in states
    ]


def _diff(seen: str, expected: str) -> str:
    a, b = json.loads(seen), json.loads(expected)
    return "\n".join(
        f"  {key}: {_canonical(a[key])[:600]}\n  vs   {_canonical(b[key])[:600]}" for key in a if a[key] != b[key]
    )


def first_step(trace: Trace, condition: Callable[[int], bool], start: int = 0) -> int | None:
    """The first move index >= start for which condition(index) holds (None: none)."""
    return next((i for i in range(start, len(trace.moves)) if condition(i)), None)
