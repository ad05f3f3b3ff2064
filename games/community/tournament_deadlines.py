"""A round's deadline (docs/tournaments.md, "Round deadlines"): a tournament created with
`round_hours` gives each round that long. When it is up, the beat settles the round's games still
in progress by their own timeout policy, and the tournament moves on as when a round's last game
ends. Each tournament in its own transaction, under its row lock."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.community import tournament_rounds, tournament_staff
from games.models import Game, Tournament, TournamentRound
from games.play import turns
from games.realtime import news

log = logging.getLogger(__name__)

# Kept in the result's `settled.reason` where staff write their own words: a code, not a sentence.
REASON = "round_deadline"


def by_policy(turn: turns.Turn) -> list[int]:
    """The places of a game the round's time ran out on. Under the `forfeit` policy a silent seat
    loses by its clock: the seats (or teams) the game is waiting on, and those already out, are
    placed after the others. Under `auto_move` the server would have moved for them and nobody
    loses by time: a draw. A game waiting on everyone is a draw too."""
    game, engine = turn.game, turn.engine
    if game.options.get("timeout_policy", "auto_move") != "forfeit":
        return [1] * game.seats
    late = set(game.active_seats or []) | set(engine.forfeited(turn.started))
    sides = engine.teams(turn.started) or [[s] for s in range(game.seats)]
    on_time = [side for side in sides if not set(side) & late]
    if not on_time or len(on_time) == len(sides):
        return [1] * game.seats
    places = [1 + len(on_time)] * game.seats
    for side in on_time:
        for seat in side:
            places[seat] = 1
    return places


def overdue(now: datetime | None = None) -> int:
    """Beat's part: settle the rounds whose time is up; how many rounds were settled."""
    now = now or timezone.now()
    settled = 0
    for pk in Tournament.objects.filter(
        status=Tournament.Status.RUNNING, paused=False, round_hours__isnull=False
    ).values_list("pk", flat=True)[:500]:
        try:
            with transaction.atomic():
                tournament = (
                    Tournament.objects.select_for_update(skip_locked=True)
                    .filter(pk=pk, status=Tournament.Status.RUNNING, paused=False)
                    .first()
                )
                if tournament is None or tournament.round_hours is None:
                    continue
                rnd = TournamentRound.objects.filter(
                    tournament=tournament, number=tournament.current_round, finished_at=None
                ).first()
                if rnd is None or rnd.started_at + timedelta(hours=tournament.round_hours) > now:
                    continue
                for table in rnd.tables.filter(game__status=Game.Status.ACTIVE).order_by("number"):
                    game = Game.objects.select_for_update().get(pk=table.game_id)
                    if game.status == Game.Status.ACTIVE:
                        tournament_staff.end_game(tournament, game, by_policy, None, REASON)
                tournament_rounds.advance(tournament)
                news.announce_tournament(tournament.pk)
                settled += 1
        except Exception:
            log.exception("the round deadline of tournament %s could not be kept", pk)
    return settled
