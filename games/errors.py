"""Typed errors with stable codes. Services raise them; one handler (games.api.errors) maps them to
HTTP, so every client sees `{"code", "detail"}` with the same status for the same cause."""
from __future__ import annotations

# The base and the errors every app raises live in config.errors (accounts raises them too, and
# accounts imports nothing of games); games' code names them from here.
from config.errors import DomainError, Forbidden, Invalid, NotFound  # noqa: F401


class IllegalMove(DomainError):
    status, code = 400, "illegal_move"


class UnavailableMove(DomainError):
    status, code = 400, "unavailable_move"


class NotAPlayer(DomainError):
    status, code = 403, "not_a_player"


class NotYourSeat(DomainError):
    status, code = 403, "not_your_seat"


class VersionConflict(DomainError):
    status, code = 409, "version_conflict"

    def __init__(self, current: int):
        super().__init__(f"the game is at version {current}; reload and decide again", version=current)
        self.current = current


class NotYourTurn(DomainError):
    status, code = 409, "not_your_turn"


class GameNotActive(DomainError):
    status, code = 409, "game_not_active"


class GameNotOpen(DomainError):
    status, code = 409, "game_not_open"


class GameFull(DomainError):
    status, code = 409, "game_full"


class AlreadyJoined(DomainError):
    status, code = 409, "already_joined"


class WrongPlayerCount(DomainError):
    status, code = 409, "wrong_player_count"


class IdempotencyMismatch(DomainError):
    status, code = 422, "idempotency_mismatch"


class NotYet(DomainError):
    """Asked too early: a silent seat's claim before the inactivity period has run."""

    status, code = 409, "not_yet"


class InvitationClosed(DomainError):
    status, code = 409, "invitation_closed"


class AlreadyExists(DomainError):
    status, code = 409, "already_exists"


class GameNotFinished(DomainError):
    status, code = 409, "game_not_finished"


class Throttled(DomainError):
    """A rate limit of ours (chat): `retry_after` seconds."""

    status, code = 429, "throttled"


class TooManyDisputes(DomainError):
    """A player's dispute limit in one game (count or cooldown): `retry_after` seconds."""

    status, code = 429, "throttled"


class GamesInProgress(DomainError):
    """An account cannot be deleted while it holds a seat in an open or active game (`games`)."""

    status, code = 409, "games_in_progress"
