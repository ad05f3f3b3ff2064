"""What the clock does to games: timeouts and engine timers settled once they fall due (by their
timer task, by the sweeper, or first thing when a move arrives after them), and reminders to the
seats whose time runs low. Each public use case is one transaction (the sweeper one per batch) and
idempotent: it acts only on what is due, under the game row's lock."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games.models import Game, Seat
from games.notifications import notify
from games.play import clocks, scheduling, store, turns
from games.play.kinds import engine_of
from games.play.turns import Turn

log = logging.getLogger(__name__)


def is_due(game: Game, now) -> bool:
    """Whether an active game has a deadline fallen by `now` (the row as read, not yet settled)."""
    return game.status == Game.Status.ACTIVE and game.next_deadline is not None and game.next_deadline <= now


def expire(game: Game, now) -> int:
    """Settle what is due at `now` in a game whose row the caller holds locked, in the caller's
    transaction; return how many events that appended."""
    turn = turns.as_read(game, engine_of(game), now)
    turn.settle()
    if not turn.events:
        return 0
    turn.commit()
    return len(turn.events)


@transaction.atomic
def expire_due(game_id, expected_version: int | None = None) -> int:
    """Settle what is due now (timeouts, engine timers); return how many events that appended.

    Idempotent: a task names the version it was scheduled at and does nothing if the game has
    moved on since (the write that moved it scheduled its own task)."""
    try:
        game = Game.objects.select_for_update().filter(pk=game_id).first()
    except (ValueError, ValidationError):
        return 0
    if game is None:
        return 0
    if expected_version is not None and game.version != expected_version:
        return 0
    now = timezone.now()
    return expire(game, now) if is_due(game, now) else 0


# How many due games one transaction of the sweeper expires.
EXPIRY_BATCH = 100


def settle_due_games(batch: int = EXPIRY_BATCH) -> dict[str, int]:
    """Expire every game whose deadline has passed, `batch` games per transaction (rows taken
    SKIP LOCKED, so several workers share the work), then send the reminders due. Idempotent: a
    game is expired only while its deadline is due, under its row lock."""
    counts = {"games": 0, "expired": 0, "reminded": 0}
    done: set = set()
    while True:
        try:
            games, events, ids = _expire_batch(batch, done)
        except Exception:  # one game's trouble must not hold up the others: one by one instead
            log.exception("expiring a batch failed; expiring its games one by one")
            games, events, ids = _expire_one_by_one(batch, done)
        done |= ids
        counts["games"] += games
        counts["expired"] += events
        if not ids:
            break
    now = timezone.now()
    for game_id in Game.objects.filter(status=Game.Status.ACTIVE, next_reminder__lte=now).values_list("pk", flat=True)[
        :500
    ]:
        counts["reminded"] += send_due_reminders(game_id)
    return counts


def _due_games(limit: int, done: set) -> list[Game]:
    return list(
        Game.objects.select_for_update(skip_locked=True)
        .filter(status=Game.Status.ACTIVE, next_deadline__lte=timezone.now())
        .exclude(pk__in=done)
        .order_by("next_deadline")[:limit]
    )


@transaction.atomic
def _expire_batch(limit: int, done: set) -> tuple[int, int, set]:
    games = _due_games(limit, done)
    if not games:
        return 0, 0, set()
    states = store.states_of(games)
    vacations = turns.vacations_for_games(games)
    seeds = turns.seeds_of(games)
    seats: dict = {}
    for game_id, number, user_id, name in Seat.objects.filter(game__in=games).values_list(
        "game_id", "number", "user_id", "user__username"
    ):
        seats.setdefault(game_id, {})[number] = (user_id, name)
    settled: list[Turn] = []
    stale: list[Turn] = []
    for game in games:
        turn = Turn(
            game,
            engine_of(game),
            states[game.pk],
            timezone.now(),
            vacations=vacations.get(game.pk, {}),
            seed=seeds.get(game.pk),
            seats=seats.get(game.pk, {}),
        )
        turn.settle()
        (settled if turn.events else stale).append(turn)
    turns.commit_many(settled)
    for turn in stale:  # due by the projection, yet nothing to settle: set the wake times right
        turn.commit()
    return len(settled), sum(len(t.events) for t in settled), {g.pk for g in games}


def _expire_one_by_one(limit: int, done: set) -> tuple[int, int, set]:
    with transaction.atomic():
        ids = [g.pk for g in _due_games(limit, done)]
    games = events = 0
    for game_id in ids:
        try:
            appended = expire_due(game_id)
        except Exception:
            log.exception("expiring game %s failed", game_id)
            continue
        games, events = games + bool(appended), events + appended
    return games, events, set(ids)


@transaction.atomic
def send_due_reminders(game_id) -> int:
    """Remind the seats whose time is running low (once per move); return how many."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE or not game.clocks:
        return 0
    now = timezone.now()
    vacations = turns.vacations_for(game)
    fraction = float(game.options.get("reminder_fraction", 0) or 0)
    due = {
        seat: at
        for seat, at in clocks.reminder_times(game.clocks, fraction, vacations).items()
        if at <= now and seat in (game.active_seats or [])
    }
    if due:
        deadlines = clocks.seat_deadlines(game.clocks, vacations)
        notify.remind(game, {seat: deadlines[seat] for seat in due})
        game.clocks = clocks.mark_reminded(game.clocks, due)
    engine = engine_of(game)
    times = turns.wake_times(game, engine, turns.state_at(game), game.clocks, vacations, None)
    Game.objects.filter(pk=game.pk).update(clocks=game.clocks, **times)
    game.__dict__.update(times)
    scheduling.schedule_wake(game)
    return len(due)
