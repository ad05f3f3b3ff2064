"""Production settings: `manage.py check --deploy` is clean with the environment documented in
docs/operations.md, and CORS lets exactly the configured browser origins in."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The production environment of docs/operations.md ("Production settings"); the test below
# reads it from there, so the document and the test cannot disagree.
DOC = ROOT / "docs" / "operations.md"


def documented_environment() -> dict[str, str]:
    block = re.search(r"<!-- production-env -->\s*```sh\n(.*?)```", DOC.read_text(), re.S)
    assert block, "docs/operations.md has no production environment block"
    env = {}
    for line in block.group(1).splitlines():
        for word in shlex.split(line, comments=True):  # as sh reads it: comments and quotes away
            name, _, value = word.partition("=")
            env[name] = value
    return env


def manage(*args, env):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CORS_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_under_the_documented_production_settings():
    env = documented_environment()
    assert env["DJANGO_DEBUG"] == "false"
    env["DJANGO_SECRET_KEY"] = "k9#Vq2-documented-placeholder-replaced-by-a-real-one-Zx81LmP0wR7tYb"
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_does_complain_about_a_development_setup():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env={"DJANGO_DEBUG": "true"})
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout  # DEBUG on


def test_cors_origins_come_from_the_environment():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; print(settings.CORS_ALLOWED_ORIGINS)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "CORS_ALLOWED_ORIGINS": "https://play.example.org, http://localhost:5173",
        },
    )
    assert result.stdout.strip() == "['https://play.example.org', 'http://localhost:5173']", result.stderr


@pytest.fixture
def origins(settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://play.example.org"]


def test_an_allowed_origin_may_call_the_api_and_read_its_headers(alice, duel, origins):
    response = alice.client.get(f"/api/v1/games/{duel}/", HTTP_ORIGIN="https://play.example.org")
    assert response["Access-Control-Allow-Origin"] == "https://play.example.org"
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "retry-after", "idempotent-replayed", "x-request-id"} <= exposed


def test_a_preflight_for_a_move_is_answered(anonymous, origins):
    response = anonymous.options(
        "/api/v1/games/",
        HTTP_ORIGIN="https://play.example.org",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key",
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "https://play.example.org"
    allowed = {h.strip().lower() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key"} <= allowed


def test_another_origin_gets_no_cors_headers(alice, duel, origins):
    response = alice.client.get(f"/api/v1/games/{duel}/", HTTP_ORIGIN="https://evil.example.com")
    assert "Access-Control-Allow-Origin" not in response


def test_check_deploy_asks_for_a_metrics_token():
    env = {k: v for k, v in documented_environment().items() if k != "METRICS_TOKEN"}
    env["DJANGO_SECRET_KEY"] = "k9#Vq2-documented-placeholder-replaced-by-a-real-one-Zx81LmP0wR7tYb"
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0 and "darkroom.W001" in result.stdout + result.stderr
