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
READERS = [
    ROOT / "config" / "settings.py",
    ROOT / "gunicorn.conf.py",
    ROOT / "config" / "metrics.py",
    ROOT / "scripts" / "proxy.py",
]


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
    said = (
        text("README.md").split("\n\n", 2)[1] if where == "README.md" else settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    )
    for kind in engines.kinds():
        assert get_engine(kind).title in said, f"{where} does not name {get_engine(kind).title}"


@pytest.mark.django_db
def test_the_operation_count_in_the_contract_is_the_documents():
    doc = fetch_document()
    operations = [
        (method, path)
        for path, item in doc["paths"].items()
        for method in item
        if method in {"get", "put", "post", "delete", "patch", "head", "options"}
    ]
    claimed = re.search(r"(\d+) operations on (\d+) paths", text("docs/api-contract.md"))
    assert claimed and (int(claimed[1]), int(claimed[2])) == (len(operations), len(doc["paths"]))
    excluded = re.search(r'"--exclude-path-regex",\s*r"(.+?)"', text("tests/api/test_fuzz.py"))[1]
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
    missing = sorted(
        name
        for name in names
        if not re.search(rf"[\"']{name}[\"']", code)
        and not re.search(rf"^{name}\s*(?::[^=\n]*)?=", settings_module, re.M)
    )
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


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_every_picture_a_page_shows_is_in_the_repository(page):
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text())
    missing = [p for p in pictures if not p.startswith("http") and not (page.parent / p).is_file()]
    assert missing == []


def test_operations_md_shows_the_dispute_queue_and_a_decision():
    pictures = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", text("docs/operations.md"))
    assert {"screenshots/dispute-queue-desktop.png", "screenshots/dispute-decision-desktop.png"} <= set(pictures)


# -- pages for readers: the present, one source per figure, complete maps ----------------------
HISTORY = [
    r"Moved out of the README",
    r"\bissues? #?\d+",
    r"\bissue's\b",
    r"\(issue\)",
    r"\bthe issue\b",
    r"\bOn \d{1,2} (?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)\b",
    r"What was given back",
    r"\bfrom now on\b",
    r"Celery 5\.7\.0",
]


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_a_page_speaks_of_the_present_without_its_history_or_issue_numbers(page):
    found = [m.group(0) for pattern in HISTORY for m in re.finditer(pattern, page.read_text())]
    assert found == []


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_the_rules_are_cited_by_their_published_rulebooks_not_by_a_file_outside_the_repository(page):
    assert re.findall(r"\S*rulebooks/\S*", page.read_text()) == []


def test_games_md_cites_each_game_s_published_rulebook_by_title_and_edition():
    for kind in engines.kinds():
        row = re.search(rf"^\| `{kind}` \|.*$", text("docs/games.md"), re.M)
        assert row, kind
        assert f"*{get_engine(kind).title} Rulebook*, English edition" in row[0]


def figures_not_from_benchmarks(said: str, benchmarks: str) -> list[str]:
    """The benchmark figures a page quotes that are not benchmarks.md's: a latency percentile or a
    lateness in ms (those move with every run: a page other than benchmarks.md points there), and
    a move rate or the rate a server saturates at that benchmarks.md does not say."""
    found = re.findall(r"\bp(?:50|99)\b[^.|\n]{0,40}?\d+(?:\.\d+)? ?(?:ms|s)\b", said)
    found += re.findall(r"\b(?:late(?:ness)?|land|delivery|delivered)\b[^.|\n]{0,40}?\d+(?:[.-]\d+)? ?ms\b", said)
    found += re.findall(r"\d+(?:[.-]\d+)? ?ms (?:late|after (?:its|their) deadline)", said)
    rates = re.findall(r"(\d+(?:\.\d+)?) moves(?:/s| a second| per second)", said)
    rates += re.findall(r"saturates? at (\d+(?:\.\d+)?)", said)
    found += [
        rate for rate in rates if not re.search(rf"(?<![\d.]){re.escape(rate)}(?: \(\d| moves| asked)", benchmarks)
    ]
    return found


@pytest.mark.parametrize("page", ["docs/architecture.md", "docs/operations.md"])
def test_benchmark_figures_are_quoted_from_benchmarks_md_alone(page):
    """Latency percentiles, lateness and move rates are benchmarks.md's: another page that quotes
    one (and then contradicts it when the next run moves it) points there instead."""
    assert figures_not_from_benchmarks(text(page), text("docs/benchmarks.md")) == []


# What architecture.md and operations.md once said beside a benchmarks.md that said otherwise.
CONTRADICTIONS = [
    "at 10 moves/s `POST` p99 is 39 ms and delivery p99 183 ms (streams) and 197 ms (long-polls)",
    "at 33 moves/s asked the servers saturate at 26 (55 ms of CPU per move with its 20 readers",
    "listing Provence placements late in a 5-player game 4.7 ms; expiries land 7-13 ms after their deadline.",
    "1,000 clocks due in one second p99 79 ms late",
]


@pytest.mark.parametrize("sentence", CONTRADICTIONS)
def test_a_benchmark_figure_another_page_contradicts_is_caught(sentence):
    assert figures_not_from_benchmarks(sentence, text("docs/benchmarks.md")) != []


def test_benchmarks_md_names_the_commit_it_measured_and_the_report_is_kept_in_the_repository():
    import subprocess

    from tests.bench import report

    commit = re.search(r"\bat commit ([0-9a-f]{7,40})\b", text("docs/benchmarks.md"))
    assert commit, "docs/benchmarks.md does not name the commit its figures were measured at"
    assert subprocess.run(["git", "cat-file", "-e", f"{commit[1]}^{{commit}}"], cwd=ROOT).returncode == 0
    assert report.DOC.is_relative_to(ROOT)
    ignored = subprocess.run(["git", "check-ignore", "-q", str(report.DOC)], cwd=ROOT)
    assert ignored.returncode == 1, f"git ignores {report.DOC.relative_to(ROOT)}"


def test_the_readme_lists_every_target_a_reader_runs_and_points_at_nothing_missing():
    readme = text("README.md")
    assert "see below" not in readme
    phony = set(re.search(r"^\.PHONY: (.*)$", text("Makefile"), re.M)[1].split())
    helpers = {
        "install",
        "test-tools",
        "nginx",
        "chromium",
        "node",
        "gettext",
        "valgrind",
        "pgbouncer",
        "redis-sentinel",
        "patroni",
        "services",
        "migrate",
        "lint-imports",
        "mutate-before",
        "bots-strength-merge",
    }
    listed = set(re.findall(r"^\| `make ([a-z-]+)` \|", readme, re.M)) | {"run", "test"}
    assert sorted(phony - helpers - listed) == []


def tree() -> str:
    return re.search(r"## Architecture\n\n```\n(.*?)```", text("docs/architecture.md"), re.S)[1]


def test_the_architecture_tree_names_every_package_and_module_of_the_apps_config_and_the_web_client():
    layout = tree()
    missing = []
    for package in ("games", "web"):
        if not re.search(rf"^{package}/", layout, re.M):
            missing.append(f"{package}/")
    for directory in sorted((ROOT / "games").iterdir()):
        if (directory / "__init__.py").exists() and directory.name not in {"migrations", "templatetags"}:
            if not re.search(rf"\b{directory.name}/", layout):
                missing.append(f"games/{directory.name}/")
    for package in ("games/play", "games/notifications", "games/realtime", "games/community", "config", "accounts"):
        # config's and accounts' modules by their file name: their words (locale, names) are common.
        named = r"\.py\b" if package in {"config", "accounts"} else r"(?:\.py)?\b"
        for module in sorted((ROOT / package).glob("*.py")):
            if module.stem not in {"__init__", "apps"} and not re.search(rf"\b{module.stem}{named}", layout):
                missing.append(f"{package}/{module.name}")
    assert missing == []


def test_operations_md_opens_with_a_production_checklist():
    page = text("docs/operations.md")
    first = re.search(r"^## (.+)$", page, re.M)[1]
    assert first == "Production checklist"
    checklist = page.split("## Production checklist", 1)[1].split("\n## ", 1)[0]
    for needed in (
        "TLS",
        "createsuperuser",
        "migrate",
        "Backups",
        "Scaling",
        "`live`",
        "`outbound`",
        "`bots`",
        "`push`",
        "`beat`",
    ):
        assert needed in checklist, needed
