"""The code reaches the frameworks only through their public, documented names: no
import of a `_`-prefixed name or module from Django, DRF, Celery, kombu, psycopg or redis-py, and
no subclass of their request handlers or cache clients, whose insides change between releases
without notice. Read from the source, so a new module is held to it the day it is written."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = ("django", "rest_framework", "celery", "kombu", "psycopg", "psycopg_pool", "redis")
OURS = ("accounts", "games", "config", "web", "tests", "scripts", "manage.py")
# Machinery that is not an extension point: subclassing it forks the framework.
NOT_EXTENSION_POINTS = {
    "BaseHandler",
    "ASGIHandler",
    "WSGIHandler",
    "RedisCacheClient",
    "BaseDatabaseWrapper",
    "CursorWrapper",
    "CursorDebugWrapper",
    "SyncToAsync",
    "AsyncToSync",
}


def sources():
    for top in OURS:
        path = ROOT / top
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def private(name: str) -> bool:
    return any(part.startswith("_") and not (part.startswith("__") and part.endswith("__")) for part in name.split("."))


def framework(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in FRAMEWORKS


def reaches_in(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and framework(node.module):
            if private(node.module):
                found.append(f"line {node.lineno}: from {node.module}")
            found += [f"line {node.lineno}: {node.module}.{a.name}" for a in node.names if private(a.name)]
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name}" for a in node.names if framework(a.name) and private(a.name)
            ]
        elif isinstance(node, ast.Attribute) and private(node.attr) and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in FRAMEWORKS:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = ast.unparse(base).split(".")[-1]
                if name in NOT_EXTENSION_POINTS:
                    found.append(f"line {node.lineno}: class {node.name}({ast.unparse(base)})")
    return found


def test_nothing_reaches_into_a_framework_s_private_api():
    found = {}
    for path in sources():
        hits = reaches_in(ast.parse(path.read_text(), str(path)))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert found == {}


def test_the_check_sees_what_it_forbids():
    forbidden = (
        "from django.core.handlers.asgi import ASGIHandler\nclass Handler(ASGIHandler): pass\n"
        "from django.utils._os import safe_join\nfrom psycopg import _psycopg\n"
        "import redis._parsers\nfrom celery import _state\nx = django.db._thing\n"
    )
    assert len(reaches_in(ast.parse(forbidden))) == 6
    allowed = "from django.db import connection\nfrom rest_framework.views import APIView\nGame._meta.db_table\n"
    assert reaches_in(ast.parse(allowed)) == []
