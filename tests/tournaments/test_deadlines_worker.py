"""A round's deadline kept by the real worker (docs/tournaments.md, "Round deadlines"): nobody calls
the use case here. Two players who never move sit at a timed Swiss; once a round's hours are up,
the worker's beat (tournaments_due, every sweep) settles the game by its timeout policy and opens
the next round, and the last round's deadline ends the tournament.

A round lasts whole hours: the test moves the round's start back past them, as if they had gone
by, and leaves the rest to the worker."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from accounts.models import User
from games.community import tournament_lifecycle, tournament_registration, tournament_standings
from games.models import Game, Tournament, TournamentRound
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture
def worker(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        purge_queue()
        w = Worker(sweep_seconds=0.5).start()
    yield w
    w.stop()
    purge_queue()


def sweeps(worker: Worker) -> int:
    """How many times the worker's beat has run tournaments_due to its end."""
    return len(re.findall(r"games\.tasks\.tournaments_due\[[^\]]+\] succeeded", worker.output()))


def the_hours_go_by(t: Tournament, number: int) -> None:
    rnd = TournamentRound.objects.get(tournament=t, number=number)
    TournamentRound.objects.filter(pk=rnd.pk).update(started_at=rnd.started_at - timedelta(hours=t.round_hours))


def game_of_round(t: Tournament, number: int) -> Game:
    return Game.objects.get(tournament_table__round__tournament=t, tournament_table__round__number=number)


def test_the_workers_sweep_settles_a_round_whose_deadline_passed_and_opens_the_next(worker):
    boss = User.objects.create_user("organiser", password="x")
    t = tournament_lifecycle.create(
        boss, "Timed Swiss", "duel", "swiss", 2, rounds=2, round_hours=2, options={"timeout_policy": "forfeit"}
    )
    for name in ("ann", "bob"):
        tournament_registration.register(t.pk, User.objects.create_user(name, password="x"))
    tournament_lifecycle.start(t.pk, boss)
    first = game_of_round(t, 1)
    (waited_on,) = first.active_seats

    # Within its hours the sweeps leave the round alone.
    seen = sweeps(worker)
    assert wait_for(lambda: sweeps(worker) >= seen + 2, timeout=30), worker.output()
    first.refresh_from_db()
    t.refresh_from_db()
    assert first.status == "active" and t.current_round == 1

    the_hours_go_by(t, 1)
    wait_for(lambda: Tournament.objects.get(pk=t.pk).current_round == 2, timeout=30) or pytest.fail(worker.output())
    first.refresh_from_db()
    assert first.status == "finished"
    assert first.result["settled"] == {"by": None, "reason": "round_deadline"}
    assert first.result["places"][waited_on] == 2 and first.result["winners"] == [1 - waited_on]
    second = game_of_round(t, 2)
    assert second.status == "active" and second.pk != first.pk

    the_hours_go_by(t, 2)
    wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "finished", timeout=30) or pytest.fail(worker.output())
    second.refresh_from_db()
    assert second.result["settled"]["reason"] == "round_deadline"
    ranked = tournament_standings.standings(Tournament.objects.get(pk=t.pk))
    assert [s.points for s in ranked] == sorted((s.points for s in ranked), reverse=True)
    assert sum(s.points for s in ranked) == 2  # each round's game was won by the seat that moved
