"""Bots are pure like the engines: no framework, no I/O, no database (they may read the CPU time
that bounds a search)."""

from pathlib import Path

import games.bots
from tests.engines.test_purity import imported_modules

BOTS_DIR = Path(games.bots.__file__).parent
FORBIDDEN = (
    "django",
    "rest_framework",
    "celery",
    "redis",
    "psycopg",
    "requests",
    "httpx",
    "socket",
    "os",
    "subprocess",
    "games.models",
    "games.play.store",
    "games.play",
    "accounts",
)


def test_no_bot_module_imports_a_framework_or_io():
    offenders = [
        f"{path.relative_to(BOTS_DIR)} imports {module}"
        for path in sorted(BOTS_DIR.rglob("*.py"))
        for module in imported_modules(path)
        if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN)
    ]
    assert offenders == []
