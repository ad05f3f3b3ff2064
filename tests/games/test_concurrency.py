"""Optimistic concurrency on real PostgreSQL: racing writers, exactly one wins."""

import threading

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


def race(n, request):
    """Start n threads together; each runs request(i) and returns (status, code)."""
    barrier, results = threading.Barrier(n), [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = request(i)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def client_for(player):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    return client


def test_n_racing_moves_on_one_version_exactly_one_wins(alice, duel):
    game = alice.game(duel)
    version, hand = game["version"], game["state"]["hand"]
    n = 8

    def post(i):
        response = client_for(alice).post(
            f"/api/v1/games/{duel}/moves/",
            {"move": {"type": "play", "card": hand[i % len(hand)]}, "expected_version": version},
            format="json",
        )
        return response.status_code, response.json().get("code")

    results = race(n, post)
    assert sorted(status for status, _ in results) == [201] + [409] * (n - 1)
    assert {code for status, code in results if status == 409} == {"version_conflict"}
    assert Event.objects.filter(game_id=duel).count() == version + 1


def test_racing_retries_with_one_idempotency_key_write_once(alice, duel):
    game = alice.game(duel)
    body = {"move": {"type": "play", "card": game["state"]["hand"][0]}, "expected_version": game["version"]}

    def post(i):
        response = client_for(alice).post(
            f"/api/v1/games/{duel}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY="same-key"
        )
        return response.status_code, response.json().get("version")

    results = race(6, post)
    assert set(results) == {(201, game["version"] + 1)}
    assert Event.objects.filter(game_id=duel).count() == game["version"] + 1


def test_racing_joins_never_overfill_a_game(alice, make_player):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    others = [make_player() for _ in range(5)]

    def join(i):
        return client_for(others[i]).post(f"/api/v1/games/{game_id}/join/", format="json").status_code, None

    results = race(5, join)
    assert sorted(status for status, _ in results) == [200] + [409] * 4
    assert len(alice.game(game_id)["players"]) == 2
