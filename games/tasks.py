"""Celery tasks: just another interface to the services, run after commit.

Timers: each commit schedules `wake_game` at the game's next deadline or reminder if that is
within settings.TIMER_MAX_ETA_SECONDS (well under the broker's visibility timeout, past which
Redis would deliver the task again and again). Longer clocks are the sweeper's: every few seconds
it expires what is due (rows taken FOR UPDATE SKIP LOCKED, so sweepers never block each other),
schedules ETA tasks for what falls due before its next run, and resends pending deliveries. A lost
task, a late one or a restarted worker therefore never loses a timeout. Every task is idempotent.
"""
from __future__ import annotations

import logging
from datetime import timedelta

import redis
from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import services, webhooks
from games.live import client as redis_client
from games.models import Delivery, DeliveryAttempt, Game

log = logging.getLogger(__name__)


def _once(key: str, ttl: float) -> bool:
    """True the first time `key` is claimed within `ttl` (so a wake is scheduled once, not per
    sweep); if Redis is unreachable, schedule anyway: a duplicate task is harmless."""
    try:
        return bool(redis_client().set(f"darkroom:once:{key}", 1, nx=True, ex=max(1, int(ttl) + 1)))
    except redis.RedisError:
        return True


# ---------------------------------------------------------------------------------------------
# Timers
# ---------------------------------------------------------------------------------------------
def _wake_at(game: Game):
    times = [t for t in (game.next_deadline, game.next_reminder) if t is not None]
    return min(times, default=None)


def schedule_wake(game: Game) -> None:
    """After commit, put a task on the broker for the game's next wake, if it is near enough."""
    wake = _wake_at(game)
    if wake is None:
        return
    game_id, version = str(game.pk), game.version

    def enqueue():
        horizon = timezone.now() + timedelta(seconds=settings.TIMER_MAX_ETA_SECONDS)
        if wake <= horizon and _once(f"wake:{game_id}:{version}:{wake.isoformat()}",
                                     settings.TIMER_MAX_ETA_SECONDS + 60):
            try:
                wake_game.apply_async(args=[game_id, version], eta=wake)
            except Exception:  # broker down: the sweeper will find the game all the same
                log.warning("could not schedule the wake of game %s", game_id, exc_info=True)

    transaction.on_commit(enqueue)


@shared_task(ignore_result=True)
def wake_game(game_id: str, version: int) -> None:
    services.expire_due(game_id, version)
    services.send_due_reminders(game_id)


@shared_task(ignore_result=True)
def sweep() -> dict[str, int]:
    """Expire and remind every due game, schedule what falls due soon, resend stuck deliveries."""
    now = timezone.now()
    done, counts = set(), {"expired": 0, "reminded": 0, "scheduled": 0, "deliveries": 0}
    while True:
        with transaction.atomic():
            game = (Game.objects.select_for_update(skip_locked=True)
                    .filter(status=Game.Status.ACTIVE)
                    .filter(Q(next_deadline__lte=now) | Q(next_reminder__lte=now))
                    .exclude(pk__in=done).order_by("next_deadline").first())
            if game is None:
                break
            done.add(game.pk)
            try:
                with transaction.atomic():
                    counts["expired"] += services.expire_due(game.pk)
                    counts["reminded"] += services.send_due_reminders(game.pk)
            except Exception:
                log.exception("sweeping game %s failed", game.pk)
    soon = now + timedelta(seconds=2 * settings.SWEEP_INTERVAL_SECONDS + 1)
    for game in Game.objects.filter(status=Game.Status.ACTIVE).filter(
            Q(next_deadline__gt=now, next_deadline__lte=soon) | Q(next_reminder__gt=now, next_reminder__lte=soon)):
        schedule_wake(game)
        counts["scheduled"] += 1
    for delivery in Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now)[:500]:
        enqueue_delivery(delivery, dedupe_seconds=60)
        counts["deliveries"] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Deliveries
# ---------------------------------------------------------------------------------------------
def enqueue_delivery(delivery: Delivery, dedupe_seconds: float = 0) -> None:
    if dedupe_seconds and not _once(f"delivery:{delivery.pk}:{delivery.attempts}", dedupe_seconds):
        return
    horizon = timezone.now() + timedelta(seconds=settings.TIMER_MAX_ETA_SECONDS)
    if delivery.next_attempt_at > horizon:
        return  # a digest days away: the sweeper sends it when due
    try:
        if delivery.channel == "email":
            deliver_email.apply_async(args=[delivery.notification.user_id], eta=delivery.next_attempt_at)
        else:
            deliver_webhook.apply_async(args=[delivery.pk], eta=delivery.next_attempt_at)
    except Exception:
        log.warning("could not enqueue delivery %s; the sweeper will", delivery.pk, exc_info=True)


def _failed(delivery: Delivery, error: str, now) -> None:
    delivery.attempts += 1
    delivery.last_error = error
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        delivery.status = Delivery.Status.FAILED
    else:
        backoff = settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (delivery.attempts - 1)
        delivery.next_attempt_at = now + timedelta(seconds=backoff)
        transaction.on_commit(lambda: enqueue_delivery(delivery))
    delivery.save()


@shared_task(ignore_result=True)
def deliver_webhook(delivery_id: int) -> None:
    with transaction.atomic():
        delivery = (Delivery.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("webhook", "notification")
                    .filter(pk=delivery_id, status=Delivery.Status.PENDING).first())
        now = timezone.now()
        if delivery is None or delivery.next_attempt_at > now + timedelta(seconds=1):
            return
        note = delivery.notification
        payload = {"id": note.pk, "delivery": delivery.pk, "type": note.type, "title": note.title,
                   "data": note.data, "created_at": note.created_at.isoformat()}
        outcome = webhooks.post(delivery.webhook.url, delivery.webhook.secret, delivery.pk, payload)
        DeliveryAttempt.objects.create(delivery=delivery, at=now, ok=outcome.ok,
                                       status_code=outcome.status_code, error=outcome.error,
                                       duration_ms=outcome.duration_ms)
        if outcome.ok:
            delivery.status, delivery.sent_at = Delivery.Status.SENT, timezone.now()
            delivery.attempts += 1
            delivery.save()
        else:
            _failed(delivery, outcome.error, now)


@shared_task(ignore_result=True)
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
        titles = [d.notification.title for d in due]
        subject = titles[0] if len(titles) == 1 else f"Darkroom: {len(titles)} updates"
        try:
            send_mail(subject, "\n".join(f"- {t}" for t in titles), None, [user.email])
        except Exception as exc:  # the mail server's trouble: retry with backoff
            for delivery in due:
                _failed(delivery, str(exc)[:500], now)
            return
        for delivery in due:
            DeliveryAttempt.objects.create(delivery=delivery, at=now, ok=True)
        Delivery.objects.filter(pk__in=[d.pk for d in due]).update(
            status=Delivery.Status.SENT, sent_at=now, attempts=1)
