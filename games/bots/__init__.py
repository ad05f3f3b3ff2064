"""Computer players. Pure like the engines: no Django, no I/O, no clock but the CPU budget.

A bot decides from exactly what its seat may know, and the signature of `decide` is the proof:
it takes the seat's view, its legal moves, the log as that seat reads it, the game's options and
rules version, the bot's own seed and a budget. It is never handed the state, the game's seed or
another seat's view, so it cannot use them. Levels 2 and 3 reason about the hidden parts by
*determinizing*: each game's kit (games/bots/kinds/) builds a full, plausible state from the view
alone (the hidden cards dealt at random from the ones the seat has not seen), and the bot plays
the engine's own pure functions on those imagined states.

Levels: 1 picks a legal move at random; 2 is greedy (every move tried once on a few imagined
states, scored with the game's one-move heuristic); 3 searches (determinized Monte Carlo: the
best few moves, by level 2 or by the game kit's own judgement, each played out many times on fresh
imagined states within the budget).
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from games import engines

from .kinds import kit_for
from .search import Budget, Seat, greedy, search

LEVELS = (1, 2, 3)
LEVEL_NAMES = {1: "random", 2: "greedy", 3: "searching"}


class BotError(ValueError):
    """A bot asked to move with nothing to do, or with a level it does not have."""


def decide(
    kind: str,
    level: int,
    *,
    seat: int,
    view: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]],
    log: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
    rules_version: int | None,
    seed: str,
    budget: Budget | None = None,
) -> dict[str, Any] | None:
    """The move the bot of `level` makes at `seat`, from what that seat is shown and nothing else.

    `log` is the game's log as `seat` reads it (each entry the engine's `describe` for that seat),
    `seed` the bot's own (never the game's): with the same inputs and an iteration budget the
    choice is the same, which is what the fairness proof checks. A time budget (seconds of CPU)
    bounds a level-3 search in play.

    None: the bot lets its chance pass (Photoshoot's Control team, with no evidence to challenge
    on); it is asked again when the table changes."""
    if level not in LEVELS:
        raise BotError(f"bot level {level!r} is not one of {list(LEVELS)}")
    if not legal:
        raise BotError("the seat has no legal move")
    legal = [dict(m) for m in legal]
    rng = random.Random(f"{seed}:{kind}:{seat}:{len(log)}")
    engine = engines.get(kind, rules_version)
    me = Seat(engine=engine, kit=kit_for(kind), seat=seat, view=view, legal=legal, log=list(log), options=dict(options))
    if level == 1:
        return me.kit.random_move(me, rng)
    special = me.kit.decide(me, level, rng, budget or Budget())
    if special is not NotImplemented:
        return special
    if level == 2:
        return greedy(me, rng)
    return search(me, rng, budget or Budget())


__all__ = ["Budget", "BotError", "LEVELS", "LEVEL_NAMES", "decide"]
