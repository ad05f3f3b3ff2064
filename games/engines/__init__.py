"""The rule engines. Pure Python: nothing here may import Django, DRF or Celery (tested).

`ENGINES` maps kind -> module path of its engine object; `get` loads it on first use.
"""
from __future__ import annotations

import importlib

from .base import Engine

ENGINES: dict[str, str] = {
    "pickpic": "games.engines.pickpic:ENGINE",
    "photograph": "games.engines.photograph:ENGINE",
    "provence": "games.engines.provence:ENGINE",
    "photoshoot": "games.engines.photoshoot:ENGINE",
}

_loaded: dict[str, Engine] = {}


def load(path: str) -> Engine:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def get(kind: str) -> Engine:
    """The engine of `kind`; KeyError if there is no such game."""
    if kind not in _loaded:
        _loaded[kind] = load(ENGINES[kind])
    return _loaded[kind]


def kinds() -> list[str]:
    return sorted(ENGINES)
