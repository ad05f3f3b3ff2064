"""Who may do what to a game: the few access checks, each in one place (tested once)."""
from __future__ import annotations

from django.core.exceptions import ValidationError

from games.errors import Forbidden, NotAPlayer, NotFound
from games.models import Game, Seat


def get_game(game_id, *, lock: bool = False) -> Game:
    qs = Game.objects.select_for_update() if lock else Game.objects
    try:
        return qs.get(pk=game_id)
    except (Game.DoesNotExist, ValidationError, ValueError):
        raise NotFound("no such game") from None


def seat_of(game: Game, user) -> int | None:
    """The user's seat in the game, or None for a spectator (or an anonymous caller)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).values_list("number", flat=True).first()


def require_player(game: Game, user) -> int:
    seat = seat_of(game, user)
    if seat is None:
        raise NotAPlayer("you have no seat in this game")
    return seat


def require_creator(game: Game, user) -> None:
    if game.creator_id != user.pk:
        raise Forbidden("only the game's creator may do this")
