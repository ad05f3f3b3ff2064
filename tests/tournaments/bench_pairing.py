"""Pairing a Swiss round of 100 and of 1,000 players (`make bench`; figures in docs/tournaments.md).
Each size plays 7 rounds with random results; every round is timed and checked for rematches."""

from __future__ import annotations

import random
import time

import pytest

from games.tournaments.pairing import round_robin_tables, swiss_pairs, swiss_tables
from games.tournaments.standings import Bye, Table

from .helpers import RESULTS, played, rematches


@pytest.mark.bench
@pytest.mark.parametrize("n", [100, 1000])
def test_swiss_round(n):
    rng = random.Random(n)
    players = [f"p{i}" for i in range(n)]
    history, times = [], []
    for number in range(1, 8):
        start = time.perf_counter()
        rnd = swiss_pairs(players, history, "bench")
        times.append(time.perf_counter() - start)
        assert rematches(rnd, history) == 0
        history += played(rnd, number, lambda t: rng.choice(RESULTS))
    print(
        f"\nswiss 2-player, {n} players: rounds 1-7 paired in "
        + ", ".join(f"{t:.2f}" for t in times)
        + f" s (max {max(times):.2f} s)"
    )


@pytest.mark.bench
@pytest.mark.parametrize("n", [100, 1000])
def test_swiss_tables_round(n):
    rng = random.Random(n)
    players = [f"p{i}" for i in range(n + 1)]  # one bye a round
    history, times = [], []
    for number in range(1, 8):
        start = time.perf_counter()
        rnd = swiss_tables(players, history, "bench", 4)
        times.append(time.perf_counter() - start)
        history += [Table(number, t, tuple(rng.sample(range(1, 5), 4))) for t in rnd.tables]
        history += [Bye(number, p) for p in rnd.byes]
    print(f"\nswiss 4-seat tables, {n + 1} players: max {max(times):.2f} s a round")


@pytest.mark.bench
def test_round_robin_tables():
    start = time.perf_counter()
    rounds = round_robin_tables([f"p{i}" for i in range(24)], 4, "bench", smallest=3)
    print(f"\nround robin, 24 players at 4 seats: {len(rounds)} rounds found in {time.perf_counter() - start:.2f} s")


@pytest.mark.bench
@pytest.mark.django_db
def test_creating_a_round_of_500_games():
    """A Swiss's first round of 1,000 players: its 500 games created, seated and started in one
    transaction through the tournament's use case (games.community.tournament_lifecycle.start)."""
    from accounts.models import User
    from games.community import tournament_lifecycle
    from games.models import Game, Registration

    boss = User.objects.create_user("bench-organiser", password="x")
    t = tournament_lifecycle.create(boss, "Bench", "photograph", "swiss", 2, rounds=1, capacity=1000)
    users = User.objects.bulk_create([User(username=f"bench{i}") for i in range(1000)])
    Registration.objects.bulk_create([Registration(tournament=t, user=u) for u in users])
    start = time.perf_counter()
    tournament_lifecycle.start(t.pk, boss)
    took = time.perf_counter() - start
    assert Game.objects.filter(tournament_table__round__tournament=t, status="active").count() == 500
    print(f"\na round of 500 games created and started in {took:.2f} s")
