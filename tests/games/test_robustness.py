"""Never a 500 on client input; throttling; a clear line when a service is down."""

import subprocess
import sys

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings, strategies as st
from rest_framework.throttling import ScopedRateThrottle

from games.models import Event
from tests.conftest import start_game
from tests.engines.test_fuzz import json_values, moves

KINDS = [("pickpic", 3), ("photograph", 2), ("provence", 2), ("duel", 2)]


@pytest.fixture(params=KINDS, ids=[k for k, _ in KINDS])
def any_game(request, make_player):
    kind, players = request.param
    seats = [make_player() for _ in range(players)]
    return start_game(seats[0], seats[1:], kind=kind), seats[0]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(move=moves, version=st.one_of(st.integers(-5, 50), json_values), extra=json_values)
def test_any_move_body_gets_a_4xx_or_a_201_and_only_a_201_writes(any_game, move, version, extra):
    game_id, player = any_game
    before = Event.objects.filter(game_id=game_id).count()
    response = player.post(
        f"/api/v1/games/{game_id}/moves/", {"move": move, "expected_version": version, "extra": extra}
    )
    assert response.status_code in {201, 400, 403, 409}, response.content
    body = response.json()
    if response.status_code != 201:
        assert set(body) >= {"code", "detail"}
        assert Event.objects.filter(game_id=game_id).count() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_any_create_body_gets_a_4xx_or_a_201(alice, body):
    response = alice.post("/api/v1/games/", body)
    assert response.status_code in {201, 400}, response.content


def test_too_many_token_requests_are_429_with_retry_after(anonymous, monkeypatch):
    cache.clear()
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": "2/min"})
    for _ in range(2):
        anonymous.post("/api/v1/accounts/token/", {"username": "x", "password": "y"}, format="json")
    response = anonymous.post("/api/v1/accounts/token/", {"username": "x", "password": "y"}, format="json")
    assert (response.status_code, response.json()["code"]) == (429, "throttled")
    assert int(response["Retry-After"]) >= 1
    cache.clear()


@pytest.mark.parametrize(
    "env, needle",
    [
        ({"DATABASE_URL": "postgres://postgres@127.0.0.1:1/darkroom"}, "PostgreSQL is not reachable at 127.0.0.1:1"),
        ({"REDIS_URL": "redis://127.0.0.1:1/0"}, "Redis is not reachable at redis://127.0.0.1:1/0"),
    ],
)
def test_a_missing_service_is_one_clear_line_not_a_traceback(env, needle):
    import os

    result = subprocess.run(
        [sys.executable, "manage.py", "check_services"],
        capture_output=True,
        text=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        timeout=60,
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "docker compose -f compose.dev.yml up -d" in lines[0]
    assert "Traceback" not in result.stderr
