"""The levels that think (2: greedy, 3: determinized Monte Carlo), over any game's kit.

Both work on imagined states: `Seat.imagine` asks the game's kit for a full state built from the
seat's view alone. Every imagined state is one the seat cannot rule out, so nothing a bot does
with it can depend on what the seat may not know.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from games.engines.base import Engine, EngineError

# Simulated moves need a time; only Photoshoot reads it (its kit plays at the view's own time).
AT = datetime(2026, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Budget:
    """How long a search may think: at most `iterations` playouts and, when `seconds` is set, at
    most that much CPU time (process time: a busy machine slows a bot, it does not make it
    think less well per second of its own). Proofs and matches use iterations only, so they
    are reproducible."""

    iterations: int = 240
    seconds: float | None = None
    width: int = 6  # level 3 searches the best `width` moves of level 2


@dataclass
class Seat:
    """What one seat knows, and the game's rules. Nothing else reaches a bot."""

    engine: Engine
    kit: Any
    seat: int
    view: Any
    legal: list[dict]
    log: list[dict]
    options: dict

    def imagine(self, rng: random.Random) -> dict:
        """A full state consistent with the view (the kit deals the unseen parts at random)."""
        return self.kit.determinize(self, rng)


def play_out(me: Seat, state: dict, rng: random.Random, plies: int, policy) -> dict:
    """Let the game go on for up to `plies` moves, every seat (this one too) playing `policy`."""
    return _advance(me, state, rng, policy, plies, until_mine=False)


def until_my_turn(me: Seat, state: dict, rng: random.Random, policy, limit: int = 40) -> dict:
    """After this seat's move: the others act (by `policy`) until it is this seat's turn again
    or the game ends; for simultaneous phases, until the phase resolves."""
    return _advance(me, state, rng, policy, limit, until_mine=True)


def _advance(me: Seat, state: dict, rng: random.Random, policy, plies: int, until_mine: bool) -> dict:
    """Up to `plies` moves, a random active seat each time playing `policy`; stopping at the end,
    when nobody can move, or (until_mine) once this seat is to act."""
    engine = me.engine
    for _ in range(plies):
        if engine.is_over(state):
            break
        active = sorted(engine.active_players(state))
        if not active or (until_mine and me.seat in active):
            break
        actor = rng.choice(active)
        moves = engine.legal_moves(state, actor)
        if not moves:
            break
        state = engine.apply(state, actor, policy(me, state, actor, moves, rng), AT)
    return state


def random_policy(me: Seat, state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
    return rng.choice(moves)


def _try(me: Seat, state: dict, move: dict) -> dict | None:
    try:
        return me.engine.apply(state, me.seat, move, AT)
    except EngineError:
        return None  # the imagined state disagrees with the real one on this move: skip it


def _after_my_turn(me: Seat, state: dict, rng: random.Random, cap: int = 30) -> float:
    """The value of a move once this seat's turn is over: while the turn goes on with this seat
    alone to act (a take, then its wind), its best follow-up; then the others answer (kit policy)."""
    engine = me.engine
    if not engine.is_over(state) and engine.active_players(state) == {me.seat}:
        follow = engine.legal_moves(state, me.seat)
        if len(follow) > cap:
            follow = rng.sample(follow, cap)
        values = [
            _after_my_turn(me, after, rng, cap) for after in (_try(me, state, m) for m in follow) if after is not None
        ]
        if values:
            return max(values)
    return me.kit.evaluate(me, until_my_turn(me, state, rng, me.kit.policy))


def scored_moves(
    me: Seat, rng: random.Random, samples: int = 3, cap: int = 90, until: float | None = None
) -> list[tuple[float, int, dict]]:
    """(mean heuristic value, index, move) of the candidate moves, best first: each move played
    on `samples` imagined states, the others answering at random, then scored by the kit. Past
    `until` (process time), only the moves scored so far are ranked, at least one."""
    kit = me.kit
    candidates = kit.candidates(me, rng, cap)
    worlds = [me.imagine(rng) for _ in range(samples)]
    scored = []
    for index, move in enumerate(candidates):
        if until is not None and scored and time.process_time() > until:
            break
        total, n = 0.0, 0
        for world in worlds:
            after = _try(me, world, move)
            if after is None:
                continue
            total += _after_my_turn(me, after, rng)
            n += 1
        if n:
            scored.append((total / n, index, move))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


def greedy(me: Seat, rng: random.Random) -> dict:
    scored = scored_moves(me, rng)
    if not scored:
        return rng.choice(me.legal)
    best = scored[0][0]
    return rng.choice([m for v, _, m in scored if v >= best - 1e-9])


def search(me: Seat, rng: random.Random, budget: Budget) -> dict:
    """Determinized Monte Carlo with UCB1 over the kit's shortlist (by default level 2's best
    moves): each iteration imagines a fresh state, plays the chosen move, lets the game go on
    with the kit's playout policy for the kit's horizon, and scores the end with the kit's
    evaluation. The first candidate stands unless another beats it by the kit's margin."""
    kit = me.kit
    started = time.process_time()  # the budget covers the ranking below too
    arms = kit.shortlist(me, rng, budget.width)
    if arms is None:
        # A long candidate list (Photograph's sunset) must not eat the search's budget: the
        # ranking gets half of it, and a move's cost stays near `budget.seconds`.
        until = None if budget.seconds is None else started + budget.seconds / 2
        ranked = scored_moves(me, rng, samples=2, cap=kit.search_cap, until=until)
        arms = [m for _, _, m in ranked[: budget.width]]
    if not arms:
        return rng.choice(me.legal)
    if len(arms) == 1:
        return arms[0]
    totals, squares, counts = [0.0] * len(arms), [0.0] * len(arms), [0] * len(arms)
    scale = 1.0
    for iteration in range(budget.iterations):
        if budget.seconds is not None and time.process_time() - started > budget.seconds:
            break
        if iteration < len(arms):
            arm = iteration
        else:
            arm = max(
                range(len(arms)),
                key=lambda a: totals[a] / counts[a] + scale * math.sqrt(2 * math.log(iteration) / counts[a]),
            )
        world = me.imagine(rng)
        after = _try(me, world, arms[arm])
        if after is None:
            value = -1e6
        else:
            after = play_out(me, after, rng, kit.horizon(me), kit.playout)
            value = kit.evaluate(me, after)
        totals[arm] += value
        squares[arm] += value * value
        counts[arm] += 1
        scale = max(scale, abs(value))  # UCB's exploration in the scale of the kit's values
    means = [totals[a] / counts[a] if counts[a] else -math.inf for a in range(len(arms))]
    best = max(means)
    choice = min(a for a in range(len(arms)) if means[a] == best)
    if kit.keep_first and choice and counts[0]:

        def variance(a: int) -> float:
            if counts[a] < 2:
                return math.inf
            return max(0.0, squares[a] - totals[a] ** 2 / counts[a]) / (counts[a] - 1) / counts[a]

        if means[choice] - means[0] <= kit.keep_first * math.sqrt(variance(choice) + variance(0)):
            choice = 0
    return arms[choice]
