"""Round robin: every pair once at 2 players (the circle method); at 3-5 seats, a schedule in which
the most and least often any two players met differ by at most one."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import example, given, settings, strategies as st

from games.tournaments.pairing import balanced, meetings, round_robin_pairs, round_robin_tables


@given(n=st.integers(2, 24))
def test_two_player_round_robin_pairs_everyone_once(n):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_pairs(players)
    assert len(rounds) == n - 1 + n % 2
    assert set(meetings(rounds, players).values()) == {1}
    for rnd in rounds:
        seated = [p for t in rnd.tables for p in t] + list(rnd.byes)
        assert sorted(seated) == sorted(players)
    assert all(c == 1 for c in Counter(p for r in rounds for p in r.byes).values()), "a bye each, once"
    first = Counter(t[0] for r in rounds for t in r.tables)
    second = Counter(t[1] for r in rounds for t in r.tables)
    assert all(abs(first[p] - second[p]) <= 2 for p in players), "seats alternate"


@settings(max_examples=25, deadline=None)
@given(size=st.sampled_from([3, 4]), extra=st.integers(1, 12), seed=st.text(max_size=3))
@example(size=3, extra=2, seed="000")  # five at 3-seat tables: two sit out each round
def test_tables_meet_as_evenly_as_the_numbers_allow(size, extra, seed):
    players = [f"p{i}" for i in range(size + extra)]
    rounds = round_robin_tables(players, size, seed, smallest=3)
    count = meetings(rounds, players).values()
    assert min(count) >= 1 and max(count) - min(count) <= 1
    for rnd in rounds:
        seated = [p for t in rnd.tables for p in t] + list(rnd.byes)
        assert sorted(seated) == sorted(players)
        assert all(3 <= len(t) <= size for t in rnd.tables)
    assert round_robin_tables(players, size, seed, smallest=3) == rounds, "the same seed, the same schedule"


@pytest.mark.parametrize("n", [6, 8, 9, 10, 12, 16])
def test_five_seat_round_robins_are_balanced(n):
    players = [f"p{i}" for i in range(n)]
    rounds = round_robin_tables(players, 5, "seed", smallest=3)
    assert balanced(rounds, players)


def test_a_full_field_of_four_seats_sits_out_nobody():
    players = [f"p{i}" for i in range(12)]
    rounds = round_robin_tables(players, 4, "seed")
    assert all(len(t) == 4 for r in rounds for t in r.tables) and not any(r.byes for r in rounds)
    assert balanced(rounds, players)
