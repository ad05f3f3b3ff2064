"""The default throttles (config/throttling.py): a fixed window per caller, one Redis round trip."""

import pytest
from django.core.cache import cache
from django_redis import get_redis_connection

from config.throttling import AnonWindowThrottle, UserWindowThrottle


@pytest.fixture
def three_a_minute(monkeypatch):
    cache.clear()
    monkeypatch.setattr(UserWindowThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "2/min"})
    monkeypatch.setattr(AnonWindowThrottle, "THROTTLE_RATES", {"user": "3/min", "anon": "2/min"})
    yield
    cache.clear()


def test_a_user_past_the_rate_is_told_to_wait_until_the_window_ends(alice, three_a_minute):
    answers = [alice.get("/api/v1/games/") for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[3].json()["code"] == "throttled"
    assert 1 <= int(answers[3]["Retry-After"]) <= 60


def test_each_user_has_a_window_of_their_own(alice, bob, three_a_minute):
    for _ in range(3):
        alice.get("/api/v1/games/")
    assert alice.get("/api/v1/games/").status_code == 429
    assert bob.get("/api/v1/games/").status_code == 200


def test_anonymous_callers_get_the_anonymous_rate(anonymous, three_a_minute):
    answers = [anonymous.get("/api/v1/kinds/").status_code for _ in range(3)]
    assert answers == [200, 200, 429]


def test_a_refused_request_still_counts_and_the_window_expires_on_its_own(alice, three_a_minute):
    for _ in range(5):
        alice.get("/api/v1/games/")
    key = cache.make_and_validate_key(f"throttle_user_{alice.user.pk}")
    client = get_redis_connection("default")
    assert int(client.get(key)) == 5
    assert 0 < client.ttl(key) <= 60  # never a key without expiry, whatever happened to the first
