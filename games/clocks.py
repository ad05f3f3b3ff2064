"""Clocks: placeholder until the time-control work lands (engine deadlines only)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from games.engines.base import Engine, State


def start(game, engine: Engine, state: State, now: datetime) -> dict[str, Any]:
    return {}


def after_change(game, engine: Engine, clocks: dict, state: State, active: list[int],
                 at: datetime) -> dict[str, Any]:
    return clocks


def next_deadline(clocks: dict, engine: Engine, state: State) -> datetime | None:
    if engine.is_over(state):
        return None
    return min((d.at for d in engine.deadlines(state)), default=None)


def catch_up(game, engine: Engine, state: State, now: datetime) -> State:
    return state


def schedule(game) -> None:
    return None
