"""Bots at the table, the domain part (docs/bots.md): the bot accounts, seating them, and after
every write's commit the task of each bot whose seat has something to do (games.play.turns calls
`after_commit`). A game that seats bots lists them in its server options, `options["bots"]` =
{user id: level}: a commit knows without a query whether a bot may have to move. The moves
themselves are use cases (games.play.bot_moves), run by Celery tasks on the bots' own queue."""

from __future__ import annotations

import math
import uuid
from datetime import datetime, timedelta, timezone as dt_timezone
from typing import AbstractSet, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from config import scheduling
from games import bots
from games.models import Game, Seat


PLAY_TURN = "games.tasks.play_bot_turn"
PLAY_TURNS = "games.tasks.play_bot_turns"
FILL_SEATS = "games.tasks.fill_seats_with_bots"
REAL_TIME = {"photoshoot"}  # acts at table speed; the others wait a human-like delay


def bot_levels(game: Game) -> dict[int, int]:
    """user id -> level of the bots seated in `game` (its server options: no query)."""
    return {int(uid): level for uid, level in (game.options or {}).get("bots", {}).items()}


def delay_for(game: Game) -> float:
    return settings.BOT_TABLE_DELAY_SECONDS if game.kind in REAL_TIME else settings.BOT_MOVE_DELAY_SECONDS


def send(game_id: str, seat: int, version: int, delay: float, owner: int, level: int = 3) -> bool:
    """Queue the bot's turn fairly (games.play.bot_queue), on behalf of `owner` (the game's
    creator), and wake the bots' worker when it falls due. Routed to the bots' queue by name
    (settings.TASK_QUEUES). Redis down: the turn goes as a task of its own, unqueued; broker
    down too: the bot's clock runs like anyone's, and its timeout plays for it."""
    from games.play import bot_queue

    due = _in(delay)
    if bot_queue.put(bot_queue.Turn(game_id, seat, version, owner, level), due):
        # One wake per slice of time, however many turns fall due in it (a table of four bots
        # queues four at once): a wake plays every due turn, and fewer wakes queued in the
        # broker ahead of another player's is less for the worker to fetch before it.
        at = _slice_end(due)
        if not scheduling.once(f"bots-wake:{at.timestamp():.2f}", delay + 60):
            return True
        return scheduling.send(PLAY_TURNS, [], eta=at)
    return scheduling.send(PLAY_TURN, [game_id, seat, version], eta=due)


# Turns falling due this close share one wake, sent for the end of their slice.
WAKE_SLICE_SECONDS = 0.25


def _slice_end(at: datetime) -> datetime:
    stamp = math.ceil(at.timestamp() / WAKE_SLICE_SECONDS) * WAKE_SLICE_SECONDS
    return datetime.fromtimestamp(stamp, tz=dt_timezone.utc)


def _in(seconds: float) -> datetime:
    return timezone.now() + timedelta(seconds=seconds)


def after_commit(game: Game, active: set[int], seats: dict[int, tuple[int, str]] | None) -> None:
    levels = bot_levels(game)
    if not levels or game.status != Game.Status.ACTIVE or not active:
        return  # the common case: no bot in the game, no query
    if seats is None:
        seats = {number: (uid, "") for number, uid in Seat.objects.filter(game=game).values_list("number", "user_id")}
    due = [seat for seat in sorted(active) if seat in seats and seats[seat][0] in levels]
    if due:
        game_id, version, delay, owner = str(game.pk), game.version, delay_for(game), game.creator_id
        level = {seat: levels[seats[seat][0]] for seat in due}
        transaction.on_commit(lambda: [send(game_id, seat, version, delay, owner, level[seat]) for seat in due])


def bot_account(level: int, busy: AbstractSet[int] = frozenset()):
    """A bot account of `level` not among `busy` (a game seats an account once): the oldest
    such, or a new one (no password; its name never taken from a person's). Only `is_bot`
    makes an account a bot: a person named like one is never seated as one."""
    if level not in bots.LEVELS:
        raise ValueError(f"no bot of level {level}")
    users = get_user_model().objects
    found = users.filter(is_bot=True, bot_level=level).exclude(pk__in=busy).order_by("pk").first()
    if found is not None:
        return found
    number = users.filter(is_bot=True, bot_level=level).count() + 1
    while True:
        name = f"computer-{bots.LEVEL_NAMES[level]}" + (f"-{number}" if number > 1 else "")
        if not users.filter(username__iexact=name).exists():
            break
        number += 1
    user = users.model(username=name, is_bot=True, bot_level=level)
    user.set_unusable_password()
    user.save()
    return user


def seat_bots(game: Game, levels: list[int], numbers: list[int]) -> list[Any]:
    """Seat a bot of each level at the given seat numbers; returns the bot accounts."""
    seated = set(Seat.objects.filter(game=game).values_list("user_id", flat=True))
    placed = []
    for number, level in zip(numbers, levels):
        user = bot_account(level, seated)
        seated.add(user.pk)
        Seat.objects.create(game=game, user=user, number=number)
        placed.append(user)
    return placed


def send_fill(game_id: uuid.UUID | str, level: int, after_seconds: int) -> None:
    """After commit: fill the open game's empty seats with bots in `after_seconds`."""
    key = str(game_id)  # a task's arguments are JSON
    transaction.on_commit(lambda: scheduling.send(FILL_SEATS, [key, level], eta=_in(after_seconds)))
