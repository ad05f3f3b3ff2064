"""The rule engines. Pure Python: nothing here may import Django, DRF or Celery (tested).

`ENGINES` maps kind -> module path of its engine object (the current rules); `get(kind, version)`
loads it on first use and returns it under the rules version a game was created with, keyed by
(kind, version): a game is always replayed by the rules it was created under.
"""

from __future__ import annotations

import importlib

from .base import Engine, UnknownRulesVersion

ENGINES: dict[str, str] = {
    "pickpic": "games.engines.pickpic:ENGINE",
    "photograph": "games.engines.photograph:ENGINE",
    "provence": "games.engines.provence:ENGINE",
    "photoshoot": "games.engines.photoshoot:ENGINE",
}

_loaded: dict[tuple[str, int | None], Engine] = {}


def load(path: str) -> Engine:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def at_version(engine: Engine, version: int | None) -> Engine:
    """`engine` under rules `version` (None: its current rules); UnknownRulesVersion if gone."""
    return engine if version is None else engine.at_version(version)


def get(kind: str, version: int | None = None) -> Engine:
    """The engine of `kind` under rules `version` (None: the current rules).

    KeyError if there is no such game; UnknownRulesVersion if this server does not keep that
    version of its rules."""
    key = (kind, version)
    if version is not None and type(version) is not int:  # 2.0 == 2: keep it out of the cache
        raise UnknownRulesVersion(
            "%(kind)s rules version %(version)r is not a whole number", kind=kind, version=version
        )
    if key not in _loaded:
        current = _loaded.get((kind, None)) or load(ENGINES[kind])
        _loaded[(kind, None)] = current
        _loaded[key] = at_version(current, version)
    return _loaded[key]


def kinds() -> list[str]:
    return sorted(ENGINES)


__all__ = ["ENGINES", "Engine", "UnknownRulesVersion", "at_version", "get", "kinds", "load"]
