"""Push under abuse (docs/time-and-notifications.md): the per-player limits hold whoever held an
endpoint before, an endpoint moves to another account only with its browser's own keys, errors
name a push endpoint, and quiet hours keep to what is shown (minutes, places' zones)."""

from __future__ import annotations

import pytest

from accounts.models import NotificationPreference, PushDevice, PushSubscription
from tests.api.test_errors import error_of
from tests.games.test_push import Browser

pytestmark = pytest.mark.django_db
ENDPOINT = "http://127.0.0.1:9/push/{}"


def register(player, endpoint, browser):
    return player.post(
        "/api/v1/push/subscriptions/", {"endpoint": endpoint, "keys": {"p256dh": browser.p256dh, "auth": browser.auth}}
    )


def test_taking_over_an_endpoint_respects_the_new_owner_s_limit(alice, bob, settings):
    settings.PUSH_MAX_PER_USER = 2
    browsers = [Browser() for _ in range(3)]
    for n in range(2):
        assert register(alice, ENDPOINT.format(f"a{n}"), browsers[n]).status_code == 201
    assert register(bob, ENDPOINT.format("b"), browsers[2]).status_code == 201
    # Alice is at her limit: bob's browser, even with its own keys, is not added to her account.
    error_of(register(alice, ENDPOINT.format("b"), browsers[2]), 400, "invalid")
    assert PushSubscription.objects.get(endpoint=ENDPOINT.format("b")).user == bob.user
    assert PushSubscription.objects.filter(user=alice.user).count() == 2


def test_an_endpoint_moves_to_another_account_only_with_its_browser_s_keys(alice, bob):
    browser = Browser()
    assert register(bob, ENDPOINT.format("b"), browser).status_code == 201
    body = error_of(register(alice, ENDPOINT.format("b"), Browser()), 409, "push_endpoint_taken")
    assert "another account" in body["detail"]
    assert PushSubscription.objects.get(endpoint=ENDPOINT.format("b")).user == bob.user
    # The browser itself, logged in to alice now, sends its own keys: the endpoint is hers.
    moved = register(alice, ENDPOINT.format("b"), browser)
    assert moved.status_code == 200, moved.content
    assert PushSubscription.objects.get(endpoint=ENDPOINT.format("b")).user == alice.user


def test_taking_over_a_device_respects_the_new_owner_s_limit(alice, bob, settings):
    settings.PUSH_MAX_PER_USER = 1
    assert alice.post("/api/v1/push/devices/", {"platform": "fcm", "token": "a" * 40}).status_code == 201
    assert bob.post("/api/v1/push/devices/", {"platform": "fcm", "token": "b" * 40}).status_code == 201
    error_of(alice.post("/api/v1/push/devices/", {"platform": "fcm", "token": "b" * 40}), 400, "invalid")
    assert PushDevice.objects.get(token="b" * 40).user == bob.user


def test_a_refused_push_endpoint_is_called_a_push_endpoint(alice, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    for endpoint in ("http://nowhere.invalid/x", "http://10.1.2.3/x"):
        body = error_of(register(alice, endpoint, Browser()), 400, "invalid")
        assert "push endpoint" in body["detail"] and "webhook" not in body["detail"], body


def test_quiet_hours_are_minutes_as_shown(alice):
    answer = alice.client.put(
        "/api/v1/accounts/preferences/",
        {"quiet_hours": {"start": "01:00:00.999999", "end": "01:00:00.999998", "tz": "Europe/Paris"}},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["quiet_hours"] == {"start": "01:00", "end": "01:00", "tz": "Europe/Paris"}
    prefs = NotificationPreference.objects.get(user=alice.user)
    # As shown: equal start and end, so no quiet time at all (not a day less a microsecond).
    assert prefs.quiet_start == prefs.quiet_end


@pytest.mark.parametrize("zone", ["localtime", "Factory", "posixrules", "posix/Europe/Paris", "right/UTC"])
def test_quiet_hours_are_kept_in_a_place_s_zone(alice, zone):
    answer = alice.client.put(
        "/api/v1/accounts/preferences/", {"quiet_hours": {"start": "22:00", "end": "07:00", "tz": zone}}, format="json"
    )
    error_of(answer, 400, "invalid")
    assert NotificationPreference.objects.filter(user=alice.user, quiet_start__isnull=False).count() == 0


# ---------------------------------------------------------------------------------------------
# The push worker's fair share (games/notifications/push_share.py), on the real Redis
# ---------------------------------------------------------------------------------------------
def test_a_player_has_one_delivery_in_flight_and_slow_players_share_one_lane(settings):
    from games.notifications import push_share

    settings.PUSH_DEADLINE_SECONDS = 5
    slow, slower, other = 10**9 + 11, 10**9 + 12, 10**9 + 13
    try:
        first = push_share.admit(slow, 15)
        assert isinstance(first, push_share.Pass)
        # The same player's next delivery waits for the one in flight: about its lease.
        assert 10 < push_share.admit(slow, 15) <= 16
        push_share.release(first)
        push_share.charge(slow, 5.0)  # its last attempt hung for the whole deadline
        push_share.charge(slower, 5.0)
        lane = push_share.admit(slow, 15)
        assert isinstance(lane, push_share.Pass) and len(lane.keys) == 2  # its own slot and the lane
        # Another slow player waits for the lane; a player who is not slow goes at once.
        assert push_share.admit(slower, 15) > 10
        assert isinstance(push_share.admit(other, 15), push_share.Pass)
        push_share.release(lane)
        assert isinstance(push_share.admit(slower, 15), push_share.Pass)
    finally:
        push_share.client().delete(
            push_share._slow_key(), push_share._used_key(), *[push_share._busy_key(u) for u in (slow, slower, other)]
        )
