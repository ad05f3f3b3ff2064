"""Engines are pure rules: no framework, no I/O, no clock (DESIGN: "Arrows point down")."""

import ast
from pathlib import Path

import games.engines

ENGINES_DIR = Path(games.engines.__file__).parent
FORBIDDEN = (
    "django",
    "rest_framework",
    "celery",
    "redis",
    "psycopg",
    "requests",
    "socket",
    "time",
    "os",
    "subprocess",
    "games.models",
    "games.play.store",
    "games.play",
    "accounts",
)


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_no_engine_module_imports_a_framework_io_or_the_clock():
    offenders = []
    for path in sorted(ENGINES_DIR.rglob("*.py")):
        for module in imported_modules(path):
            if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN):
                offenders.append(f"{path.relative_to(ENGINES_DIR)} imports {module}")
    assert offenders == []


def test_engines_never_read_the_clock():
    offenders = [
        str(path.relative_to(ENGINES_DIR))
        for path in sorted(ENGINES_DIR.rglob("*.py"))
        if any(call in path.read_text() for call in ("datetime.now(", "datetime.utcnow(", "date.today("))
    ]
    assert offenders == []
