"""Staff's hand on a tournament (docs/tournaments.md, "Staff"): hold it, remove a player, settle a
game. Each is one transaction under the tournament's row lock and needs the
games.change_tournament permission; the organiser has none of these."""

from __future__ import annotations

import logging
from typing import Any, Callable

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.community import tournament_lookup, tournament_registration, tournament_rounds
from games.errors import GAME_STATUS, Forbidden, GameNotActive, Invalid, NotFound, worded
from games.models import Game, Registration, Seat, Tournament, TournamentTable
from games.notifications import notify
from games.play import clocks, store, turns
from games.play.kinds import engine_of
from games.play.store import NewEvent

log = logging.getLogger(__name__)

REASON_MAX = 200


def _staff(user, refusal: str) -> None:
    if not (user.is_active and user.is_staff and user.has_perm("games.change_tournament")):
        raise Forbidden(refusal)


@transaction.atomic
def remove_player(tournament_id, staff_user, user_id: int) -> Registration:
    """Staff remove a player: as a withdrawal (their games in progress resigned), marked removed."""
    _staff(staff_user, gettext("removing a player needs the games.change_tournament permission"))
    tournament = tournament_lookup.get(tournament_id, lock=True)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        raise NotFound(gettext("no such player"))
    return tournament_registration.leave(tournament, user, removed=True)


@transaction.atomic
def set_paused(tournament_id, staff_user, paused: bool) -> Tournament:
    """Staff hold a tournament: its games go on, but no next round opens until it is unpaused
    (then it opens at once if the round is over)."""
    _staff(staff_user, gettext("pausing a tournament needs the games.change_tournament permission"))
    tournament = tournament_lookup.get(tournament_id, lock=True)
    tournament.paused = bool(paused)
    tournament.save(update_fields=["paused"])
    if not tournament.paused and tournament.status == Tournament.Status.RUNNING:
        tournament_rounds.advance(tournament)
    return tournament


def _stated(places: Any, seats: int, teams: list[list[int]] | None) -> list[int]:
    """The places as staff state them: one a seat, each from 1 to the number of seats, and the
    same for every member of a team (a team game places its teams)."""
    if not (
        isinstance(places, list) and len(places) == seats and all(type(p) is int and 1 <= p <= seats for p in places)
    ):
        raise Invalid(
            gettext("places must list one whole number from 1 to %(seats)s for each of the %(seats)s seats")
            % {"seats": seats}
        )
    for team in teams or []:
        if len({places[s] for s in team}) > 1:
            raise Invalid(gettext("the members of a team share one place"))
    return list(places)


@transaction.atomic
def settle_game(tournament_id, staff_user, game_id, places: Any, reason: Any = "") -> Game:
    """Staff end a tournament game in progress with a stated result: the places they give, one a
    seat (a round held up by a game that cannot end in time, a dispute decided). The game is over
    at once, unrated, its clocks stopped; its log names the staff member and their reason, and
    the tournament moves on as when a game ends by its own play."""
    _staff(staff_user, gettext("settling a game needs the games.change_tournament permission"))
    tournament = tournament_lookup.get(tournament_id, lock=True)
    if not isinstance(reason, str) or len(reason) > REASON_MAX:
        raise Invalid(gettext("reason must be a text of at most %(count)s characters") % {"count": REASON_MAX})
    try:
        table = TournamentTable.objects.filter(round__tournament=tournament, game_id=game_id).first()
    except (ValueError, ValidationError):
        table = None
    if table is None:
        raise NotFound(gettext("no such game in this tournament"))
    game = Game.objects.select_for_update().get(pk=table.game_id)
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(gettext("the game is %(status)s") % {"status": worded(GAME_STATUS, game.status)})
    end_game(
        tournament,
        game,
        lambda turn: _stated(places, game.seats, turn.engine.teams(turn.started)),
        staff_user,
        reason.strip(),
    )
    tournament_rounds.advance(tournament)
    return game


def end_game(tournament: Tournament, game: Game, places_of: Callable[[turns.Turn], list[int]], by, reason: str) -> None:
    """End the locked, active `game` with the places `places_of(its turn)` gives, written by `by`
    (a staff member, or None: the round's deadline). The caller moves the tournament on."""
    now = timezone.now()
    turn = turns.current(game, engine_of(game), now)
    places = places_of(turn)
    # The shape of any result (games.engines.base.make_result), without scores: none were played
    # to the end.
    result = {
        "scores": [],
        "places": places,
        "winners": [s for s, p in enumerate(places) if p == min(places)],
        "breakdown": None,
        "tie_break": None,
        "settled": {"by": by.username if by is not None else None, "reason": reason},
    }
    stopped = clocks.advance(game.clocks or {}, game.options, set(game.active_seats or []), set(), set(), now)
    rows = store.append(
        game,
        game.version,
        [
            NewEvent(
                store.GAME_FINISHED, {"result": result, "seed": turn.seed}, user_id=by.pk if by is not None else None
            )
        ],
        now,
        status=Game.Status.FINISHED,
        result=result,
        finished_at=now,
        active_seats=[],
        clocks=stopped,
        next_deadline=None,
        next_reminder=None,
    )
    players = list(Seat.objects.filter(game=game, user__is_bot=False).values_list("user_id", flat=True))
    notify.send(players, game, "finished", {"result": result}, seq=rows[-1].seq)
    log.info(
        "tournament %s: game %s settled by %s with places %s (%s)",
        tournament.pk,
        game.pk,
        by.username if by is not None else "its round's deadline",
        places,
        reason,
    )
