"""The protocol every engine keeps, checked by playing random games (used by each engine's tests
and by test_contract.py for every registered kind).

`play_random_game` drives a game with moves drawn from `legal_moves` and checks, at every step:
the state is plain JSON and unchanged by `apply`; every active seat has a legal move (so the server
can always play for a seat that timed out); the seed never reaches a view or a log line.
"""

from __future__ import annotations

import copy
import json
import random
from datetime import datetime, timedelta, timezone

from games.engines.base import Engine

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def as_json(value) -> str:
    return json.dumps(value, sort_keys=True)


def play_random_game(engine: Engine, players: int, seed: str, options=None, max_steps=5000, on_step=None):
    """Play to the end; return (final_state, events). `on_step(before, event, after)` may check more."""
    options = options or {}
    state = engine.setup(players, options, seed)
    chooser = random.Random(seed)
    events = []
    for step_no in range(max_steps):
        if engine.is_over(state):
            break
        active = sorted(engine.active_players(state))
        assert active, "a game that is not over has someone to act"
        seat = chooser.choice(active)
        moves = engine.legal_moves(state, seat)
        assert moves, f"active seat {seat} has no legal move"
        move = chooser.choice(moves)
        before = copy.deepcopy(state)
        frozen = as_json(state)
        step = engine.play(state, seat, json.loads(json.dumps(move)), T0 + timedelta(minutes=step_no))
        assert as_json(state) == frozen, "apply must not mutate its input"
        event = {
            "seq": len(events) + 1,
            "type": step.event_type,
            "actor": seat,
            "data": {"move": move, "record": step.record},
        }
        json.loads(as_json(step.state))
        json.loads(as_json(event))
        for viewer in [None, *range(players)]:
            text = as_json(engine.view(step.state, viewer)) + as_json(engine.describe(event, viewer))
            if step.state.get("_seed"):
                assert step.state["_seed"] not in text, "the seed leaked"
        events.append(event)
        if on_step:
            on_step(before, event, step.state)
        state = step.state
    else:
        raise AssertionError(f"no end after {max_steps} moves")
    return state, events


def replay(engine: Engine, players: int, seed: str, events, options=None):
    state = engine.setup(players, options or {}, seed)
    for i, event in enumerate(events):
        state = engine.apply(state, event["actor"], event["data"]["move"], T0 + timedelta(minutes=i))
    return state
