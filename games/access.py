"""Who may do what to a game: the few access checks, each in one place (tested once)."""
from __future__ import annotations

import uuid

from django.db.models import Q

from config import hotsql
from games.errors import Forbidden, NotAPlayer, NotFound
from games.models import Game, Seat


def get_game(game_id, *, lock: bool = False, user=None) -> Game:
    """The game (locked FOR UPDATE if `lock`); with `user`, their seat is read in the same query
    and `seat_of(game, user)` answers from it (one read of the game per request)."""
    try:
        key = game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except (ValueError, TypeError, AttributeError):
        raise NotFound("no such game") from None
    known = user is not None and user.is_authenticated
    # Every game endpoint runs this: SQL written once (config.hotsql), not compiled per call.
    seat = ', (SELECT s.number FROM "games_seat" s WHERE s.game_id = g.id AND s.user_id = %s LIMIT 1)' if known else ""
    found = hotsql.fetch(f'SELECT {hotsql.columns(Game, "g")}{seat} FROM "games_game" g WHERE g.id = %s'
                       f"{' FOR UPDATE OF g' if lock else ''}", [user.pk, key] if known else [key])
    if not found:
        raise NotFound("no such game")
    game = hotsql.load(Game, found[0])
    if known:
        game._seat_known = (user.pk, found[0][-1])
    return game


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


def require_visible(game: Game, user) -> None:
    """A private game does not exist for anyone but its seats and invitees: 404, as for a game
    that is not there (a 403 would confirm it). A public game costs no query here."""
    if game.private and seat_of(game, user) is None and not invited(game, user):
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
