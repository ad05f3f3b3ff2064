"""Single elimination: seeded by rating, byes to the top seeds, the top two meet only in a final."""

from __future__ import annotations

from hypothesis import given, strategies as st

from games.tournaments.pairing import (
    bracket_positions,
    knockout_first_round,
    knockout_next_round,
    knockout_slots,
    knockout_tables,
    knockout_through,
)
from games.tournaments.standings import Table


def test_the_bracket_of_eight():
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_six_players_give_byes_to_the_top_two():
    rnd = knockout_first_round(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert rnd.byes == ("s1", "s2")
    assert set(rnd.tables) == {("s4", "s5"), ("s3", "s6")}


@given(n=st.integers(2, 80))
def test_favourites_meet_as_seeded(n):
    seeded = [f"s{i}" for i in range(1, n + 1)]
    slots = knockout_slots(seeded)
    size = 2 * len(slots)
    assert size >= n > size // 2 or n == size
    byes = [s[0] for s in slots if len(s) == 1]
    assert sorted(byes, key=seeded.index) == seeded[: size - n], "byes go to the top seeds"
    assert sorted(p for s in slots for p in s) == sorted(seeded)
    # The better seed always wins: the last four are the top four, the final is 1 v 2.
    rank = {p: i for i, p in enumerate(seeded)}
    rounds = [[s for s in slots if len(s) == 2]]
    winners = [min(s, key=rank.get) for s in slots]
    while len(winners) > 1:
        rounds.append(list(knockout_next_round(winners).tables))
        winners = [min(t, key=rank.get) for t in rounds[-1]]
    assert sorted(rounds[-1][0], key=rank.get) == seeded[:2]
    if n >= 4:
        assert sorted((p for t in rounds[-2] for p in t), key=rank.get) == seeded[:4]


def test_multi_player_tables_are_dealt_in_a_snake():
    rnd = knockout_tables([f"s{i}" for i in range(1, 13)], 4)
    assert rnd.tables == (("s1", "s6", "s7", "s12"), ("s2", "s5", "s8", "s11"), ("s3", "s4", "s9", "s10"))


@given(n=st.integers(3, 60), size=st.sampled_from([3, 4, 5]), through=st.integers(1, 2))
def test_multi_player_knockout_runs_to_one_table(n, size, through):
    seeded = [f"s{i}" for i in range(1, n + 1)]
    left, rounds = seeded, 0
    while len(left) > size:
        rnd = knockout_tables(left, size)
        assert sorted([*(p for t in rnd.tables for p in t), *rnd.byes]) == sorted(left), "everyone once"
        assert list(rnd.byes) == left[: len(rnd.byes)], "byes go to the top seeds"
        # The better seed always takes the better place: the top seeds go through.
        went = list(rnd.byes)
        for t in rnd.tables:
            places = tuple(sorted(t, key=seeded.index).index(p) + 1 for p in t)
            went += knockout_through(Table(1, t, places), through, seeded)
        left = sorted(went, key=seeded.index)
        rounds += 1
        assert rounds < 20
    assert seeded[0] in left
