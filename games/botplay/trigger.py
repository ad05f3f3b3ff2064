"""After every write's commit: send the task of each bot whose seat has something to do.

Domain level (games.turns calls it from its commit): it reads the game as written and the seats
the write already knows, and sends tasks only once the transaction has committed."""
from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.db import transaction

from games.models import Game, Seat

log = logging.getLogger(__name__)

PLAY_TURN = "games.botplay.tasks.play_bot_turn"
REAL_TIME = {"photoshoot"}  # acts at table speed; the others wait a human-like delay


def bot_levels(game: Game) -> dict[int, int]:
    """user id -> level of the bots seated in `game` (its server options: no query)."""
    return {int(uid): level for uid, level in (game.options or {}).get("bots", {}).items()}


def delay_for(game: Game) -> float:
    return (settings.BOT_TABLE_DELAY_SECONDS if game.kind in REAL_TIME
            else settings.BOT_MOVE_DELAY_SECONDS)


def send(game_id: str, seat: int, version: int, delay: float) -> bool:
    try:
        current_app.send_task(PLAY_TURN, args=[game_id, seat, version],
                              queue=settings.BOTS_QUEUE, countdown=delay)
        return True
    except Exception:  # broker down: the bot's clock runs like anyone's; its timeout plays for it
        log.warning("could not send the bot task for %s seat %s", game_id, seat, exc_info=True)
        return False


def after_commit(game: Game, active: set[int], seats: dict[int, tuple[int, str]] | None) -> None:
    levels = bot_levels(game)
    if not levels or game.status != Game.Status.ACTIVE or not active:
        return  # the common case: no bot in the game, no query
    if seats is None:
        seats = {number: (uid, "") for number, uid in
                 Seat.objects.filter(game=game).values_list("number", "user_id")}
    due = [seat for seat in sorted(active) if seat in seats and seats[seat][0] in levels]
    if due:
        game_id, version, delay = str(game.pk), game.version, delay_for(game)
        transaction.on_commit(lambda: [send(game_id, seat, version, delay) for seat in due])
