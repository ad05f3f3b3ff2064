"""Celery tasks: just another interface to the services, run after commit.

Timers: each commit schedules a wake (games.play.scheduling) at the game's next deadline or reminder if
that is within settings.TIMER_MAX_ETA_SECONDS (well under the broker's visibility timeout, past
which Redis would deliver the task again and again). A wake settles *every* game then due, in
batches (services.settle_due_games), so deadlines that fall together cost a few tasks, not one
each. Longer clocks are the sweeper's: every few seconds it settles what is due, schedules wakes
for what falls due before its next run, and resends pending deliveries. A lost task, a late one
or a restarted worker therefore never loses a timeout; a duplicated one finds nothing to do.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts import webhooks
from games.play import scheduling, services
from games.models import Delivery, DeliveryAttempt, Game, Seat

log = logging.getLogger(__name__)

# Every task's name is explicit ("games.tasks.<function>"): queued tasks, beat's schedule
# (settings.CELERY_BEAT_SCHEDULE) and games.play.scheduling name them, so moving this module
# must not rename them.


# ---------------------------------------------------------------------------------------------
# Timers
# ---------------------------------------------------------------------------------------------
@shared_task(name="games.tasks.settle_due", ignore_result=True)
def settle_due() -> dict[str, int]:
    return services.settle_due_games()


@shared_task(name="games.tasks.wake_game", ignore_result=True)
def wake_game(game_id: str, version: int) -> None:
    """One game's wake (tasks queued before wakes were shared; kept so they still run)."""
    services.expire_due(game_id, version)
    services.send_due_reminders(game_id)


@shared_task(name="games.tasks.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Settle every due game, schedule wakes for what falls due soon, resend stuck deliveries.

    Any worker may run it, and two schedulers may both send it (docs/operations.md): sweeps never
    overlap (one that finds another running returns at once) and a second one in a row finds
    nothing left to do, so two schedulers only sweep twice as often."""
    with scheduling.exclusive("sweep") as ours:
        if not ours:
            return {"skipped": 1}
        return _sweep()


def _sweep() -> dict[str, int]:
    now = timezone.now()
    counts = dict(services.settle_due_games())
    soon = now + timedelta(seconds=2 * settings.SWEEP_INTERVAL_SECONDS + 1)
    upcoming = (Game.objects.filter(status=Game.Status.ACTIVE)
                .filter(Q(next_deadline__gt=now, next_deadline__lte=soon) | Q(next_reminder__gt=now, next_reminder__lte=soon))
                .values_list("next_deadline", "next_reminder"))
    counts["scheduled"] = scheduling.wake([t for pair in upcoming for t in pair if t is not None and t > now])
    counts["deliveries"] = 0
    for item in (Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now)
                 .values_list("pk", "channel", "notification__user_id", "attempts", "next_attempt_at")[:500]):
        scheduling.enqueue_delivery(scheduling.Outgoing(*item), dedupe_seconds=60)
        counts["deliveries"] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Deliveries (their own queues: docs/operations.md)
#
# No transaction or row lock is held while waiting on a receiver or the mail server. An attempt
# is claimed in one short transaction (its count taken, its next time moved a lease ahead, so the
# sweeper resends it only if this worker dies), sent with none open, and recorded in another short
# transaction only if the claim is still this attempt's. A worker killed mid-send therefore loses
# nothing (the lease runs out and the sweeper resends it) and never records over a newer attempt.
# ---------------------------------------------------------------------------------------------
def _outgoing(delivery: Delivery, user_id: int) -> scheduling.Outgoing:
    return scheduling.Outgoing(delivery.pk, delivery.channel, user_id, delivery.attempts, delivery.next_attempt_at)


# How long past its deadline a claimed attempt is still left to its worker (to record it).
LEASE_MARGIN_SECONDS = 5


def _lease(deadline_seconds: float) -> timedelta:
    """How long a claimed attempt is left to its worker before the sweeper resends it: past its
    channel's deadline, which ends the attempt whatever the other party does, so a live attempt
    is never sent twice at once."""
    return timedelta(seconds=deadline_seconds + LEASE_MARGIN_SECONDS)


def _backoff(attempts: int) -> timedelta:
    return timedelta(seconds=settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (attempts - 1))


def _failed(delivery: Delivery, error: str, at, user_id: int) -> None:
    """The claimed attempt (already counted) failed: retry it with backoff, or give up."""
    delivery.last_error = error
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        delivery.status = Delivery.Status.FAILED
    else:
        delivery.next_attempt_at = at + _backoff(delivery.attempts)
        scheduling.deliver_after_commit([_outgoing(delivery, user_id)])
    delivery.save(update_fields=["last_error", "status", "next_attempt_at"])


def _claim(deliveries: list[Delivery], now, lease: timedelta) -> list[Delivery]:
    """Count an attempt on each of `deliveries` (row-locked by the caller) and lease them; those
    whose last attempt never came back (its worker died) and had no attempt left are failed."""
    claimed = []
    for delivery in deliveries:
        if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
            delivery.status = Delivery.Status.FAILED
            delivery.last_error = delivery.last_error or "the last attempt never finished"
            delivery.save(update_fields=["status", "last_error"])
            continue
        delivery.attempts += 1
        delivery.next_attempt_at = now + lease
        delivery.save(update_fields=["attempts", "next_attempt_at"])
        claimed.append(delivery)
    return claimed


def _still_ours(pks: list[int], attempts: dict[int, int]) -> list[Delivery]:
    """The claimed deliveries, row-locked, that no later attempt has claimed since."""
    rows = Delivery.objects.select_for_update(of=("self",)).filter(pk__in=pks, status=Delivery.Status.PENDING)
    return [d for d in rows.order_by("pk") if d.attempts == attempts[d.pk]]


@shared_task(name="games.tasks.deliver_webhook", ignore_result=True)
def deliver_webhook(delivery_id: int) -> None:
    with transaction.atomic():
        delivery = (Delivery.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("webhook", "notification")
                    .filter(pk=delivery_id, status=Delivery.Status.PENDING).first())
        now = timezone.now()
        if delivery is None or delivery.next_attempt_at > now + timedelta(seconds=1):
            return
        if not _claim([delivery], now, _lease(settings.WEBHOOK_DEADLINE_SECONDS)):
            return
        note = delivery.notification
        payload = {"id": note.pk, "delivery": delivery.pk, "type": note.type, "title": note.title,
                   "data": note.data, "created_at": note.created_at.isoformat()}
        url, secret, user_id, attempt = delivery.webhook.url, delivery.webhook.secret, note.user_id, delivery.attempts
    try:
        outcome = webhooks.post(url, secret, delivery_id, payload)
    except SoftTimeLimitExceeded:  # the queue's limit, should the deadline ever fail to cut it
        outcome = webhooks.Outcome(False, None, "the task's time limit was reached", 0)
    with transaction.atomic():
        ours = _still_ours([delivery_id], {delivery_id: attempt})
        if not ours:
            return  # its lease ran out and a later attempt took it over
        delivery = ours[0]
        DeliveryAttempt.objects.create(delivery=delivery, at=now, ok=outcome.ok, status_code=outcome.status_code,
                                       error=outcome.error, duration_ms=outcome.duration_ms)
        if outcome.ok:
            delivery.status, delivery.sent_at, delivery.last_error = Delivery.Status.SENT, timezone.now(), ""
            delivery.save(update_fields=["status", "sent_at", "last_error"])
        else:
            _failed(delivery, outcome.error, now, user_id)


@shared_task(name="games.tasks.deliver_email", ignore_result=True)
def deliver_email(user_id: int) -> None:
    """One email for every pending notice of the user that is due: a digest, or a single notice."""
    from accounts.models import User

    with transaction.atomic():
        now = timezone.now()
        due = list(Delivery.objects.select_for_update(skip_locked=True, of=("self",)).select_related("notification")
                   .filter(notification__user_id=user_id, channel="email",
                           status=Delivery.Status.PENDING, next_attempt_at__lte=now + timedelta(seconds=1))
                   .order_by("notification__created_at"))
        if not due:
            return
        user = User.objects.get(pk=user_id)
        if not user.email:
            Delivery.objects.filter(pk__in=[d.pk for d in due]).update(
                status=Delivery.Status.FAILED, last_error="no email address")
            return
        due = _claim(due, now, _lease(settings.EMAIL_DEADLINE_SECONDS))
        attempts = {d.pk: d.attempts for d in due}
        titles = [d.notification.title for d in due]
    if not due:
        return
    subject = titles[0] if len(titles) == 1 else f"Darkroom: {len(titles)} updates"
    error = ""
    try:
        send_mail(subject, "\n".join(f"- {t}" for t in titles), None, [user.email])
    except Exception as exc:  # the mail server's trouble (or the queue's soft limit): retry with backoff
        error = str(exc)[:500] or type(exc).__name__
    with transaction.atomic():
        ours = _still_ours(list(attempts), attempts)
        if error:
            for delivery in ours:
                _failed(delivery, error, now, user_id)
            return
        DeliveryAttempt.objects.bulk_create([DeliveryAttempt(delivery=d, at=now, ok=True) for d in ours])
        Delivery.objects.filter(pk__in=[d.pk for d in ours]).update(status=Delivery.Status.SENT, sent_at=now)



# -- bots (docs/bots.md): on the bots' own queue (settings.TASK_QUEUES["bots"]) ------------------
@shared_task(ignore_result=True)
def play_bot_turn(game_id: str, seat: int, version: int) -> str:
    from games.play import bot_moves

    return bot_moves.play_turn(game_id, seat, version)


@shared_task(ignore_result=True)
def fill_seats_with_bots(game_id: str, level: int) -> str:
    from games.play import bot_moves

    return bot_moves.fill_seats(game_id, level)
@shared_task(name="games.tasks.deliver_push", ignore_result=True)
def deliver_push(delivery_id: int) -> None:
    """One notice to every browser and device of its player (games/notifications/push.py).

    As a webhook: claimed in one short transaction, sent with none open, recorded in another.
    A notice read before its push was due is not pushed; one due in the player's quiet hours
    waits for their end (no attempt counted). The browsers and phones are sent to side by side,
    each within PUSH_DEADLINE_SECONDS; a subscription or device its push service says is gone
    is removed. The delivery is sent once any of them took it; it is retried with backoff only
    when none did and some failed for a reason other than being gone. A platform this
    deployment cannot send to (no VAPID keys, no APNs or FCM credentials) is left out."""
    from accounts.models import NotificationPreference, PushDevice, PushSubscription
    from games.notifications import push

    with transaction.atomic():
        delivery = (Delivery.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("notification", "notification__game")
                    .filter(pk=delivery_id, status=Delivery.Status.PENDING).first())
        now = timezone.now()
        if delivery is None or delivery.next_attempt_at > now + timedelta(seconds=1):
            return
        note, user_id = delivery.notification, delivery.notification.user_id
        if note.read_at is not None and note.read_at > note.created_at:
            _skip(delivery, "read before it was pushed")
            return
        prefs = NotificationPreference.objects.filter(user_id=user_id).first()
        until = prefs and push.quiet_until(prefs.quiet_start, prefs.quiet_end, prefs.quiet_tz, now)
        if until:
            delivery.next_attempt_at = until
            delivery.save(update_fields=["next_attempt_at"])
            scheduling.deliver_after_commit([_outgoing(delivery, user_id)])
            return
        targets = [push.WebTarget(*row) for row in PushSubscription.objects.filter(user_id=user_id).order_by("pk")
                   .values_list("pk", "endpoint", "p256dh", "auth")] if push.web_push_ready() else []
        platforms = [p for p, ready in (("apns", push.apns_ready), ("fcm", push.fcm_ready)) if ready()]
        targets += [push.DeviceTarget(*row) for row in PushDevice.objects.filter(
            user_id=user_id, platform__in=platforms).order_by("pk").values_list("pk", "platform", "token")]
        if not targets:
            _skip(delivery, "no browser or device this deployment can push to (Web Push needs VAPID "
                            "keys, APNs and FCM their credentials: manage.py check)")
            return
        if not _claim([delivery], now, lease=timedelta(seconds=settings.PUSH_DEADLINE_SECONDS + 10)):
            return
        others = [] if note.game_id is None else list(
            Seat.objects.filter(game_id=note.game_id).exclude(user_id=user_id).order_by("number")
            .values_list("user__username", flat=True))
        payload, attempt = push.message(note, others), delivery.attempts
    outcomes = _send_all(targets, payload)
    with transaction.atomic():
        ours = _still_ours([delivery_id], {delivery_id: attempt})
        if not ours:
            return
        delivery = ours[0]
        DeliveryAttempt.objects.bulk_create([
            DeliveryAttempt(delivery=delivery, at=now, ok=o.ok, status_code=o.status_code,
                            error=o.error, duration_ms=o.duration_ms) for o in outcomes])
        gone = [t for t, o in zip(targets, outcomes) if push.is_gone(t, o)]
        if gone:
            PushSubscription.objects.filter(pk__in=[t.pk for t in gone if isinstance(t, push.WebTarget)]).delete()
            PushDevice.objects.filter(pk__in=[t.pk for t in gone if isinstance(t, push.DeviceTarget)]).delete()
        failed = [o for t, o in zip(targets, outcomes) if not o.ok and not push.is_gone(t, o)]
        if any(o.ok for o in outcomes) or not failed:
            delivery.status, delivery.sent_at = Delivery.Status.SENT, timezone.now()
            delivery.last_error = "" if any(o.ok for o in outcomes) else "every subscription was gone"
            delivery.save(update_fields=["status", "sent_at", "last_error"])
        else:
            _failed(delivery, failed[0].error, now, user_id)


def _send_all(targets, payload) -> list:
    """Send to each browser's push service and each phone's side by side: the whole takes one
    deadline, not one per target."""
    from concurrent.futures import ThreadPoolExecutor

    from games.notifications import push

    def one(target):
        try:
            return push.send(target, payload)
        except Exception as exc:  # a key the library refuses: that target's failure alone
            return webhooks.Outcome(False, None, (str(exc) or type(exc).__name__)[:500], 0)

    with ThreadPoolExecutor(max_workers=min(len(targets), 8)) as pool:
        try:
            return list(pool.map(one, targets))
        except SoftTimeLimitExceeded:
            return [webhooks.Outcome(False, None, "the task's time limit was reached", 0)] * len(targets)


def _skip(delivery: Delivery, reason: str) -> None:
    """Nothing to send, and nothing to retry: closed without an attempt, the reason kept."""
    delivery.status, delivery.last_error = Delivery.Status.FAILED, f"skipped: {reason}"
    delivery.save(update_fields=["status", "last_error"])
