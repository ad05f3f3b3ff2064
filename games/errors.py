"""Typed errors with stable codes. Services raise them; one handler (games.api.errors) maps them to
HTTP, so every client sees `{"code", "detail"}` with the same status for the same cause."""

from __future__ import annotations

from typing import Any

# The base and the errors every app raises live in config.errors (accounts raises them too, and
# accounts imports nothing of games); games' code names them from here.
from config.errors import DomainError, Forbidden, Invalid, NotFound  # noqa: F401
from django.utils.translation import gettext, pgettext_lazy

from games.engines.base import Refusal

# Statuses as the refusals word them ("the game is finished"): the status field itself keeps its
# code. One context each, as a game, an invitation and a dispute differ in gender in French and German.
GAME_STATUS = {
    "open": pgettext_lazy("the game is", "open"),
    "active": pgettext_lazy("the game is", "active"),
    "finished": pgettext_lazy("the game is", "finished"),
    "cancelled": pgettext_lazy("the game is", "cancelled"),
    "aborted": pgettext_lazy("the game is", "aborted"),
}
INVITATION_STATUS = {
    "pending": pgettext_lazy("the invitation is", "pending"),
    "accepted": pgettext_lazy("the invitation is", "accepted"),
    "declined": pgettext_lazy("the invitation is", "declined"),
    "cancelled": pgettext_lazy("the invitation is", "cancelled"),
    "expired": pgettext_lazy("the invitation is", "expired"),
}
DISPUTE_STATUS = {
    "open": pgettext_lazy("the dispute is", "open"),
    "upheld": pgettext_lazy("the dispute is", "upheld"),
    "dismissed": pgettext_lazy("the dispute is", "dismissed"),
}


def worded(statuses: dict, status: str) -> str:
    """A status in the reader's words (its code where there are none)."""
    return str(statuses.get(status, status))


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
        super().__init__(
            gettext("the game is at version %(current)s; reload and decide again") % {"current": current},
            version=current,
        )
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


class TooManyBotGames(DomainError):
    """An account's games with bots, open or in progress, are at BOT_GAMES_PER_USER."""

    status, code = 429, "too_many_bot_games"


class TooManyInvitations(DomainError):
    """A user's invitations sent in the last 24 hours would pass INVITATIONS_PER_DAY."""

    status, code = 429, "too_many_invitations"


def in_words(text: str) -> str:
    """What an engine said (its English: a Refusal with its template and arguments, or a plain
    message) in the reader's language. The engines know no Django; their messages are in the
    server's catalogs all the same (games' makemessages marks the calls that raise them)."""
    if not text:
        return text  # gettext("") is the catalog's header
    if isinstance(text, Refusal):
        if not text.args:
            return gettext(text.template)
        return gettext(text.template) % {name: _in_words_argument(value) for name, value in text.args.items()}
    return gettext(text)


def said(value: Any) -> Any:
    """A view or a log entry with every engine message in it (a Refusal, as a Photoshoot verdict's
    faults) in the reader's language; the rest as it is."""
    if isinstance(value, Refusal):
        return in_words(value)
    if isinstance(value, dict):
        return {key: said(item) for key, item in value.items()}
    if isinstance(value, list):
        return [said(item) for item in value]
    return value


def _in_words_argument(value):
    if isinstance(value, Refusal):
        return in_words(value)
    if isinstance(value, list) and value and all(isinstance(item, Refusal) for item in value):
        return "; ".join(in_words(item) for item in value)
    return value


class TooManyTournaments(DomainError):
    """An account's tournaments (organised, or registered for) not yet over are at their limit."""

    status, code = 429, "too_many_tournaments"


class TournamentClosed(DomainError):
    """Registration, withdrawal or the start asked of a tournament past that stage."""

    status, code = 409, "tournament_closed"
