"""Multi-player Swiss (the leaders at table 1, the next at table 2): tables of the kind's size,
at most one bye a player, seats balanced over the rounds."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as st

from games.tournaments.pairing import swiss_tables, table_sizes
from games.tournaments.standings import Bye, Scoring, Table, standings


def test_table_sizes():
    assert table_sizes(16, 4) == ([4, 4, 4, 4], 0)
    assert table_sizes(18, 4) == ([4, 4, 4, 4], 2)  # two byes
    assert table_sizes(18, 4, smallest=3) == ([4, 4, 4, 3, 3], 0)


@settings(max_examples=30, deadline=None)
@given(size=st.sampled_from([3, 4, 5]), n=st.integers(6, 30), data=st.data(), seed=st.text(max_size=3))
def test_rounds_seat_by_standing_with_one_bye_at_most(size, n, data, seed):
    players = [f"p{i}" for i in range(n)]
    scoring = Scoring.by_table(size)
    history = []
    # Rounds while the odd ones out can still have a bye each.
    rounds = min(size, n // (n % size)) if n % size else size
    for number in range(1, rounds + 1):
        rnd = swiss_tables(players, history, seed, size)
        assert rnd == swiss_tables(players, list(reversed(history)), seed, size)
        assert all(len(t) == size for t in rnd.tables) and len(rnd.byes) == n % size
        seated = [p for t in rnd.tables for p in t]
        assert sorted(seated + list(rnd.byes)) == sorted(players)
        ranked = [s.player for s in standings(players, history, scoring, seed, two_player=False)]
        # Table 1 holds the leaders, table 2 the next, and so on (byes aside).
        assert [sorted(t, key=ranked.index) for t in rnd.tables] == [
            sorted(seated, key=ranked.index)[k : k + size] for k in range(0, len(seated), size)
        ]
        history += [Table(number, t, tuple(data.draw(st.permutations(range(1, size + 1))))) for t in rnd.tables]
        history += [Bye(number, p) for p in rnd.byes]
    assert max(Counter(e.player for e in history if isinstance(e, Bye)).values(), default=1) == 1


def test_seats_go_round():
    # Four players at one table of four for four rounds: each sits in every seat once.
    players = ["A", "B", "C", "D"]
    history = []
    for number in range(1, 5):
        (table,) = swiss_tables(players, history, "seed", 4).tables
        history.append(Table(number, table, (1, 2, 3, 4)))
    for p in players:
        assert sorted(e.players.index(p) for e in history) == [0, 1, 2, 3]
