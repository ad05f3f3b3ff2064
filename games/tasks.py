"""Celery tasks: just another interface to the services, run after commit.

Timers: each commit schedules a wake (games.play.scheduling) at the game's next deadline or reminder if
that is within settings.TIMER_MAX_ETA_SECONDS (well under the broker's visibility timeout, past
which Redis would deliver the task again and again). A wake settles *every* game then due, in
batches (deadlines.settle_due_games), so deadlines that fall together cost a few tasks, not one
each. Longer clocks are the sweeper's: every few seconds it settles what is due, schedules wakes
for what falls due before its next run, and resends pending deliveries. A lost task, a late one
or a restarted worker therefore never loses a timeout; a duplicated one finds nothing to do.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import ngettext

from accounts import webhooks
from games.community import ladders, tournament_deadlines, tournament_lifecycle
from games.notifications import deliveries, notify
from games.play import deadlines, scheduling
from games.models import Delivery, DeliveryAttempt, Game

log = logging.getLogger(__name__)

# Every task's name is explicit ("games.tasks.<function>"): queued tasks, beat's schedule
# (settings.CELERY_BEAT_SCHEDULE) and games.play.scheduling name them, so moving this module
# must not rename them.


# ---------------------------------------------------------------------------------------------
# Timers
# ---------------------------------------------------------------------------------------------
@shared_task(name="games.tasks.settle_due", ignore_result=True)
def settle_due() -> dict[str, int]:
    return deadlines.settle_due_games()


@shared_task(name="games.tasks.wake_game", ignore_result=True)
def wake_game(game_id: str, version: int) -> None:
    """One game's wake (tasks queued before wakes were shared; kept so they still run)."""
    deadlines.expire_due(game_id, version)
    deadlines.send_due_reminders(game_id)


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
    counts = dict(deadlines.settle_due_games())
    soon = now + timedelta(seconds=2 * settings.SWEEP_INTERVAL_SECONDS + 1)
    upcoming = (
        Game.objects.filter(status=Game.Status.ACTIVE)
        .filter(Q(next_deadline__gt=now, next_deadline__lte=soon) | Q(next_reminder__gt=now, next_reminder__lte=soon))
        .values_list("next_deadline", "next_reminder")
    )
    counts["scheduled"] = scheduling.wake([t for pair in upcoming for t in pair if t is not None and t > now])
    counts["deliveries"] = 0
    for item in Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=now).values_list(
        "pk", "channel", "notification__user_id", "attempts", "next_attempt_at"
    )[:500]:
        scheduling.enqueue_delivery(scheduling.Outgoing(*item), dedupe_seconds=60)
        counts["deliveries"] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Tournaments (docs/tournaments.md)
# ---------------------------------------------------------------------------------------------
@shared_task(name="games.tasks.tournament_games_finished", ignore_result=True)
def tournament_games_finished(game_ids: list[str]) -> int:
    """Sent after the commit of a write that ended tournament or ladder games: the places are
    recorded and a round that is over gives way to the next; a ladder's challenge is settled.
    A lost one is made good by `tournaments_due`."""
    return tournament_lifecycle.games_finished(game_ids) + ladders.games_finished(game_ids)


@shared_task(name="games.tasks.tournaments_due", ignore_result=True)
def tournaments_due() -> dict[str, int]:
    """Beat's: start the tournaments whose time has come, settle the rounds whose deadline has
    passed, advance any whose round is over; give unanswered ladder challenges to their
    challengers."""
    return {**tournament_lifecycle.due(), "deadlines": tournament_deadlines.overdue(), "challenges": ladders.due()}


# ---------------------------------------------------------------------------------------------
# Deliveries (their own queues: docs/operations.md)
#
# No transaction or row lock is held while waiting on a receiver or the mail server: each task
# claims its attempt, sends, and records it (games.notifications.deliveries says how).
# ---------------------------------------------------------------------------------------------
@shared_task(name="games.tasks.deliver_webhook", ignore_result=True)
def deliver_webhook(delivery_id: int) -> None:
    with transaction.atomic():
        delivery = deliveries.locked_if_due(delivery_id, "webhook", "notification")
        if delivery is None:
            return
        now = timezone.now()
        if not deliveries.claim([delivery], now, deliveries.lease(settings.WEBHOOK_DEADLINE_SECONDS)):
            return
        note = delivery.notification
        payload = {
            "id": note.pk,
            "delivery": delivery.pk,
            "type": note.type,
            "title": note.title,
            "data": note.data,
            "created_at": note.created_at.isoformat(),
        }
        url, secret, user_id, attempt = delivery.webhook.url, delivery.webhook.secret, note.user_id, delivery.attempts
    try:
        outcome = webhooks.post(url, secret, delivery_id, payload)
    except SoftTimeLimitExceeded:  # the queue's limit, should the deadline ever fail to cut it
        outcome = webhooks.Outcome(False, None, "the task's time limit was reached", 0)
    with transaction.atomic():
        ours = deliveries.still_ours([delivery_id], {delivery_id: attempt})
        if not ours:
            return  # its lease ran out and a later attempt took it over
        delivery = ours[0]
        DeliveryAttempt.objects.create(
            delivery=delivery,
            at=now,
            ok=outcome.ok,
            status_code=outcome.status_code,
            error=outcome.error,
            duration_ms=outcome.duration_ms,
        )
        if outcome.ok:
            delivery.status, delivery.sent_at, delivery.last_error = Delivery.Status.SENT, timezone.now(), ""
            delivery.save(update_fields=["status", "sent_at", "last_error"])
        else:
            deliveries.failed(delivery, outcome.error, now, user_id)


@shared_task(name="games.tasks.deliver_email", ignore_result=True)
def deliver_email(user_id: int) -> None:
    """One email for every pending notice of the user that is due: a digest, or a single notice."""
    from accounts.models import User

    with transaction.atomic():
        now = timezone.now()
        due = list(
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("notification")
            .filter(
                notification__user_id=user_id,
                channel="email",
                status=Delivery.Status.PENDING,
                next_attempt_at__lte=now + timedelta(seconds=1),
            )
            .order_by("notification__created_at")
        )
        if not due:
            return
        user = User.objects.get(pk=user_id)
        if not user.email:
            Delivery.objects.filter(pk__in=[d.pk for d in due]).update(
                status=Delivery.Status.FAILED, last_error="no email address"
            )
            return
        due = deliveries.claim(due, now, deliveries.lease(settings.EMAIL_DEADLINE_SECONDS))
        attempts = {d.pk: d.attempts for d in due}
        titles = [d.notification.title for d in due]
    if not due:
        return
    # The titles were written in the recipient's language; the digest's subject is too.
    with notify.in_language(user.language):
        subject = (
            titles[0]
            if len(titles) == 1
            else ngettext("Darkroom: %(count)d update", "Darkroom: %(count)d updates", len(titles))
            % {"count": len(titles)}
        )
    error = ""
    try:
        send_mail(subject, "\n".join(f"- {t}" for t in titles), None, [user.email])
    except Exception as exc:  # the mail server's trouble (or the queue's soft limit): retry with backoff
        error = str(exc)[:500] or type(exc).__name__
    with transaction.atomic():
        ours = deliveries.still_ours(list(attempts), attempts)
        if error:
            for delivery in ours:
                deliveries.failed(delivery, error, now, user_id)
            return
        DeliveryAttempt.objects.bulk_create([DeliveryAttempt(delivery=d, at=now, ok=True) for d in ours])
        Delivery.objects.filter(pk__in=[d.pk for d in ours]).update(status=Delivery.Status.SENT, sent_at=now)


# -- bots (docs/bots.md): on the bots' own queue (settings.TASK_QUEUES["bots"]) ------------------
@shared_task(ignore_result=True)
def play_bot_turn(game_id: str, seat: int, version: int) -> str:
    from games.play import bot_moves

    return bot_moves.play_turn(game_id, seat, version)


@shared_task(name="games.tasks.play_bot_turns", ignore_result=True)
def play_bot_turns() -> int:
    """A wake of the bots' worker: play the due turns, fairest first (games.play.bot_queue)."""
    from games.play import bot_moves

    return bot_moves.play_due_turns()


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
    from games.notifications import push_share

    attempt = deliveries.claim_push(delivery_id)
    if attempt is None:
        return
    started = time.monotonic()
    try:
        outcomes = _send_all(attempt.targets, attempt.payload)
    finally:
        push_share.release(attempt.admitted)
        push_share.charge(attempt.user_id, time.monotonic() - started)
    deliveries.record_push(attempt, outcomes)


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

    with ThreadPoolExecutor(max_workers=deliveries.sends_at_once(len(targets))) as pool:
        try:
            return list(pool.map(one, targets))
        except SoftTimeLimitExceeded:
            return [webhooks.Outcome(False, None, "the task's time limit was reached", 0)] * len(targets)
