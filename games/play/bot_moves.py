"""Use cases of the bot players (docs/bots.md), each run by a Celery task (games.tasks).

A bot is an account (`User.is_bot`, its level in `User.bot_level`). A game that seats bots lists
them in its server options, `options["bots"]` = {user id: level}: the commit of every write then
knows, without a query, whether a bot may have something to do. The bot's move goes through
`moves.submit_move` like anyone's: expected version, idempotency key, the same validation,
clocks and notices.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import bots
from games.errors import DomainError
from games.models import Game, Seat
from games.play import access, lobby, moves, selectors, store
from games.play.bots import bot_levels, seat_bots
from games.play.store import NewEvent


log = logging.getLogger(__name__)


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
    if lobby.bot_games_in_progress(game.creator_id, excluding=game.pk) >= settings.BOT_GAMES_PER_USER:
        return "too many games with bots"  # the seek stays open for people (docs/bots.md)
    placed = seat_bots(game, [level] * len(free), free)
    game.options = {
        **game.options,
        "bots": {**game.options.get("bots", {}), **{str(b.pk): b.bot_level for b in placed}},
    }
    Game.objects.filter(pk=game.pk).update(options=game.options)
    store.append(
        game,
        game.version,
        [
            NewEvent(store.PLAYER_JOINED, {"seat": n, "user": b.pk, "username": b.username}, actor=n, user_id=b.pk)
            for n, b in zip(free, placed)
        ],
        timezone.now(),
    )
    lobby.start_game(game.pk, game.creator)
    return "started"


# How long one wake keeps playing due turns before it hands over to a new wake: well within the
# bots' queue's soft limit, with a level-3 move to spare.
WAKE_SECONDS = 10


def play_due_turns() -> int:
    """Play the due bot turns, fairest first (games.play.bot_queue), each charged to its owner;
    returns how many were played. Past WAKE_SECONDS it sends another wake for what is left."""
    from config import scheduling
    from games.play import bot_queue
    from games.play.bots import PLAY_TURNS

    started, played = time.monotonic(), 0
    while time.monotonic() - started < WAKE_SECONDS:
        claim = bot_queue.take()
        if claim is None:
            return played
        turn, began = claim.turn, time.monotonic()
        try:
            outcome = play_turn(turn.game_id, turn.seat, turn.version)
        except Exception:  # one game's trouble is not the other turns': logged, and on to the next
            log.exception("bot turn %s failed", turn.member())
            outcome = "failed"
        finally:
            bot_queue.release(claim)
        bot_queue.charge(turn.owner, time.monotonic() - began)
        played += outcome != "stale"
    scheduling.send(PLAY_TURNS, [])
    return played


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
    move = bots.decide(
        game.kind,
        levels[user_id],
        seat=seat,
        view=detail["state"],
        legal=legal["moves"],
        log=seen,
        options=game.options,
        rules_version=game.rules_version,
        seed=f"{game_id}:{seat}:{version}",
        budget=bots.Budget(iterations=10_000, seconds=settings.BOT_THINK_SECONDS),
    )
    if move is None:
        return "passed"
    try:
        moves.submit_move(game_id, user, move, version, idempotency_key=f"bot:{game_id}:{seat}:{version}")
    except DomainError as error:  # the game moved on meanwhile: the newer write sent a task
        log.info("bot move in %s at %s not played: %s", game_id, version, error)
        return getattr(error, "code", "refused")
    return "moved"
