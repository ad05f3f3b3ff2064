"""Who may do what to a game: the few access checks, each in one place (tested once)."""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from games.errors import Forbidden, GamesInProgress, NotAPlayer, NotFound
from games.models import Game, Seat


# The game's row, with what a request needs beside it in the same statement (Game.objects.raw):
# the caller's seat; for a move, the table (seat -> (user id, username), and seat -> its user's
# vacations) and whether the caller has an unread turn notice there (a move marks it read).
_GAME = 'SELECT g.*'
_SEAT = ', (SELECT s.number FROM "games_seat" s WHERE s.game_id = g.id AND s.user_id = %s LIMIT 1) AS seat_found'
_TABLE = (
    ', (SELECT json_agg(json_build_array(s.number, s.user_id, u.username)) FROM "games_seat" s'
    ' JOIN "accounts_user" u ON u.id = s.user_id WHERE s.game_id = g.id) AS seats_found'
    ', (SELECT json_agg(json_build_array(s.number, v.start, v."end") ORDER BY v.start) FROM "accounts_vacation" v'
    ' JOIN "games_seat" s ON s.user_id = v.user_id WHERE s.game_id = g.id) AS vacations_found')
_UNREAD = (', EXISTS(SELECT 1 FROM "games_notification" n WHERE n.user_id = %s AND n.game_id = g.id'
           " AND n.type = 'your_turn' AND n.read_at IS NULL) AS unread_found")
_FROM = ' FROM "games_game" g WHERE g.id = %s'
_LOCK = " FOR UPDATE OF g"


@dataclass(frozen=True)
class Table:
    seats: dict[int, tuple[int, str]]
    vacations: dict[int, list[tuple[datetime, datetime]]]
    unread_turn_notice: bool | None = None  # None: not asked (no user)


def get_game(game_id, *, lock: bool = False, user=None, table: bool = False) -> Game:
    """The game (locked FOR UPDATE if `lock`); with `user`, their seat is read in the same query
    and `seat_of(game, user)` answers from it (one read of the game per request). With `table`,
    the seats and their vacations too (`game.table`), which a move needs for its clocks and
    notices: one statement rather than three on every move."""
    try:
        key = game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except (ValueError, TypeError, AttributeError):
        raise NotFound("no such game") from None
    known = user is not None and user.is_authenticated
    unread = table and known
    sql = (_GAME + (_SEAT if known else "") + (_TABLE if table else "") + (_UNREAD if unread else "")
           + _FROM + (_LOCK if lock else ""))
    params = [user.pk, *([user.pk] if unread else []), key] if known else [key]
    found = list(Game.objects.raw(sql, params))
    if not found:
        raise NotFound("no such game")
    game = found[0]
    if table:
        game.table = Table({number: (user_id, name) for number, user_id, name in _json(game.seats_found)}, {},
                           game.unread_found if unread else None)
        for number, start, end in _json(game.vacations_found):
            game.table.vacations.setdefault(number, []).append(
                (datetime.fromisoformat(start), datetime.fromisoformat(end)))
    if known:
        game._seat_known = (user.pk, game.seat_found)
    return game


def _json(value) -> list:
    return [] if value is None else json.loads(value) if isinstance(value, str) else value


def seat_of(game: Game, user) -> int | None:
    """The user's seat in the game, or None for a spectator (or an anonymous caller)."""
    if user is None or not user.is_authenticated:
        return None
    known = getattr(game, "_seat_known", None)
    if known is not None and known[0] == user.pk:
        return known[1]
    return Seat.objects.filter(game=game, user=user).values_list("number", flat=True).first()


def invited(game: Game, user) -> bool:
    """An invitation lets its user see a private game: pending (not expired) or accepted."""
    from django.utils import timezone

    from games.models import Invitation

    if user is None or not user.is_authenticated:
        return False
    return Invitation.objects.filter(
        Q(status=Invitation.Status.ACCEPTED) | Q(status=Invitation.Status.PENDING, expires_at__gt=timezone.now()),
        game=game, invitee=user).exists()


def may_see(game: Game, user) -> bool:
    """Everyone sees a public game (at no query's cost); a private one, its seats and invitees."""
    return not game.private or seat_of(game, user) is not None or invited(game, user)


def require_visible(game: Game, user) -> None:
    """A private game does not exist for anyone but its seats and invitees: 404, as for a game
    that is not there (a 403 would confirm it)."""
    if not may_see(game, user):
        raise NotFound("no such game")


def require_player(game: Game, user) -> int:
    seat = seat_of(game, user)
    if seat is None:
        if game.private and not invited(game, user):
            raise NotFound("no such game")
        raise NotAPlayer("you have no seat in this game")
    return seat


def require_creator(game: Game, user) -> None:
    if game.creator_id != user.pk:
        raise Forbidden("only the game's creator may do this")


def require_no_games_in_progress(user) -> None:
    """An account leaves only once it holds no seat in an open or active game (registered with
    accounts.personal_data.keep_while by GamesConfig.ready)."""
    playing = [str(pk) for pk in Game.objects.filter(
        seat_set__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).values_list("pk", flat=True)[:20]]
    if playing:
        raise GamesInProgress("leave or resign your open and active games first: " + ", ".join(playing),
                              games=playing)
