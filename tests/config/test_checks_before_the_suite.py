"""`make test` (and `make test-fast`, and the pre-commit hooks) check the code before the suite:
ruff's lint and layout, import-linter's layers and mypy's types, each failing the run on its own."""

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CHECKS = [
    "$(VENV)/bin/ruff check",
    "$(VENV)/bin/ruff format --check",
    "$(VENV)/bin/lint-imports",
    "$(VENV)/bin/mypy",
]


def recipe(target: str) -> list[str]:
    body = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert body, f"no `{target}` target"
    return [line.strip().lstrip("@-") for line in body[1].splitlines()]


@pytest.mark.parametrize("target", ["test", "test-fast", "lint"])
def test_the_checks_run_first_and_none_is_allowed_to_fail(target):
    lines = recipe(target)
    assert lines[: len(CHECKS)] == CHECKS
    suite = [i for i, line in enumerate(lines) if "bin/pytest" in line]
    assert all(i >= len(CHECKS) for i in suite)


def test_the_pre_commit_hooks_run_the_same_checks():
    hooks = [
        hook
        for repo in yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())["repos"]
        for hook in repo["hooks"]
    ]
    entries = {hook["entry"].split()[0] for hook in hooks}
    assert {".venv/bin/ruff", ".venv/bin/lint-imports", ".venv/bin/mypy"} <= entries
    assert any(hook["entry"].startswith(".venv/bin/ruff format --check") for hook in hooks)


def test_mypy_checks_at_least_the_engines_and_the_play_layer():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert {"games/engines", "games/play"} <= set(config["files"])
    assert config["plugins"] == ["mypy_django_plugin.main"]
