"""Taking a place in a tournament and leaving it (docs/tournaments.md): each public function one
transaction, under the tournament's row lock."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from games.community import social, tournament_lookup
from games.errors import AlreadyJoined, Forbidden, NotFound, TooManyTournaments, TournamentClosed
from games.models import Game, Registration, Tournament
from games.notifications import notify


def rating_of(user_id: int, kind: str) -> float:
    from accounts.models import Rating

    return Rating.objects.filter(user_id=user_id, kind=kind).values_list("rating", flat=True).first() or 0.0


def late_registration(tournament: Tournament) -> bool:
    """A Swiss takes players until its last round has begun: they join the next round on 0
    points. A round robin's schedule and a knockout's bracket are fixed at the start."""
    return (
        tournament.format == Tournament.Format.SWISS
        and tournament.status == Tournament.Status.RUNNING
        and tournament.current_round < (tournament.rounds or 0)
    )


@transaction.atomic
def register(tournament_id, user, code: Any = None) -> Registration:
    """Take a place: while registration is open (or late, in a Swiss), within the capacity and
    the minimum rating; a private tournament by its join link's code only."""
    tournament = tournament_lookup.get(tournament_id, lock=True)
    if (
        tournament.private
        and (not isinstance(code, str) or not secrets.compare_digest(code, tournament.join_code or ""))
        and not Registration.objects.filter(tournament=tournament, user=user).exists()
    ):
        raise NotFound(gettext("no such tournament"))
    if user.is_bot:
        raise Forbidden(gettext("bots take places only by filling tables"))
    if not (tournament.status == Tournament.Status.REGISTERING or late_registration(tournament)):
        raise TournamentClosed(gettext("registration for this tournament is closed"))
    if tournament.paused:
        raise TournamentClosed(gettext("the tournament is paused"))
    mine = Registration.objects.filter(tournament=tournament, user=user).first()
    if mine is not None and mine.withdrawn_at is None:
        raise AlreadyJoined(gettext("you are registered already"))
    if mine is not None:
        raise TournamentClosed(gettext("you left this tournament; you cannot come back to it"))
    rating = rating_of(user.pk, tournament.kind)
    if tournament.min_rating is not None and rating < tournament.min_rating:
        raise Forbidden(
            gettext("this tournament needs a %(kind)s rating of %(least)s; yours is %(rating)s")
            % {"kind": tournament.kind, "least": f"{tournament.min_rating:g}", "rating": f"{rating:g}"}
        )
    taken = Registration.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
    if taken >= tournament.capacity:
        raise TournamentClosed(gettext("all %(count)s places are taken") % {"count": tournament.capacity})
    limit = settings.TOURNAMENT_REGISTRATIONS_PER_USER
    if (
        Registration.objects.filter(
            user=user, withdrawn_at__isnull=True, tournament__status__in=tournament_lookup.OPEN
        ).count()
        >= limit
    ):
        raise TooManyTournaments(
            gettext("at most %(limit)s tournaments at once: withdraw from one or wait for its end") % {"limit": limit},
            limit=limit,
            retry_after=3600,
        )
    number = None
    if tournament.status == Tournament.Status.RUNNING:
        last = Registration.objects.filter(tournament=tournament).exclude(number=None).order_by("-number").first()
        number = (last.number + 1) if last else 0
    registration = Registration.objects.create(tournament=tournament, user=user, number=number, rating=rating)
    outbox = notify.Outbox()
    tournament_lookup.notice(
        outbox,
        [user.pk],
        tournament,
        "registered",
        notify.Said(gettext_noop("You are registered for %(name)s"), name=tournament.name),
    )
    outbox.flush()
    return registration


def _forfeit_games(tournament: Tournament, user) -> int:
    """Resign the player's games in progress in this tournament (the others play on)."""
    games = list(
        Game.objects.filter(
            tournament_table__round__tournament=tournament, status=Game.Status.ACTIVE, seat_set__user=user
        ).values_list("pk", flat=True)
    )
    resigned = 0
    for game_id in games:
        try:
            social.resign(game_id, user)
            resigned += 1
        except Forbidden:  # out of that game already
            continue
    return resigned


@transaction.atomic
def withdraw(tournament_id, user) -> Registration:
    """Leave: before the start the place is given back (and may be taken again); once it runs,
    the player's games in progress are resigned and they are paired no more (they stay in the
    standings, and cannot come back)."""
    tournament = tournament_lookup.get(tournament_id, user=user, lock=True)
    return leave(tournament, user, removed=False)


def leave(tournament: Tournament, user, removed: bool) -> Registration:
    mine = Registration.objects.filter(tournament=tournament, user=user).first()
    if mine is None or mine.withdrawn_at is not None:
        raise NotFound(gettext("you are not registered"))
    if tournament.status not in tournament_lookup.OPEN:
        raise TournamentClosed(gettext("the tournament is over"))
    if tournament.status == Tournament.Status.REGISTERING and not removed:
        mine.delete()  # the place is given back; registering again takes a new one
        return mine
    mine.withdrawn_at, mine.removed = timezone.now(), removed
    mine.save(update_fields=["withdrawn_at", "removed"])
    if tournament.status == Tournament.Status.RUNNING:
        _forfeit_games(tournament, user)
    return mine
