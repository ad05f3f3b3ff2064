"""Use cases of the bot players (docs/bots.md).

A bot is an account (`User.is_bot`, its level in `User.bot_level`). A game that seats bots lists
them in its server options, `options["bots"]` = {user id: level}: the commit of every write then
knows, without a query, whether a bot may have something to do. The bot's move goes through
`services.submit_move` like anyone's: expected version, idempotency key, the same validation,
clocks and notices.
"""
from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import access, bots, selectors, services, store
from games.errors import DomainError
from games.models import Game, Seat
from games.store import NewEvent

from .trigger import bot_levels

log = logging.getLogger(__name__)

FILL_SEATS = "games.botplay.tasks.fill_seats_with_bots"



def bot_account(level: int, busy: set[int] = frozenset()):
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


def send_fill(game_id: str, level: int, after_seconds: int) -> None:
    """After commit: fill the open game's empty seats with bots in `after_seconds`."""
    game_id = str(game_id)
    transaction.on_commit(lambda: current_app.send_task(
        FILL_SEATS, args=[game_id, level], queue=settings.BOTS_QUEUE, countdown=after_seconds))


@transaction.atomic
def fill_seats(game_id: str, level: int) -> str:
    """An open seek's wait is over: bots of `level` take its empty seats and the game starts.
    A game that started, filled or was cancelled meanwhile is left as it is."""
    game = access.get_game(game_id, lock=True)
    if game.status != Game.Status.OPEN:
        return game.status
    taken = set(Seat.objects.filter(game=game).values_list("number", flat=True))
    free = sorted(set(range(game.seats)) - taken)
    if not free:
        return "full"
    placed = seat_bots(game, [level] * len(free), free)
    game.options = {**game.options, "bots": {**game.options.get("bots", {}),
                                             **{str(b.pk): b.bot_level for b in placed}}}
    Game.objects.filter(pk=game.pk).update(options=game.options)
    store.append(game, game.version, [
        NewEvent(store.PLAYER_JOINED, {"seat": n, "user": b.pk, "username": b.username}, actor=n,
                 user_id=b.pk) for n, b in zip(free, placed)], timezone.now())
    services.start_game(game.pk, game.creator)
    return "started"


def play_turn(game_id: str, seat: int, version: int) -> str:
    """The bot at `seat` moves if the game is still at `version` (else a later write has sent a
    newer task). It reads what its seat may see through the same selectors as the API, decides,
    and submits through the same use case as a person. Returns what happened, for the log."""
    game = access.get_game(game_id)
    if game.status != Game.Status.ACTIVE or game.version != version:
        return "stale"
    levels = bot_levels(game)
    user_id = Seat.objects.filter(game=game, number=seat).values_list("user_id", flat=True).first()
    if user_id not in levels:
        return "not a bot"
    user = get_user_model().objects.get(pk=user_id)
    legal = selectors.legal_moves(game, user)
    if legal["version"] != version or not legal["moves"]:
        return "nothing to do"
    detail = selectors.detail(game, user)
    seen = selectors.log(game, user, after=max(0, version - 200), limit=200)["events"]
    move = bots.decide(game.kind, levels[user_id], seat=seat, view=detail["state"],
                       legal=legal["moves"], log=seen, options=game.options,
                       rules_version=game.rules_version, seed=f"{game_id}:{seat}:{version}",
                       budget=bots.Budget(iterations=10_000, seconds=settings.BOT_THINK_SECONDS))
    if move is None:
        return "passed"
    try:
        services.submit_move(game_id, user, move, version,
                             idempotency_key=f"bot:{game_id}:{seat}:{version}")
    except DomainError as error:  # the game moved on meanwhile: the newer write sent a task
        log.info("bot move in %s at %s not played: %s", game_id, version, error)
        return getattr(error, "code", "refused")
    return "moved"
