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

from django.conf import settings
from django.contrib.auth import get_user_model

from games import access, bots, selectors, services
from games.errors import DomainError
from games.models import Game, Seat

from .trigger import bot_levels

log = logging.getLogger(__name__)



def bot_account(level: int):
    """The site's bot account of `level` (created on first use): no password, marked a bot."""
    if level not in bots.LEVELS:
        raise ValueError(f"no bot of level {level}")
    user, created = get_user_model().objects.get_or_create(
        username=f"computer-{bots.LEVEL_NAMES[level]}",
        defaults={"is_bot": True, "bot_level": level})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def seat_bots(game: Game, levels: list[int], first_seat: int) -> list[Any]:
    """Seat a bot of each level from `first_seat` on; returns the bot accounts."""
    placed = []
    for offset, level in enumerate(levels):
        user = bot_account(level)
        Seat.objects.create(game=game, user=user, number=first_seat + offset)
        placed.append(user)
    return placed


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
