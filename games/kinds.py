"""Which games this server offers: the built-in engines plus any named in settings.EXTRA_ENGINES
(the test suite adds its tiny card game that way)."""
from __future__ import annotations

from django.conf import settings

from games import engines
from games.engines.base import Engine
from games.errors import Invalid


def _extra() -> dict[str, str]:
    pairs = (item.split("=", 1) for item in settings.EXTRA_ENGINES)
    return {kind.strip(): path.strip() for kind, path in pairs}


def all_kinds() -> list[str]:
    return sorted({*engines.kinds(), *_extra()})


def get_engine(kind: str) -> Engine:
    extra = _extra()
    if kind in extra:
        return engines.load(extra[kind])
    try:
        return engines.get(kind)
    except KeyError:
        raise Invalid(f"unknown game kind '{kind}'; known: {', '.join(all_kinds())}") from None
