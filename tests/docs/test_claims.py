"""The docs' checkable claims, checked: the games they name are the engines the server has, the
API's size in api-contract.md is the served document's, every setting operations.md names is
read or defined by the code, and every `make` target the docs tell readers to run exists."""
import re
from pathlib import Path

import pytest
from django.conf import settings

from games import engines
from games.play.kinds import get_engine
from tests.api.openapi import fetch_document

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
# Where an environment variable can be read: the settings, gunicorn's own (workers, proxies), and
# prometheus-client's directory (read by config/metrics.py).
READERS = [ROOT / "config" / "settings.py", ROOT / "gunicorn.conf.py", ROOT / "config" / "metrics.py",
           ROOT / "scripts" / "proxy.py"]


def text(name: str) -> str:
    return (ROOT / name).read_text()


def test_the_architecture_lists_every_engine_package():
    packages = {p.name for p in (ROOT / "games" / "engines").iterdir() if (p / "__init__.py").exists()}
    # The layout block's `engines/` entry, up to the next entry (a line indented no deeper).
    entry = re.search(r"^(\s*)(?:games/)?engines/ (.*?)\n(?=\1?\S)", text("docs/architecture.md"), re.M | re.S)
    assert entry, "docs/architecture.md's layout has no engines/ entry"
    assert set(re.findall(r"\b([a-z]+)/", entry[2].split("+", 1)[1])) == packages


@pytest.mark.parametrize("where", ["README.md", "the API's description"])
def test_every_game_the_server_plays_is_named(where):
    said = (text("README.md").split("\n\n", 2)[1] if where == "README.md"
            else settings.SPECTACULAR_SETTINGS["DESCRIPTION"])
    for kind in engines.kinds():
        assert get_engine(kind).title in said, f"{where} does not name {get_engine(kind).title}"


@pytest.mark.django_db
def test_the_operation_count_in_the_contract_is_the_documents():
    doc = fetch_document()
    operations = [(method, path) for path, item in doc["paths"].items() for method in item
                  if method in {"get", "put", "post", "delete", "patch", "head", "options"}]
    claimed = re.search(r"(\d+) operations on (\d+) paths", text("docs/api-contract.md"))
    assert claimed and (int(claimed[1]), int(claimed[2])) == (len(operations), len(doc["paths"]))
    excluded = re.search(r'"--exclude-path-regex", r"(.+?)"', text("tests/api/test_fuzz.py"))[1]
    fuzzed_but = re.search(r"runs every operation but (\d+)", text("docs/api-contract.md"))
    assert fuzzed_but and int(fuzzed_but[1]) == sum(bool(re.search(excluded, p)) for _, p in operations)


def documented_settings() -> set[str]:
    page = text("docs/operations.md")
    block = re.search(r"<!-- production-env -->\s*```sh\n(.*?)```", page, re.S)[1]
    names = set(re.findall(r"^([A-Z][A-Z0-9_]+)=", block, re.M))
    return names | set(re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`", page))


def test_every_setting_operations_md_names_is_read_by_the_code():
    names = documented_settings()
    assert {"DJANGO_SECRET_KEY", "METRICS_TOKEN", "DJANGO_TRUSTED_PROXIES", "WEB_CONCURRENCY"} <= names
    code = "\n".join(path.read_text() for path in READERS)
    settings_module = text("config/settings.py")
    # An environment variable the code reads ("NAME"), or a setting config/settings.py defines.
    missing = sorted(name for name in names if not re.search(rf"[\"']{name}[\"']", code)
                     and not re.search(rf"^{name}\s*=", settings_module, re.M))
    assert missing == []


def test_every_make_target_the_docs_name_exists():
    makefile = text("Makefile")
    targets = set()
    for line in re.findall(r"^([a-z][\w ./-]*):(?!=)", makefile, re.M):
        targets.update(line.split())
    named = set()
    for page in DOCS:
        named.update(re.findall(r"(?:`|^\s*)make ([a-z][\w-]*)", page.read_text(), re.M))
    assert named and named <= targets, sorted(named - targets)
