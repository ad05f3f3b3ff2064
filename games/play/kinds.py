"""Which games this server offers: the built-in engines plus any named in settings.EXTRA_ENGINES
(the test suite adds its tiny card game that way), each under the rules version a game asks for."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext

from games import engines
from games.engines.base import Engine, UnknownRulesVersion
from games.errors import DomainError, Invalid, in_words


class RulesVersionUnavailable(DomainError):
    """A game created under rules this server does not keep: refused, never replayed by other
    rules (that would silently give a different game)."""

    status, code = 409, "rules_version_unavailable"


_parsed: tuple[tuple, dict[str, str]] = ((), {})


def _extra() -> dict[str, str]:
    # Parsed once per value of the setting: this runs for every engine lookup (several per
    # request, one per game of a sweeper batch and per notice), and tests override the setting.
    global _parsed
    raw = tuple(settings.EXTRA_ENGINES)
    if raw != _parsed[0]:
        pairs = (item.split("=", 1) for item in raw)
        _parsed = (raw, {kind.strip(): path.strip() for kind, path in pairs})
    return _parsed[1]


def all_kinds() -> list[str]:
    return sorted({*engines.kinds(), *_extra()})


def get_engine(kind: str, version: int | None = None) -> Engine:
    """The engine of `kind` under rules `version` (None: the rules new games are created under)."""
    try:
        extra = _extra()
        if kind in extra:
            return engines.at_version(engines.load(extra[kind]), version)
        try:
            return engines.get(kind, version)
        except KeyError:
            raise Invalid(
                gettext("unknown game kind '%(kind)s'; known: %(value)s")
                % {"kind": kind, "value": ", ".join(all_kinds())}
            ) from None
    except UnknownRulesVersion as error:
        raise RulesVersionUnavailable(in_words(error.detail)) from None


def engine_of(game: Any) -> Engine:
    """The engine a game is played and replayed by: its kind under the rules it was created with."""
    return get_engine(game.kind, game.rules_version)
