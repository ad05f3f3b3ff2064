"""Bot-only games, played straight on the engine: the strength matches (`make bots-strength`)
and the fairness proof use them. Each bot is handed exactly what the server would hand it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Sequence

from games import engines

from . import Budget, decide

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def bot_inputs(engine, state: dict, events: list[dict], seat: int) -> dict:
    """What the server hands the bot at `seat`: its view, its legal moves, the log as it reads it."""
    return {
        "view": engine.view(state, seat),
        "legal": engine.legal_moves(state, seat),
        "log": [engine.describe(e, seat) for e in events],
    }


def play(
    kind: str,
    levels: Sequence[int],
    seed: str,
    options: dict | None = None,
    budget: Budget | None = None,
    max_steps: int = 5000,
    tick: float = 1.0,
    bot=decide,
) -> dict:
    """One game, seat i played by a bot of levels[i]; returns the engine's outcome. Each move
    takes `tick` seconds of the game's clock (Photoshoot's hourglass runs on it). `bot` is the
    decision function (a meter may wrap `games.bots.decide`)."""
    engine = engines.get(kind)
    options = dict(options or {})
    state = engine.setup(len(levels), options, f"game:{seed}")
    chooser = random.Random(f"order:{seed}")
    events: list[dict] = []
    clock = T0
    for step in range(max_steps):
        if engine.is_over(state):
            return engine.outcome(state)
        active = sorted(engine.active_players(state))
        chooser.shuffle(active)
        actor = move = None
        for seat in active:  # a seat may let its chance pass (a challenge without evidence)
            seen = bot_inputs(engine, state, events, seat)
            move = bot(
                kind,
                levels[seat],
                seat=seat,
                options=options,
                rules_version=engine.rules_version,
                seed=f"bot:{seed}:{seat}",
                budget=budget,
                **seen,
            )
            if move is not None:
                actor = seat
                break
        if actor is None:  # nobody acts: an engine timer is due (Photoshoot's hourglass)
            due = min(engine.deadlines(state), key=lambda d: d.at)
            move, clock = due.move, max(clock, due.at)
        else:
            clock = clock + timedelta(seconds=tick)
        result = engine.play(state, actor, move, clock)
        events.append(
            {
                "seq": len(events) + 1,
                "type": result.event_type,
                "actor": actor,
                "data": {"move": move, "record": result.record},
                "fresh": True,
            }
        )
        if len(events) > 1:
            events[-2]["fresh"] = False
        state = result.state
    raise RuntimeError(f"{kind}: no end after {max_steps} moves")
