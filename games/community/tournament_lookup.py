"""Tournaments (docs/tournaments.md): finding one, as each user may see it, and the notice every
use case sends its players. The use cases are in tournament_lifecycle (create, start, the worker's
part), tournament_registration (register, withdraw) and tournament_rounds (pairing a round, creating
its games, recording its places); the standings are tournament_standings'."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext

from games.errors import Invalid, NotFound
from games.models import Game, Tournament
from games.notifications import notify
from games.play.kinds import all_kinds
from games.realtime import news

OPEN = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


def get(tournament_id, user=None, lock: bool = False) -> Tournament:
    """The tournament; a private one is not there for anyone but its organiser, staff and its
    registered players (404, as for one that does not exist)."""
    try:
        key = tournament_id if isinstance(tournament_id, uuid.UUID) else uuid.UUID(str(tournament_id))
    except (ValueError, TypeError, AttributeError):
        raise NotFound(gettext("no such tournament")) from None
    found = Tournament.objects.select_for_update() if lock else Tournament.objects
    tournament = found.filter(pk=key).first()
    if tournament is None or (user is not None and not may_see(tournament, user)):
        raise NotFound(gettext("no such tournament"))
    if lock:
        # Locked only to be changed: its followers hear of it once the change commits (a refusal
        # rolls back and says nothing; a change that moved nothing costs them a read that sends
        # nothing).
        news.announce_tournament(tournament.pk)
    return tournament


def may_see(tournament: Tournament, user) -> bool:
    if not tournament.private:
        return True
    if not user.is_authenticated:
        return False
    return user.pk == tournament.organiser_id or user.is_staff or tournament.registrations.filter(user=user).exists()


def seen_by(user) -> Q:
    """The tournaments `user` may see (as `may_see`), for a query."""
    if user.is_staff:
        return Q()
    return Q(private=False) | Q(organiser=user) | Q(registrations__user=user)


def listed(kind: str | None = None, status: str | None = None):
    """Public tournaments, the ones to come and in progress first, newest first."""
    if kind is not None and kind not in all_kinds():
        raise Invalid(gettext("no game kind '%(kind)s'") % {"kind": kind})
    if status is not None and status not in Tournament.Status.values:
        raise Invalid(gettext("status must be one of %(values)s") % {"values": ", ".join(Tournament.Status.values)})
    found = Tournament.objects.filter(private=False)
    if kind:
        found = found.filter(kind=kind)
    if status:
        found = found.filter(status=status)
    return found.order_by("-created_at")


def notice(
    outbox: notify.Outbox,
    users,
    tournament: Tournament,
    event: str,
    what: notify.Said,
    game: Game | None = None,
    **data: Any,
) -> None:
    outbox.add(
        [u for u in users], game, "tournament", {"tournament": str(tournament.pk), "event": event, **data}, what=what
    )
