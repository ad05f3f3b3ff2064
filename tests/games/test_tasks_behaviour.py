"""The worker's tasks, pinned one by one (mutation testing found them unstated): what the sweeper
settles, wakes and resends, and reports; a webhook's payload, its success and its backoff; the
email task's window, digest, record and retry; a game's own wake."""

import json
import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from accounts.models import NotificationPreference, Webhook
from games import tasks
from games.notifications import notify
from games.play import scheduling
from games.models import Delivery, DeliveryAttempt, Event, Game, Notification
from tests.conftest import start_game
from tests.games.test_outbox_recovery import closed_port
from tests.games.test_webhooks import Receiver, register
from tests.games.timetravel import rewind

SETTLE, EMAIL, WEBHOOK = "games.tasks.settle_due", "games.tasks.deliver_email", "games.tasks.deliver_webhook"


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def timed(creator, other, seconds=60):
    return start_game(creator, [other], options={"time_control": "per_move", "move_seconds": seconds})


def quiet_start(alice, bob, email_digest_minutes=None):
    """A duel whose start told nobody anything yet (no notices, no digest opened)."""
    game = Game.objects.get(pk=start_game(alice, [bob]))
    Notification.objects.all().delete()
    Delivery.objects.all().delete()
    NotificationPreference.objects.update(email_digest_at=None)
    if email_digest_minutes is not None:
        response = bob.client.put(
            "/api/v1/accounts/preferences/", {"email_digest_minutes": email_digest_minutes}, format="json"
        )
        assert response.status_code == 200
    return game


# ---------------------------------------------------------------------------------------------
# The sweeper, a game's wake, the shared wake
# ---------------------------------------------------------------------------------------------
def test_the_sweeper_settles_wakes_what_falls_due_before_its_next_run_and_resends(make_player, queue):
    players = [make_player() for _ in range(10)]
    due, soon, reminded, later, over = [timed(players[i], players[i + 1]) for i in range(0, 10, 2)]
    rewind(due, 61)  # past its deadline: settled now
    now = timezone.now()
    soon_at, reminder_at = now + timedelta(seconds=7.3), now + timedelta(seconds=9.1)
    Game.objects.filter(pk=soon).update(next_deadline=soon_at, next_reminder=None)
    Game.objects.filter(pk=reminded).update(next_deadline=now + timedelta(hours=1), next_reminder=reminder_at)
    Game.objects.filter(pk=later).update(next_deadline=now + timedelta(seconds=15), next_reminder=None)  # after 2 runs
    Game.objects.filter(pk=over).update(status=Game.Status.FINISHED, next_deadline=soon_at)
    Delivery.objects.all().delete()
    note = Notification.objects.create(
        user=players[0].user, type="chat", title="t", data={}, created_at=now, updated_at=now
    )
    # Ids of their own: resends are deduplicated by delivery id in the Redis every test run shares.
    ids = iter(range(1_000_000_000 + uuid.uuid4().int % 1_000_000_000, 2_100_000_000))

    def delivery(channel, seconds, **fields):
        return Delivery.objects.create(
            pk=next(ids), notification=note, channel=channel, next_attempt_at=now + timedelta(seconds=seconds), **fields
        )

    pending = [delivery("webhook", -5), delivery("webhook", -1, attempts=2)]
    delivery("webhook", 30)  # not due yet
    delivery("webhook", 0, status=Delivery.Status.SENT)  # sent
    email = delivery("email", -2)
    queue()
    counts = tasks.sweep()
    assert counts == {"games": 1, "expired": 2, "reminded": 0, "scheduled": 2, "deliveries": 3}
    assert Event.objects.filter(game_id=due, type="TimerExpired").count() == 1
    assert queue() == sorted(
        [
            (SETTLE, [], scheduling.bucket(soon_at)),
            (SETTLE, [], scheduling.bucket(reminder_at)),
            *[(WEBHOOK, [d.pk], d.next_attempt_at) for d in pending],
            (EMAIL, [players[0].user.pk], email.next_attempt_at),
        ],
        key=repr,
    )
    # Swept again at once: the resends and the wakes are deduplicated; still counted as found.
    assert tasks.sweep() == {"games": 0, "expired": 0, "reminded": 0, "scheduled": 0, "deliveries": 3}
    assert queue() == []


def test_the_shared_wake_settles_every_due_game(make_player):
    games = [timed(make_player(), make_player()) for _ in range(2)]
    for game_id in games:
        rewind(game_id, 61)
    assert tasks.settle_due() == {"games": 2, "expired": 4, "reminded": 0}


def test_a_games_own_wake_reminds_then_expires_at_its_version(alice, bob):
    game_id = timed(alice, bob, seconds=1000)
    game = rewind(game_id, 801)  # a fifth of the time left: a reminder, no expiry
    tasks.wake_game(game_id, game.version)
    assert Notification.objects.filter(user=alice.user, type="reminder").count() == 1
    assert not Event.objects.filter(game_id=game_id, type="TimerExpired").exists()
    rewind(game_id, 200)
    tasks.wake_game(game_id, game.version - 1)  # scheduled for an older version: nothing
    assert not Event.objects.filter(game_id=game_id, type="TimerExpired").exists()
    tasks.wake_game(game_id, game.version)
    assert Event.objects.filter(game_id=game_id, type="TimerExpired").count() == 1


# ---------------------------------------------------------------------------------------------
# Webhooks
# ---------------------------------------------------------------------------------------------
def webhook_for_bob(alice, bob, url):
    hook = register(bob, url)
    game = quiet_start(alice, bob)
    (note,) = notify.send([bob.user.pk], game, "finished", {"result": {"winners": [1]}}, seq=4)
    return hook, note, Delivery.objects.get(channel="webhook")


class SlowReceiver(Receiver):
    """Answers after `delay` seconds."""

    def __init__(self, delay):
        super().__init__()
        handler = self.server.RequestHandlerClass
        original = handler.do_POST

        def do_POST(request_handler):
            time.sleep(delay)
            original(request_handler)

        handler.do_POST = do_POST


def test_a_webhook_carries_the_notice_and_is_recorded_as_sent(alice, bob):
    receiver = SlowReceiver(0.1)
    try:
        _, note, delivery = webhook_for_bob(alice, bob, receiver.url)
        before = timezone.now()
        tasks.deliver_webhook(delivery.pk)
        after = timezone.now()
    finally:
        receiver.close()
    ((_, body),) = receiver.requests
    assert json.loads(body) == {
        "id": note.pk,
        "delivery": delivery.pk,
        "type": "finished",
        "title": "Duel (test game) is over",
        "data": note.data,
        "created_at": note.created_at.isoformat(),
    }
    assert note.data == {"result": {"winners": [1]}, "game": str(note.game_id), "kind": "duel"}
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("sent", 1, "")
    assert before <= delivery.sent_at <= after
    attempt = delivery.attempt_log.get()
    assert (attempt.ok, attempt.status_code, attempt.error) == (True, 200, "")
    assert before <= attempt.at <= delivery.sent_at and 100 <= attempt.duration_ms < 30_000  # it answered in 0.1 s


def test_a_webhook_sent_after_a_failure_counts_both_attempts(alice, bob, receiver):
    receiver.status = 500
    _, _, delivery = webhook_for_bob(alice, bob, receiver.url)
    tasks.deliver_webhook(delivery.pk)
    receiver.status = 200
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    tasks.deliver_webhook(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    assert [(a.ok, a.status_code) for a in delivery.attempt_log.order_by("pk")] == [(False, 500), (True, 200)]


def test_a_webhook_is_sent_within_a_second_of_its_time_and_not_before(alice, bob, receiver):
    _, _, delivery = webhook_for_bob(alice, bob, receiver.url)
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now() + timedelta(seconds=1.5))
    tasks.deliver_webhook(delivery.pk)
    assert receiver.requests == [] and not DeliveryAttempt.objects.exists()
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now() + timedelta(seconds=0.5))
    tasks.deliver_webhook(delivery.pk)
    assert len(receiver.requests) == 1
    tasks.deliver_webhook(delivery.pk)  # sent: not again
    tasks.deliver_webhook(delivery.pk + 1000)  # no such delivery
    assert len(receiver.requests) == 1


def test_a_failed_webhook_is_rescheduled_after_commit_with_backoff_then_given_up(
    alice, bob, receiver, queue, django_capture_on_commit_callbacks
):
    receiver.status = 503
    _, _, delivery = webhook_for_bob(alice, bob, receiver.url)
    queue()
    for attempt in (1, 2):
        with django_capture_on_commit_callbacks() as callbacks:
            tasks.deliver_webhook(delivery.pk)
        delivery.refresh_from_db()
        last = delivery.attempt_log.order_by("pk").last()
        assert (delivery.status, delivery.attempts, delivery.last_error) == ("pending", attempt, "HTTP 503")
        assert (last.ok, last.status_code, last.error) == (False, 503, "HTTP 503")
        # WEBHOOK_RETRY_BASE_SECONDS is 0.3 in the tests: 0.3 s, then 0.6 s after the attempt.
        assert delivery.next_attempt_at - last.at == timedelta(seconds=0.3 * 2 ** (attempt - 1))
        assert queue() == []  # not before the commit
        for callback in callbacks:
            callback()
        assert queue() == [(WEBHOOK, [delivery.pk], delivery.next_attempt_at)]
        Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        tasks.deliver_webhook(delivery.pk)  # the third of WEBHOOK_MAX_ATTEMPTS (3 in the tests)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 3)
    assert queue() == []


# ---------------------------------------------------------------------------------------------
# Email
# ---------------------------------------------------------------------------------------------
def test_an_email_digest_lists_the_due_notices_in_order_and_records_each(alice, bob, carol):
    game = quiet_start(alice, bob, email_digest_minutes=0)
    first = notify.send([bob.user.pk], game, "finished", {"result": None}, seq=5)[0]
    second = notify.send([bob.user.pk], game, "timed_out", {"seat": 0}, who="alice")[0]
    Notification.objects.filter(pk=first.pk).update(created_at=second.created_at + timedelta(seconds=1))
    notify.send([carol.user.pk], game, "finished", {"result": None})  # carol's: not in bob's email
    Delivery.objects.filter(notification__user=carol.user).update(next_attempt_at=timezone.now())
    later = notify.send([alice.user.pk], game, "finished", {"result": None})[0]  # not bob's either
    now = timezone.now()
    hook = Delivery.objects.create(notification=first, channel="webhook", next_attempt_at=now)  # not an email
    old = notify.send([bob.user.pk], game, "dispute", {}, what="A dispute was raised")[0]
    Delivery.objects.filter(notification=old).update(status="sent", attempts=1)  # sent before: not again
    before = timezone.now()
    tasks.deliver_email(bob.user.pk)
    (message,) = mail.outbox
    assert (message.subject, message.to) == ("Darkroom: 2 updates", ["bob@example.com"])
    assert message.body == "- alice ran out of time in Duel (test game)\n- Duel (test game) is over"
    assert message.from_email == settings.DEFAULT_FROM_EMAIL
    hook.refresh_from_db()
    assert (hook.status, hook.attempts) == ("pending", 0)
    bobs = list(Delivery.objects.filter(notification__in=[first, second], channel="email").order_by("pk"))
    assert [(d.status, d.attempts) for d in bobs] == [("sent", 1), ("sent", 1)]
    assert bobs[0].sent_at == bobs[1].sent_at and bobs[0].sent_at >= before
    assert sorted(DeliveryAttempt.objects.values_list("delivery_id", "ok", "at")) == [
        (d.pk, True, d.sent_at) for d in bobs
    ]
    assert Delivery.objects.get(notification=later).status == "pending"
    assert Delivery.objects.get(notification__user=carol.user).status == "pending"


def test_an_email_is_sent_within_a_second_of_its_slot_and_not_before(alice, bob):
    game = quiet_start(alice, bob, email_digest_minutes=0)
    notify.send([bob.user.pk], game, "finished", {"result": None})
    Delivery.objects.update(next_attempt_at=timezone.now() + timedelta(seconds=1.5))
    tasks.deliver_email(bob.user.pk)
    assert mail.outbox == []
    Delivery.objects.update(next_attempt_at=timezone.now() + timedelta(seconds=0.5))
    tasks.deliver_email(bob.user.pk)
    assert [m.subject for m in mail.outbox] == ["Duel (test game) is over"]
    assert mail.outbox[0].body == "- Duel (test game) is over"


def test_a_mail_server_failure_retries_each_notice_after_commit(alice, bob, queue, django_capture_on_commit_callbacks):
    game = quiet_start(alice, bob, email_digest_minutes=0)
    for kind in ("finished", "dispute"):
        notify.send([bob.user.pk], game, kind, {}, what="A dispute was raised")
    queue()
    before = timezone.now()
    broken = override_settings(
        EMAIL_BACKEND="accounts.mail.SMTPBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=closed_port(), EMAIL_TIMEOUT=2
    )
    with django_capture_on_commit_callbacks() as callbacks, broken:
        tasks.deliver_email(bob.user.pk)
    after = timezone.now()
    bobs = list(Delivery.objects.order_by("pk"))
    assert [(d.status, d.attempts, d.last_error) for d in bobs] == [
        ("pending", 1, "[Errno 111] Connection refused")
    ] * 2
    assert bobs[0].next_attempt_at == bobs[1].next_attempt_at
    assert before + timedelta(seconds=0.3) <= bobs[0].next_attempt_at <= after + timedelta(seconds=0.3)
    assert not DeliveryAttempt.objects.exists()
    assert queue() == []
    for callback in callbacks:
        callback()
    assert queue() == [(EMAIL, [bob.user.pk], bobs[0].next_attempt_at)]  # one task for the user's slot


@pytest.mark.django_db(transaction=True)
def test_a_delivery_another_worker_holds_is_skipped_not_waited_for(alice, bob):
    """Two workers on one delivery (a task and the sweeper's resend): the second goes on at once."""
    game = quiet_start(alice, bob, email_digest_minutes=0)
    Webhook.objects.create(user=bob.user, url="http://127.0.0.1:9/hook", secret="s")
    notify.send([bob.user.pk], game, "finished", {"result": None})
    email, webhook = Delivery.objects.get(channel="email"), Delivery.objects.get(channel="webhook")
    held, release = threading.Event(), threading.Event()

    def holder():  # another worker, in the middle of sending both
        try:
            with transaction.atomic():
                list(Delivery.objects.select_for_update().filter(pk__in=[email.pk, webhook.pk]))
                held.set()
                release.wait(30)
        finally:
            connection.close()

    def worker():
        try:
            tasks.deliver_webhook(webhook.pk)
            tasks.deliver_email(bob.user.pk)
        finally:
            connection.close()

    holding = threading.Thread(target=holder)
    holding.start()
    try:
        assert held.wait(10)
        second = threading.Thread(target=worker)
        second.start()
        second.join(5)
        finished = not second.is_alive()
    finally:
        release.set()
        holding.join(30)
    second.join(30)
    assert finished  # it did not wait for the lock
    assert mail.outbox == [] and not DeliveryAttempt.objects.exists()
