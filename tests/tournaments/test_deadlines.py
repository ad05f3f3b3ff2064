"""A round's deadline (docs/tournaments.md, "Round deadlines"), on the tiny Duel: when a round's
`round_hours` are up, the beat settles its games still in progress by their own timeout policy,
and the tournament moves on. The beat's part, `overdue`, is called as the beat would, at a time
the test names."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.community import (
    social,
    tournament_deadlines,
    tournament_lifecycle,
    tournament_registration,
    tournament_standings,
)
from games.models import Event, Game, Tournament, TournamentRound
from games.play import store

pytestmark = pytest.mark.django_db


def running(policy: str, players: int = 2, rounds: int = 2, hours: int = 2):
    boss = User.objects.create_user("organiser", password="x")
    t = tournament_lifecycle.create(
        boss, "Timed Swiss", "duel", "swiss", 2, rounds=rounds, round_hours=hours, options={"timeout_policy": policy}
    )
    for i in range(players):
        tournament_registration.register(t.pk, User.objects.create_user(f"p{i}", password="x"))
    tournament_lifecycle.start(t.pk, boss)
    t.refresh_from_db()
    return t, list(TournamentRound.objects.get(tournament=t, number=1).tables.order_by("number"))


def test_under_the_forfeit_policy_the_seat_the_game_waits_on_loses_at_the_deadline():
    t, (table,) = running("forfeit")
    started = TournamentRound.objects.get(tournament=t, number=1).started_at
    assert tournament_deadlines.overdue(started + timedelta(hours=2) - timedelta(seconds=1)) == 0
    game = Game.objects.get(pk=table.game_id)
    (waited_on,) = game.active_seats
    assert tournament_deadlines.overdue(started + timedelta(hours=2)) == 1
    game.refresh_from_db()
    assert game.status == "finished" and game.result["places"][waited_on] == 2
    assert game.result["places"][1 - waited_on] == 1 and game.result["winners"] == [1 - waited_on]
    assert game.result["settled"] == {"by": None, "reason": "round_deadline"}
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert last.type == store.GAME_FINISHED and last.user_id is None
    t.refresh_from_db()
    assert t.current_round == 2  # the next round opened at once, its own two hours running


def test_under_auto_move_nobody_loses_by_time_the_game_is_a_draw():
    t, (table,) = running("auto_move", rounds=1)
    tournament_deadlines.overdue(timezone.now() + timedelta(hours=3))
    assert Game.objects.get(pk=table.game_id).result["places"] == [1, 1]
    t.refresh_from_db()
    assert t.status == "finished" and [s.points for s in tournament_standings.standings(t)] == [0.5, 0.5]


def test_a_game_over_before_the_deadline_keeps_its_result():
    t, tables = running("forfeit", players=4, rounds=1)
    first, second = tables
    social.resign(first.game_id, User.objects.get(pk=first.players[0]))
    tournament_deadlines.overdue(timezone.now() + timedelta(hours=3))
    kept = Game.objects.get(pk=first.game_id).result
    assert "settled" not in kept and kept["places"] == [2, 1]
    assert "settled" in Game.objects.get(pk=second.game_id).result
    t.refresh_from_db()
    assert t.status == "finished"


def test_no_deadline_while_paused_nor_without_round_hours():
    t, (table,) = running("forfeit")
    Tournament.objects.filter(pk=t.pk).update(paused=True)  # staff hold it (tournament_staff.set_paused)
    assert tournament_deadlines.overdue(timezone.now() + timedelta(days=365)) == 0
    Tournament.objects.filter(pk=t.pk).update(paused=False, round_hours=None)
    assert tournament_deadlines.overdue(timezone.now() + timedelta(days=365)) == 0
    assert Game.objects.get(pk=table.game_id).status == "active"
