"""A seat's move, judged in one transaction under the game row's lock: what fell due before it
arrived is settled first (games.play.deadlines), a retried request gets its first answer back
(Idempotency-Key), and the engine's refusals become the API's typed errors."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engines import base
from games.errors import GAME_STATUS, in_words, said, worded
from games.errors import (
    GameNotActive,
    IdempotencyMismatch,
    IllegalMove,
    Invalid,
    NotYourTurn,
    UnavailableMove,
    VersionConflict,
)
from games.models import Event, Game
from games.notifications import notify
from games.play import access, deadlines, turns
from games.play.kinds import engine_of

ENGINE_ERRORS = {
    base.GameOver: GameNotActive,
    base.NotYourTurn: NotYourTurn,
    base.UnavailableMove: UnavailableMove,
    base.IllegalMove: IllegalMove,
}


@dataclass(frozen=True)
class MoveResult:
    version: int
    state: dict[str, Any]
    replayed: bool = False


def request_hash(user, move: Any, expected_version: Any) -> str:
    body = json.dumps(
        {"user": user.pk, "move": move, "expected_version": expected_version}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(body.encode()).hexdigest()


def _replayed(game: Game, engine: base.Engine, user, seat: int, key: str, fingerprint: str) -> MoveResult | None:
    """The first answer to the caller's request retried with the same Idempotency-Key (None: a key
    new to this caller). Keys are scoped to the caller, so nobody can spend another's key."""
    first = Event.objects.filter(game=game, user=user, idempotency_key=key).first()
    if first is None:
        return None
    if first.request_hash != fingerprint:
        raise IdempotencyMismatch(gettext("this Idempotency-Key was used for a different request"))
    # One append writes all its events with one timestamp: the answer's version is the last of them.
    version = (
        Event.objects.filter(game=game, created_at=first.created_at)
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
        or first.seq
    )  # `first` is among them
    return MoveResult(version, said(engine.view(turns.started_at(game, version), seat)), replayed=True)


def submit_move(game_id, user, move: Any, expected_version: Any, idempotency_key: str | None = None) -> MoveResult:
    """Judge a seat's move. What fell due before it arrived is settled first, in its own
    transaction, so an expiry stands even when the late move is then refused. The game row is
    read once (locked); only a game with a deadline due takes the extra round."""
    for _ in range(2):
        with transaction.atomic():
            game = access.get_game(game_id, lock=True, user=user, table=True)
            now = timezone.now()
            if deadlines.is_due(game, now):
                deadlines.expire(game, now)
                continue  # commit the expiry; judge the move on the game as it now stands
            return _judge_move(game, user, move, expected_version, idempotency_key)
    with transaction.atomic():
        return _judge_move(
            access.get_game(game_id, lock=True, user=user, table=True), user, move, expected_version, idempotency_key
        )


def _judge_move(game: Game, user, move, expected_version, idempotency_key) -> MoveResult:
    """In the caller's transaction, with the game row locked."""
    seat = access.require_player(game, user)
    engine = engine_of(game)
    fingerprint = request_hash(user, move, expected_version)
    if idempotency_key is not None:
        replayed = _replayed(game, engine, user, seat, idempotency_key, fingerprint)
        if replayed is not None:
            return replayed
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise Invalid(gettext("expected_version must be a whole number"))
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(gettext("the game is %(status)s") % {"status": worded(GAME_STATUS, game.status)})
    if expected_version != game.version:
        raise VersionConflict(game.version)
    turn = turns.as_read(game, engine, timezone.now())
    # A deadline may have fallen since submit_move's check: settle it at this turn's instant, so no
    # move is judged past an unsettled deadline (Photoshoot's hourglass). Should the move then be
    # refused, this rolls back with it and the timer task applies it.
    turn.settle()
    try:
        turn.play(seat, move, user_id=user.pk, key=idempotency_key, request_hash=fingerprint)
    except base.EngineError as error:
        raise ENGINE_ERRORS.get(type(error), IllegalMove)(in_words(error.detail)) from None
    turn.settle()
    table = getattr(game, "table", None)
    # The mover's turn notice is read with the move's own write; no UPDATE when the read saw none.
    read = [notify.turn_notices_read(game, user)] if table is None or table.unread_turn_notice is not False else []
    turn.commit(expected_version, also=read)
    return MoveResult(game.version, said(engine.view(turn.started, seat)))
