"""Celery tasks: just another interface to the services, run after commit.

Timers: each commit schedules a wake (games.scheduling) at the game's next deadline or reminder if
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
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import scheduling, services, webhooks
from games.models import Delivery, DeliveryAttempt, Game

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------------------------------
# Timers
# ---------------------------------------------------------------------------------------------
@shared_task(ignore_result=True)
def settle_due() -> dict[str, int]:
    return services.settle_due_games()


@shared_task(ignore_result=True)
def wake_game(game_id: str, version: int) -> None:
    """One game's wake (tasks queued before wakes were shared; kept so they still run)."""
    services.expire_due(game_id, version)
    services.send_due_reminders(game_id)


@shared_task(ignore_result=True)
def sweep() -> dict[str, int]:
    """Settle every due game, schedule wakes for what falls due soon, resend stuck deliveries."""
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
# Deliveries
# ---------------------------------------------------------------------------------------------
def _outgoing(delivery: Delivery) -> scheduling.Outgoing:
    return scheduling.Outgoing(delivery.pk, delivery.channel, delivery.notification.user_id,
                               delivery.attempts, delivery.next_attempt_at)


def _failed(delivery: Delivery, error: str, now) -> None:
    delivery.attempts += 1
    delivery.last_error = error
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        delivery.status = Delivery.Status.FAILED
    else:
        backoff = settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (delivery.attempts - 1)
        delivery.next_attempt_at = now + timedelta(seconds=backoff)
        scheduling.deliver_after_commit([_outgoing(delivery)])
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
        DeliveryAttempt.objects.bulk_create([DeliveryAttempt(delivery=d, at=now, ok=True) for d in due])
        Delivery.objects.filter(pk__in=[d.pk for d in due]).update(
            status=Delivery.Status.SENT, sent_at=now, attempts=1)


# The bots' task lives with the bots; imported here so the worker registers it.
from games.botplay import tasks as bot_tasks  # noqa: E402,F401
