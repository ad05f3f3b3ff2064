"""Times that behave in every zone (docs/time-and-notifications.md, "Quiet hours"), on a pinned
clock: quiet hours end at the next instant the player's wall clock reads their end, through the
hour the clocks go back (read twice), the hour they skip, zones whose change is not an hour (Lord
Howe's half hour, Troll's two), a change at midnight (Havana), a day that never was (Apia, 30
December 2011) and a negative summer time (Dublin). A push put off by quiet hours is never put off
to a moment already past, which would send it round again at once. Reminders and digests count
real time, so a change of the clocks neither stretches nor shrinks them."""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

import pytest
from django.db import connection, transaction

from games.notifications import notify, push
from games.play import clocks

UTC = timezone.utc


def test_in_the_hour_the_clocks_go_back_quiet_hours_end_ahead_not_behind():
    # Paris, 26 October 2025: 03:00 CEST becomes 02:00 CET at 01:00 UTC; 02:00-03:00 is read twice.
    # Quiet 01:00-02:30. At 01:10 UTC the wall clock reads 02:10 for the second time: the next
    # 02:30 it reads is 01:30 UTC (not 00:30 UTC, the first 02:30, already past).
    assert push.quiet_until(
        time(1), time(2, 30), "Europe/Paris", datetime(2025, 10, 26, 1, 10, tzinfo=UTC)
    ) == datetime(2025, 10, 26, 1, 30, tzinfo=UTC)
    # The first time through, 02:10 CEST, the first 02:30 is next.
    assert push.quiet_until(
        time(1), time(2, 30), "Europe/Paris", datetime(2025, 10, 26, 0, 10, tzinfo=UTC)
    ) == datetime(2025, 10, 26, 0, 30, tzinfo=UTC)
    # New York the same way, 2 November 2025 (01:00-02:00 read twice).
    assert push.quiet_until(
        time(0, 30), time(1, 30), "America/New_York", datetime(2025, 11, 2, 6, 5, tzinfo=UTC)
    ) == datetime(2025, 11, 2, 6, 30, tzinfo=UTC)


def test_in_the_hour_the_clocks_skip_quiet_hours_end_as_the_clock_moves_on():
    # Paris, 30 March 2025: 02:00 CET becomes 03:00 CEST at 01:00 UTC. An end at 02:30, which
    # never shows, counts from the hour before: 01:30 UTC (03:30 on the wall).
    assert push.quiet_until(time(1), time(2, 30), "Europe/Paris", datetime(2025, 3, 30, 0, 45, tzinfo=UTC)) == datetime(
        2025, 3, 30, 1, 30, tzinfo=UTC
    )
    assert push.quiet_until(time(23), time(7), "Europe/Paris", datetime(2026, 3, 28, 22, 30, tzinfo=UTC)) == datetime(
        2026, 3, 29, 5, tzinfo=UTC
    )


ZONES = [
    "Europe/Paris",
    "America/New_York",
    "Australia/Lord_Howe",
    "Antarctica/Troll",
    "America/Havana",
    "Pacific/Apia",
    "Europe/Dublin",
    "America/Santiago",
    "Asia/Kathmandu",
    "Africa/Casablanca",
    "UTC",
]
WINDOWS = [
    (time(1), time(2, 30)),
    (time(2), time(3)),
    (time(22), time(7)),
    (time(0), time(1)),
    (time(23, 30), time(0, 30)),
    (time(2, 15), time(2, 45)),
    (time(0), time(23, 59)),
]
CHANGES = [
    datetime(2025, 10, 26),
    datetime(2025, 3, 30),
    datetime(2025, 11, 2),
    datetime(2025, 3, 9),
    datetime(2025, 4, 6),
    datetime(2025, 10, 5),
    datetime(2011, 12, 30),
    datetime(2025, 3, 8),
    datetime(2025, 4, 5),
    datetime(2025, 9, 6),
    datetime(2025, 3, 23),
]


@pytest.mark.parametrize("zone", ZONES)
def test_quiet_hours_never_end_in_the_past_in_any_zone(zone):
    """Every 11 minutes through two days around each change of the clocks: quiet hours either do
    not hold, or end after now and within a day and the longest change of the clocks."""
    for change in CHANGES:
        for step in range(0, 48 * 60, 11):
            now = change.replace(tzinfo=UTC) - timedelta(hours=24) + timedelta(minutes=step)
            for start, end in WINDOWS:
                until = push.quiet_until(start, end, zone, now)
                assert until is None or now < until <= now + timedelta(hours=26), (zone, now, start, end, until)


def test_a_reminder_comes_when_the_share_of_real_time_is_left_across_a_change():
    since = datetime(2025, 10, 25, 23, 0, tzinfo=UTC)  # 01:00 in Paris, an hour before the change
    seat = {"left": 4 * 3600.0, "since": since.isoformat(), "allowance": 4 * 3600.0, "reminded": False}
    times = clocks.reminder_times({"control": "per_move", "seats": {"0": seat}}, 0.25)
    # Three real hours after `since` (a quarter of four left), whatever the wall clock read.
    assert times == {0: since + timedelta(hours=3)}


@pytest.mark.django_db
def test_a_digest_is_due_its_period_of_real_time_later_across_a_change(alice):
    from accounts.models import NotificationPreference

    now = datetime(2025, 10, 26, 0, 30, tzinfo=UTC)  # 02:30 CEST; at 01:00 UTC Paris goes back
    NotificationPreference.objects.update_or_create(user=alice.user, defaults={"email_digest_minutes": 60})
    sql, params = notify.digest_slots_sql({alice.user.pk}, now)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL TIME ZONE 'Europe/Paris'")  # the database's zone is none of its business
        cursor.execute(f"WITH {sql} SELECT extract(epoch FROM email_digest_at) FROM slots", params)
        (due,) = cursor.fetchone()
    assert float(due) == (now + timedelta(hours=1)).timestamp()
