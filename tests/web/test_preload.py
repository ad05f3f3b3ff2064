"""The page names every module the client imports at start, so the browser asks for them at once
(one round trip) rather than one import level at a time (a round trip a level, on a phone)."""

import re
from pathlib import Path

from django.test import Client

from web.views import MODULES

STATIC = Path(__file__).resolve().parents[2] / "web" / "static" / "web"
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w/.-]+)\.js";', re.MULTILINE | re.DOTALL)


def static_imports(module: str) -> set[str]:
    """Every module `module` imports statically, directly or through another (not `import()`)."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        base = str(Path(name).parent)
        text = (STATIC / f"{name}.js").read_text()
        todo += [str(Path(base, found)).removeprefix("./") if base != "." else found for found in IMPORT.findall(text)]
    return seen


def test_the_page_preloads_exactly_the_modules_the_client_imports_at_start():
    assert set(MODULES) == static_imports("app")


def test_the_page_links_each_module_for_preloading(db):
    html = Client().get("/").content.decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/web/([\w/]+)\.js">', html)
    assert sorted(preloaded) == sorted(MODULES)
