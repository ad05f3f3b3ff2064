"""Shared fixtures: real PostgreSQL (pytest-django's test database) and real Redis."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from rest_framework.test import APIClient

_names = itertools.count()
_HERE = Path(__file__).resolve().parent


# What runs for minutes goes first: pytest-xdist hands files out in the order collected, and a long
# file handed out last is the suite's wall time alone.
_FIRST = ("long", "fault", "slow", "browser", "worker")


def _start(item) -> int:
    return next((rank for rank, name in enumerate(_FIRST) if item.get_closest_marker(name)), len(_FIRST))


def pytest_collection_modifyitems(items):
    # `make test-fast` leaves out what drives a browser or the benchmark's whole stack.
    for item in items:
        path = Path(str(item.fspath))
        if path.is_relative_to(_HERE / "web"):
            item.add_marker(pytest.mark.browser)
        elif path.is_relative_to(_HERE / "bench"):
            item.add_marker(pytest.mark.bench_smoke)
    items.sort(key=_start)


class Player:
    """A registered user with an authenticated API client."""

    def __init__(self, client: APIClient, user, token: str):
        self.client, self.user, self.token = client, user, token

    def get(self, path, **params):
        return self.client.get(path, params or None, format="json")

    def post(self, path, body=None, **headers):
        return self.client.post(path, body if body is not None else {}, format="json", **headers)

    def game(self, game_id):
        return self.get(f"/api/v1/games/{game_id}/").json()

    def move(self, game_id, move, expected_version=None, key=None):
        if expected_version is None:
            expected_version = self.game(game_id)["version"]
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        return self.post(
            f"/api/v1/games/{game_id}/moves/", {"move": move, "expected_version": expected_version}, **headers
        )


@pytest.fixture
def make_player(db):
    def make(name: str | None = None) -> Player:
        name = name or f"player{next(_names)}"
        client = APIClient()
        response = client.post(
            "/api/v1/accounts/register/",
            {"username": name, "password": "correct horse battery", "email": f"{name}@example.com"},
            format="json",
        )
        assert response.status_code == 201, response.content
        token = response.json()["token"]
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        from accounts.models import User

        return Player(client, User.objects.get(username=name), token)

    return make


@pytest.fixture
def alice(make_player):
    return make_player("alice")


@pytest.fixture
def bob(make_player):
    return make_player("bob")


@pytest.fixture
def carol(make_player):
    return make_player("carol")


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker):
    """The Procfile's web server (tests/live_server.py) on a free port against the test database,
    one per test module; a module that needs another kind defines its own."""
    from tests.live_server import Server

    with django_db_blocker.unblock():
        web = Server().start()
    yield web
    web.stop()


@pytest.fixture
def anonymous(db):
    return APIClient()


def start_game(creator: Player, others, kind="duel", options=None, seats=None) -> str:
    body = {"kind": kind, "options": options or {}}
    if seats is not None:
        body["seats"] = seats
    response = creator.post("/api/v1/games/", body)
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    for other in others:
        joined = other.post(f"/api/v1/games/{game_id}/join/")
        assert joined.status_code == 200, joined.content
    started = creator.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    return game_id


@pytest.fixture
def duel(alice, bob):
    """An active Duel between alice (seat 0) and bob (seat 1)."""
    return start_game(alice, [bob])


from tests.queued import queue  # noqa: F401  (the fixture: the run's own Celery queue, emptied around a test)
