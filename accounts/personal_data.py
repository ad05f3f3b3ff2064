"""Where each app declares the personal data it holds about a user, for export and for erasure.

Account deletion and "export my data" walk this registry, so an app that stores something about a
person (chat authorship, ratings, tokens) registers one exporter and one eraser in its AppConfig's
`ready()` and the account service never needs to know the app exists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

Exporter = Callable[[Any], Any]   # user -> JSON-ready data
Eraser = Callable[[Any], None]    # user -> None, inside the deleting transaction


@dataclass(frozen=True)
class Holder:
    name: str
    export: Exporter
    erase: Eraser


_holders: dict[str, Holder] = {}


def register(name: str, *, export: Exporter, erase: Eraser) -> None:
    """Declare one kind of personal data; registering a name twice replaces it (reloads)."""
    _holders[name] = Holder(name, export, erase)


def holders() -> list[Holder]:
    return [_holders[name] for name in sorted(_holders)]
