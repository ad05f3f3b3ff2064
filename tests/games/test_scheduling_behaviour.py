"""What reaches the worker's queue, and when (games.play.scheduling), pinned one by one (mutation testing
found it unstated): a claim's lifetime and Redis down, a task that cannot be sent, a game's wake
time and its slice, wakes near enough, after commit only, and deliveries: each webhook its own
task, one email task per user and digest slot, none past the horizon, resends deduplicated."""

import logging
import socket
import uuid
from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.conf import settings
from django.utils import timezone

from games.play import scheduling
from games.realtime import channels
from games.models import Game

SETTLE, EMAIL, WEBHOOK = "games.tasks.settle_due", "games.tasks.deliver_email", "games.tasks.deliver_webhook"
HORIZON = timedelta(seconds=settings.TIMER_MAX_ETA_SECONDS)


@pytest.fixture
def redis_down(settings):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"  # nothing listens there: refused at once


def fresh_key():
    return f"test:{uuid.uuid4().hex}"


def lasts(key, seconds):
    """The claim on `key` was taken for `seconds` (its time left read in milliseconds, so a
    loaded machine's delay between taking and reading it is allowed up to a second)."""
    left = channels.client().pttl(channels.key("once", key))
    return seconds * 1000 - 1000 < left <= seconds * 1000


def test_a_claim_holds_for_its_ttl_rounded_up_and_is_the_callers_only():
    first, other = fresh_key(), fresh_key()
    assert scheduling.once(first, 1.5) is True
    assert scheduling.once(first, 1.5) is False
    assert scheduling.once(other, 1.5) is True  # another key: its own claim
    assert lasts(first, 2) and lasts(other, 2)
    short, long = fresh_key(), fresh_key()
    scheduling.once(short, 0.2)
    scheduling.once(long, 60)
    assert lasts(short, 1) and lasts(long, 61)  # at least a second; never less than asked


def test_with_redis_down_every_claim_is_granted(redis_down):
    key = fresh_key()
    assert scheduling.once(key, 10) is True
    assert scheduling.once(key, 10) is True  # a duplicate task is harmless; a lost one is not


def test_a_task_is_sent_by_name_with_its_arguments_and_time(queue):
    at = datetime(2030, 1, 2, 3, 4, 5, 600000, tzinfo=UTC)
    assert scheduling.send(EMAIL, [41], eta=at) is True
    assert scheduling.send(SETTLE, []) is True
    assert queue() == sorted([(EMAIL, [41], at), (SETTLE, [], None)], key=repr)


def test_a_task_that_cannot_be_sent_is_logged_and_reported(queue, caplog):
    with caplog.at_level(logging.WARNING, logger="config.scheduling"):
        assert scheduling.send(WEBHOOK, [object()]) is False  # cannot be encoded: never sent
    assert queue() == []
    (record,) = caplog.records
    assert record.getMessage().startswith(f"could not send task {WEBHOOK}[<object object at ")
    assert isinstance(record.exc_info[1], Exception)  # with the error's traceback


def test_a_games_wake_is_its_earliest_time():
    early, late = timezone.now(), timezone.now() + timedelta(hours=1)
    assert scheduling.wake_at(Game(next_deadline=late, next_reminder=early)) == early
    assert scheduling.wake_at(Game(next_deadline=early, next_reminder=late)) == early
    assert scheduling.wake_at(Game(next_deadline=None, next_reminder=late)) == late
    assert scheduling.wake_at(Game(next_deadline=late, next_reminder=None)) == late
    assert scheduling.wake_at(Game(next_deadline=None, next_reminder=None)) is None


def test_a_slice_ends_at_the_next_tenth_of_a_second_in_utc():
    def at(micro, second=0):
        return datetime(2030, 1, 2, 3, 4, second, micro, tzinfo=UTC)

    assert scheduling.bucket(at(1)) == at(100000)
    assert scheduling.bucket(at(50000)) == at(100000)
    assert scheduling.bucket(at(100000)) == at(100000)  # on the boundary: itself
    assert scheduling.bucket(at(900001)) == at(0, second=1)
    assert scheduling.bucket(at(1)).tzinfo == UTC
    local = datetime(2030, 1, 2, 4, 4, 0, 50000, tzinfo=dt_timezone(timedelta(hours=1)))
    assert scheduling.bucket(local) == at(100000)


def test_a_wake_is_sent_per_slice_near_enough_for_its_end(queue):
    now = timezone.now()
    # Odd offsets: the claims live in the Redis every test run shares.
    near = scheduling.bucket(now + timedelta(seconds=237.3))
    later = scheduling.bucket(now + timedelta(seconds=411.7))
    times = [near, near - timedelta(seconds=0.05), None, later, now + HORIZON + timedelta(seconds=5)]
    assert scheduling.wake(times) == 2
    assert queue() == sorted([(SETTLE, [], near), (SETTLE, [], later)], key=repr)
    # Each wake is claimed for the horizon and a minute more: a second sender sends none.
    assert lasts(f"wake:{near.timestamp():.1f}", settings.TIMER_MAX_ETA_SECONDS + 61)
    assert scheduling.wake([near, later]) == 0
    assert scheduling.wake([None]) == 0
    assert queue() == []


def test_wakes_are_scheduled_after_commit_and_only_for_games_with_a_time(db, queue, django_capture_on_commit_callbacks):
    soon = scheduling.bucket(timezone.now() + timedelta(seconds=251.3))
    other = scheduling.bucket(timezone.now() + timedelta(seconds=433.9))
    with django_capture_on_commit_callbacks() as callbacks:
        scheduling.schedule_wakes([Game(), Game(next_deadline=None, next_reminder=None)])
    assert callbacks == []
    with django_capture_on_commit_callbacks() as callbacks:
        scheduling.schedule_wakes([Game(), Game(next_deadline=other, next_reminder=soon)])
        scheduling.schedule_wake(Game(next_deadline=other))
    assert queue() == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert queue() == sorted([(SETTLE, [], soon), (SETTLE, [], other)], key=repr)


def outgoing(delivery_id, channel, user_id, attempts=0, at=None):
    return scheduling.Outgoing(delivery_id, channel, user_id, attempts, at or timezone.now())


def test_each_webhook_delivery_is_its_own_task_at_its_time(queue):
    at = timezone.now() + timedelta(seconds=5)
    scheduling.enqueue_delivery(outgoing(7001, "webhook", 1, at=at))
    scheduling.enqueue_delivery(outgoing(7002, "webhook", 1, at=at))
    scheduling.enqueue_delivery(outgoing(7001, "webhook", 1, at=at))  # no deduplication asked: sent again
    assert queue() == sorted([(WEBHOOK, [7001], at), (WEBHOOK, [7001], at), (WEBHOOK, [7002], at)], key=repr)


def test_one_email_task_per_user_and_digest_slot(queue):
    slot, next_slot = timezone.now() + timedelta(seconds=3), timezone.now() + timedelta(seconds=300)
    user, other = 10_000_000 + uuid.uuid4().int % 10_000_000, 30_000_000 + uuid.uuid4().int % 10_000_000
    for delivery_id, user_id, at in [(1, user, slot), (2, user, slot), (3, other, slot), (4, user, next_slot)]:
        scheduling.enqueue_delivery(outgoing(delivery_id, "email", user_id, at=at))
    assert queue() == sorted([(EMAIL, [user], slot), (EMAIL, [other], slot), (EMAIL, [user], next_slot)], key=repr)
    assert lasts(f"email:{user}:{slot.timestamp():.3f}", 61)


def test_a_delivery_past_the_horizon_is_left_to_the_sweeper(queue):
    far = timezone.now() + HORIZON + timedelta(seconds=30)
    scheduling.enqueue_delivery(outgoing(7101, "webhook", 1, at=far))
    scheduling.enqueue_delivery(outgoing(7102, "email", 1, at=far))
    assert queue() == []


def test_a_resend_is_deduplicated_per_delivery_and_attempt(queue):
    base = 8_000_000 + uuid.uuid4().int % 1_000_000
    at = timezone.now()
    for delivery_id, attempts in [(base, 0), (base, 0), (base, 1), (base + 1, 0)]:
        scheduling.enqueue_delivery(outgoing(delivery_id, "webhook", 1, attempts, at), dedupe_seconds=60)
    assert queue() == sorted([(WEBHOOK, [base], at), (WEBHOOK, [base], at), (WEBHOOK, [base + 1], at)], key=repr)
    assert lasts(f"delivery:{base}:0", 61)


def test_deliveries_are_queued_after_commit_and_none_means_no_callback(db, queue, django_capture_on_commit_callbacks):
    at = timezone.now()
    with django_capture_on_commit_callbacks() as callbacks:
        scheduling.deliver_after_commit([])
    assert callbacks == []
    with django_capture_on_commit_callbacks() as callbacks:
        scheduling.deliver_after_commit([outgoing(7201, "webhook", 1, at=at), outgoing(7202, "webhook", 1, at=at)])
    assert queue() == []
    for callback in callbacks:
        callback()
    assert queue() == sorted([(WEBHOOK, [7201], at), (WEBHOOK, [7202], at)], key=repr)
