"""Where each app declares the personal data it holds about a user, for export and for erasure.

Account deletion and "export my data" walk this registry, so an app that stores something about a
person (chat authorship, ratings, tokens) registers one exporter and one eraser in its AppConfig's
`ready()` and the account service never needs to know the app exists. An app that needs the
account to stay for now (games: a seat in an open or active game) registers a keeper, which
raises the error the person is shown.

This module is where accounts and games meet: games registers here; accounts imports nothing of
games (the import-linter contracts in pyproject.toml).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

Exporter = Callable[[Any], Any]  # user -> JSON-ready data
Eraser = Callable[[Any], None]  # user -> None, inside the deleting transaction
Keeper = Callable[[Any], None]  # user -> None, or raises (a config.errors.DomainError) to keep it


@dataclass(frozen=True)
class Holder:
    name: str
    export: Exporter
    erase: Eraser


_holders: dict[str, Holder] = {}
_keepers: dict[str, Keeper] = {}


def register(name: str, *, export: Exporter, erase: Eraser) -> None:
    """Declare one kind of personal data; registering a name twice replaces it (reloads)."""
    _holders[name] = Holder(name, export, erase)


def holders() -> list[Holder]:
    return [_holders[name] for name in sorted(_holders)]


def keep_while(name: str, keeper: Keeper) -> None:
    """Declare something that must end before an account may be deleted (replaces a same name)."""
    _keepers[name] = keeper


def check_erasable(user) -> None:
    """Raise the first keeper's error if the account must stay for now; inside the deleting
    transaction, after the password is checked."""
    for name in sorted(_keepers):
        _keepers[name](user)
