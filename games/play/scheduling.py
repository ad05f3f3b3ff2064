"""Games' work handed to the Celery worker once the current transaction commits: wakes and deliveries.

This sits below the use cases: they, turns and notify call it; the worker's tasks (games.tasks)
call the use cases. Tasks are sent by name (config.scheduling), so nothing on the write path
imports games.tasks and `tasks -> use cases` stays the only arrow between them.

Timers are not one task per game: a wake is a task that expires *every* game then due, in
batches (deadlines.settle_due_games), scheduled once per WAKE_BUCKET_SECONDS slice of time. A
thousand deadlines within one second are a handful of tasks, not a thousand; a lost wake is made
good by the sweeper, a duplicated one finds nothing left to do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as dt_timezone
from typing import Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config import database
from config.scheduling import once, send

SETTLE_DUE = "games.tasks.settle_due"
DELIVER_EMAIL = "games.tasks.deliver_email"
DELIVER_WEBHOOK = "games.tasks.deliver_webhook"
DELIVER_PUSH = "games.tasks.deliver_push"
TOURNAMENT_GAMES_FINISHED = "games.tasks.tournament_games_finished"
# Deadlines this close share one wake task (it fires at the slice's end, so a timer is at most
# this much later than it would be with a task of its own).
WAKE_BUCKET_SECONDS = 0.1


def exclusive(name: str):
    """Yields whether this process holds the deployment's lock called `name` (a PostgreSQL
    advisory lock, so it is this database's: it needs no Redis, and dies with a killed holder's
    connection). Never waits: a holder elsewhere means False. Transaction-scoped, on a connection
    of its own (config.database): it holds behind PgBouncer in transaction mode too."""
    return database.exclusive(name)


# ---------------------------------------------------------------------------------------------
# Timers
# ---------------------------------------------------------------------------------------------
def wake_at(game) -> datetime | None:
    return min((t for t in (game.next_deadline, game.next_reminder) if t is not None), default=None)


def bucket(at: datetime) -> datetime:
    """The end of the wake slice `at` falls in: never earlier than `at`."""
    stamp = math.ceil(at.timestamp() / WAKE_BUCKET_SECONDS) * WAKE_BUCKET_SECONDS
    return datetime.fromtimestamp(stamp, tz=dt_timezone.utc)


def wake(times: Iterable[datetime | None]) -> int:
    """Send one wake task per slice among `times` that is near enough (and not sent already)."""
    horizon = timezone.now() + timedelta(seconds=settings.TIMER_MAX_ETA_SECONDS)
    sent = 0
    for at in sorted({bucket(t) for t in times if t is not None and t <= horizon}):
        if once(f"wake:{at.timestamp():.1f}", settings.TIMER_MAX_ETA_SECONDS + 60):
            sent += send(SETTLE_DUE, [], eta=at)
    return sent


def schedule_wake(game) -> None:
    """After commit, make sure a wake task is waiting for the game's next deadline or reminder."""
    schedule_wakes([game])


def schedule_wakes(games: Iterable) -> None:
    times = [wake_at(game) for game in games]
    if any(t is not None for t in times):
        transaction.on_commit(lambda: wake(times))


def tournament_games_finished(games: Iterable) -> None:
    """After commit, tell the worker which tournament or ladder games just ended, so their
    tournament records the places and starts its next round when the round is over
    (games.community.tournament_lifecycle), or their ladder settles the challenge (games.community.ladders).
    Other games cost nothing: their server options name neither."""
    ids = [str(game.pk) for game in games if (game.options or {}).keys() & {"tournament", "ladder"}]
    if ids:
        transaction.on_commit(lambda: send(TOURNAMENT_GAMES_FINISHED, [ids]))


# ---------------------------------------------------------------------------------------------
# Deliveries (the outbox's other channels)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outgoing:
    """What the worker needs to know of a pending delivery to schedule it."""

    delivery_id: int
    channel: str
    user_id: int
    attempts: int
    next_attempt_at: datetime


def enqueue_delivery(item: Outgoing, dedupe_seconds: float = 0) -> None:
    if dedupe_seconds and not once(f"delivery:{item.delivery_id}:{item.attempts}", dedupe_seconds):
        return
    horizon = timezone.now() + timedelta(seconds=settings.TIMER_MAX_ETA_SECONDS)
    if item.next_attempt_at > horizon:
        return  # a digest days away: the sweeper sends it when due
    if item.channel == "email":
        # One task per user and slot: a digest of many notices is one email, one task.
        if once(f"email:{item.user_id}:{item.next_attempt_at.timestamp():.3f}", 60):
            send(DELIVER_EMAIL, [item.user_id], eta=item.next_attempt_at)
    elif item.channel == "push":
        send(DELIVER_PUSH, [item.delivery_id], eta=item.next_attempt_at)
    else:
        send(DELIVER_WEBHOOK, [item.delivery_id], eta=item.next_attempt_at)


def deliver_after_commit(items: list[Outgoing]) -> None:
    def enqueue_all() -> None:
        for item in items:
            enqueue_delivery(item)

    if items:
        transaction.on_commit(enqueue_all)
