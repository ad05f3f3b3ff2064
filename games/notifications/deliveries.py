"""Deliveries to outside parties (webhook receivers, the mail server, push services and phones):
each claimed under a lease in one short transaction, sent with no transaction open, and recorded
in another short transaction only if the claim is still that attempt's. A worker killed mid-send
therefore loses nothing (the lease runs out and the sweeper resends it) and never records over a
newer attempt. The tasks (games.tasks) send; this module decides what is sent and records it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Delivery, DeliveryAttempt, Seat
from games.notifications import notify, push, push_share
from games.play import scheduling


def outgoing(delivery: Delivery, user_id: int) -> scheduling.Outgoing:
    return scheduling.Outgoing(delivery.pk, delivery.channel, user_id, delivery.attempts, delivery.next_attempt_at)


# How long past its deadline a claimed attempt is still left to its worker (to record it).
LEASE_MARGIN_SECONDS = 5


def lease(deadline_seconds: float) -> timedelta:
    """How long a claimed attempt is left to its worker before the sweeper resends it: past its
    channel's deadline, which ends the attempt whatever the other party does, so a live attempt
    is never sent twice at once."""
    return timedelta(seconds=deadline_seconds + LEASE_MARGIN_SECONDS)


def backoff(attempts: int) -> timedelta:
    return timedelta(seconds=settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** (attempts - 1))


def failed(delivery: Delivery, error: str, at, user_id: int) -> None:
    """The claimed attempt (already counted) failed: retry it with backoff, or give up."""
    delivery.last_error = error
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        delivery.status = Delivery.Status.FAILED
    else:
        delivery.next_attempt_at = at + backoff(delivery.attempts)
        scheduling.deliver_after_commit([outgoing(delivery, user_id)])
    delivery.save(update_fields=["last_error", "status", "next_attempt_at"])


def locked_if_due(delivery_id: int, *related: str) -> Delivery | None:
    """The pending delivery, locked for this attempt, in the caller's transaction; None when
    another worker holds it, it was settled, or it is not due yet (a second's grace)."""
    delivery = (
        Delivery.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related(*related)
        .filter(pk=delivery_id, status=Delivery.Status.PENDING)
        .first()
    )
    if delivery is None or delivery.next_attempt_at > timezone.now() + timedelta(seconds=1):
        return None
    return delivery


def claim(deliveries: list[Delivery], now, lease: timedelta) -> list[Delivery]:
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


def still_ours(pks: list[int], attempts: dict[int, int]) -> list[Delivery]:
    """The claimed deliveries, row-locked, that no later attempt has claimed since."""
    rows = Delivery.objects.select_for_update(of=("self",)).filter(pk__in=pks, status=Delivery.Status.PENDING)
    return [d for d in rows.order_by("pk") if d.attempts == attempts[d.pk]]


def skip(delivery: Delivery, reason: str) -> None:
    """Nothing to send, and nothing to retry: closed without an attempt, the reason kept."""
    delivery.status, delivery.last_error = Delivery.Status.FAILED, f"skipped: {reason}"
    delivery.save(update_fields=["status", "last_error"])


def sends_at_once(count: int) -> int:
    """All of a delivery's sends side by side: the limits (PUSH_MAX_PER_USER browsers and as many
    phones) keep `count` small, and one round means the whole takes one deadline."""
    return max(1, count)


def push_lease(count: int) -> timedelta:
    """The lease of an attempt at `count` targets: longer than the attempt can last by
    construction (its rounds of sends, each cut at PUSH_DEADLINE_SECONDS, and the margin to
    record it), so the sweeper never sends it again while it runs."""
    rounds = math.ceil(count / sends_at_once(count))
    return timedelta(seconds=rounds * settings.PUSH_DEADLINE_SECONDS + 2 * LEASE_MARGIN_SECONDS)


# -- push ---------------------------------------------------------------------------------------
@dataclass
class PushAttempt:
    """A push delivery claimed for one attempt: what to send, to whom, and the worker's share."""

    delivery_id: int
    user_id: int
    attempt: int
    at: datetime
    targets: list
    payload: dict
    admitted: push_share.Pass


def claim_push(delivery_id: int) -> PushAttempt | None:
    """Claim a push delivery that is due, in one transaction, or settle it without sending: a
    notice read before its push was due is not pushed; one due in the player's quiet hours waits
    for their end, one whose player has had their share of the worker waits its turn (neither
    counts an attempt); a player with nothing this deployment can push to is skipped."""
    from accounts.models import NotificationPreference

    with transaction.atomic():
        delivery = locked_if_due(delivery_id, "notification", "notification__game", "notification__user")
        if delivery is None:
            return None
        now = timezone.now()
        note, user_id = delivery.notification, delivery.notification.user_id
        if note.read_at is not None and note.read_at > note.created_at:
            skip(delivery, "read before it was pushed")
            return None
        prefs = NotificationPreference.objects.filter(user_id=user_id).first()
        until = prefs and push.quiet_until(prefs.quiet_start, prefs.quiet_end, prefs.quiet_tz, now)
        if until:
            _later(delivery, until, user_id)
            return None
        targets = _targets(user_id)
        if not targets:
            skip(
                delivery,
                "no browser or device this deployment can push to (Web Push needs VAPID "
                "keys, APNs and FCM their credentials: manage.py check)",
            )
            return None
        attempt_lease = push_lease(len(targets))
        admitted = push_share.admit(user_id, attempt_lease.total_seconds())
        if not isinstance(admitted, push_share.Pass):  # the player's turn at the worker is not yet
            _later(delivery, now + timedelta(seconds=admitted), user_id)
            return None
        if not claim([delivery], now, lease=attempt_lease):
            push_share.release(admitted)
            return None
        others = (
            []
            if note.game_id is None
            else list(
                Seat.objects.filter(game_id=note.game_id)
                .exclude(user_id=user_id)
                .order_by("number")
                .values_list("user__username", flat=True)
            )
        )
        with notify.in_language(note.user.language):  # the recipient's, as the notice's title was written
            payload = push.message(note, others)
        return PushAttempt(delivery.pk, user_id, delivery.attempts, now, targets, payload, admitted)


def record_push(attempt: PushAttempt, outcomes: list) -> None:
    """Record what each target answered, if the claim is still this attempt's: subscriptions and
    devices their service says are gone are removed; the delivery is sent once any target took
    it, retried with backoff only when none did and some failed for another reason than gone."""
    from accounts.models import PushDevice, PushSubscription

    with transaction.atomic():
        ours = still_ours([attempt.delivery_id], {attempt.delivery_id: attempt.attempt})
        if not ours:
            return  # its lease ran out and a later attempt took it over
        delivery = ours[0]
        DeliveryAttempt.objects.bulk_create(
            [
                DeliveryAttempt(
                    delivery=delivery,
                    at=attempt.at,
                    ok=o.ok,
                    status_code=o.status_code,
                    error=o.error,
                    duration_ms=o.duration_ms,
                )
                for o in outcomes
            ]
        )
        gone = [t for t, o in zip(attempt.targets, outcomes) if push.is_gone(t, o)]
        if gone:
            PushSubscription.objects.filter(pk__in=[t.pk for t in gone if isinstance(t, push.WebTarget)]).delete()
            PushDevice.objects.filter(pk__in=[t.pk for t in gone if isinstance(t, push.DeviceTarget)]).delete()
        failures = [o for t, o in zip(attempt.targets, outcomes) if not o.ok and not push.is_gone(t, o)]
        if any(o.ok for o in outcomes) or not failures:
            delivery.status, delivery.sent_at = Delivery.Status.SENT, timezone.now()
            delivery.last_error = "" if any(o.ok for o in outcomes) else "every subscription was gone"
            delivery.save(update_fields=["status", "sent_at", "last_error"])
        else:
            failed(delivery, failures[0].error, attempt.at, attempt.user_id)


def _targets(user_id: int) -> list:
    """The player's browsers and phones this deployment can push to (a platform without its keys
    or credentials is left out)."""
    from accounts.models import PushDevice, PushSubscription

    targets: list = (
        [
            push.WebTarget(*row)
            for row in PushSubscription.objects.filter(user_id=user_id)
            .order_by("pk")
            .values_list("pk", "endpoint", "p256dh", "auth")
        ]
        if push.web_push_ready()
        else []
    )
    platforms = [p for p, ready in (("apns", push.apns_ready), ("fcm", push.fcm_ready)) if ready()]
    targets += [
        push.DeviceTarget(*row)
        for row in PushDevice.objects.filter(user_id=user_id, platform__in=platforms)
        .order_by("pk")
        .values_list("pk", "platform", "token")
    ]
    return targets


def _later(delivery: Delivery, at: datetime, user_id: int) -> None:
    """Not now: due again at `at`, no attempt counted."""
    delivery.next_attempt_at = at
    delivery.save(update_fields=["next_attempt_at"])
    scheduling.deliver_after_commit([outgoing(delivery, user_id)])
