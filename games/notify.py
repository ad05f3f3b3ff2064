"""Notifications: decided in the transaction of the events that cause them (an outbox).

Each notification lands in the user's inbox and, per their preferences, gets a Delivery row per
other channel (email, each webhook). Deliveries go out after commit (games.tasks); the sweeper
retries any left pending, so a crash after commit loses nothing, and a rolled-back move, whose
rows vanish with it, notifies nobody. Unread turn notices for one game collapse into one, and
email is batched into digests, so a busy game does not mean dozens of pushes a day.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Iterable

from django.db import transaction
from django.utils import timezone

from games import live, store
from games.models import Delivery, Game, Mute, Notification, Seat

TITLES = {
    "your_turn": "Your turn in {title}",
    "reminder": "Time is running out in {title}",
    "timed_out": "{who} ran out of time in {title}",
    "dispute": "A dispute changed in {title}",
    "finished": "{title} is over",
}


def _seats(game: Game) -> dict[int, int]:
    return dict(Seat.objects.filter(game=game).values_list("number", "user_id"))


def _title(game: Game) -> str:
    from games.kinds import get_engine

    return get_engine(game.kind).title


def _preferences(user_id: int):
    from accounts.models import NotificationPreference

    return NotificationPreference.objects.filter(user_id=user_id).first() or NotificationPreference(user_id=user_id)


def send(user_ids: Iterable[int], game: Game | None, kind: str, data: dict[str, Any],
         seq: int | None = None, **title_args: Any) -> list[Notification]:
    """Notify users (muted ones excepted) in the current transaction."""
    from accounts.models import Webhook

    now = timezone.now()
    muted = set(Mute.objects.filter(game=game).values_list("user_id", flat=True)) if game else set()
    title = TITLES[kind].format(title=_title(game) if game else "", **title_args)
    payload = {**data, **({"game": str(game.pk), "kind": game.kind} if game else {})}
    created = []
    targets = sorted(set(user_ids) - muted)
    live.announce_users(targets)  # their own streams, after commit
    for user_id in targets:
        channels = _preferences(user_id).channels_for(kind)
        if kind == "your_turn":
            unread = Notification.objects.select_for_update().filter(
                user_id=user_id, game=game, type=kind, read_at__isnull=True).first()
            if unread is not None:
                # Collapse: one unread notice per game, kept fresh, and no new push for it.
                unread.collapsed += 1
                unread.updated_at, unread.data, unread.seq = now, payload, seq
                unread.save(update_fields=["collapsed", "updated_at", "data", "seq"])
                continue
        note = Notification.objects.create(
            user_id=user_id, game=game, type=kind, title=title, data=payload, seq=seq,
            created_at=now, updated_at=now, read_at=None if "inbox" in channels else now)
        created.append(note)
        if "email" in channels:
            Delivery.objects.create(notification=note, channel="email",
                                    next_attempt_at=_email_slot(user_id, now))
        if "webhook" in channels:
            for hook in Webhook.objects.filter(user_id=user_id, active=True):
                Delivery.objects.create(notification=note, channel="webhook", webhook=hook,
                                        next_attempt_at=now)
    if created:
        ids = [n.pk for n in created]
        transaction.on_commit(lambda: _dispatch(ids))
    return created


def _email_slot(user_id: int, now: datetime) -> datetime:
    """Emails wait for the user's digest: join the pending batch, or open one."""
    pending = (Delivery.objects.filter(notification__user_id=user_id, channel="email",
                                       status=Delivery.Status.PENDING)
               .order_by("next_attempt_at").values_list("next_attempt_at", flat=True).first())
    if pending is not None:
        return pending
    return now + timedelta(minutes=_preferences(user_id).email_digest_minutes)


def _dispatch(notification_ids: list[int]) -> None:
    from games import tasks

    for delivery in Delivery.objects.filter(notification_id__in=notification_ids,
                                            status=Delivery.Status.PENDING):
        tasks.enqueue_delivery(delivery)


# ---------------------------------------------------------------------------------------------
# What the game's events mean to people
# ---------------------------------------------------------------------------------------------
def after_turn(game: Game, rows, active_before: set[int], active_after: set[int]) -> None:
    seats = _seats(game)
    usernames = None
    requester = next((r.user_id for r in rows if r.user_id), None)  # who made this write, if anyone
    last = rows[-1].seq if rows else None
    for row in rows:
        if row.type == store.TIMER_EXPIRED and row.data.get("seat") is not None:
            if usernames is None:
                usernames = dict(Seat.objects.filter(game=game).values_list("number", "user__username"))
            seat = row.data["seat"]
            send(seats.values(), game, "timed_out",
                 {"seat": seat, "policy": row.data.get("policy"), "deadline": row.data["deadline"]},
                 seq=row.seq, who=usernames.get(seat, f"seat {seat}"))
        elif row.type == store.GAME_FINISHED:
            send(seats.values(), game, "finished", {"result": row.data["result"]}, seq=row.seq)
    newly = active_after - active_before if game.status == Game.Status.ACTIVE else set()
    to_tell = [seats[s] for s in sorted(newly) if s in seats and seats[s] != requester]
    if to_tell:
        send(to_tell, game, "your_turn", {"version": game.version}, seq=last)


def remind(game: Game, deadlines: dict[int, datetime]) -> None:
    seats = _seats(game)
    for seat, deadline in deadlines.items():
        if seat in seats:
            send([seats[seat]], game, "reminder", {"seat": seat, "deadline": deadline.isoformat()})


def dispute_changed(game: Game, dispute, opened: bool = False) -> None:
    seats = _seats(game)
    users = [u for u in seats.values() if not (opened and u == dispute.raised_by_id)]
    send(users, game, "dispute", {"dispute": dispute.pk, "seq": dispute.seq, "status": dispute.status})


def mark_turn_notices_read(game: Game, user) -> None:
    """Acting in a game reads its turn notice: the user has evidently seen it."""
    Notification.objects.filter(user=user, game=game, type="your_turn", read_at__isnull=True).update(
        read_at=timezone.now())
