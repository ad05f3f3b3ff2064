"""2-player Swiss: a matching over the whole field. No rematch while one can be avoided, then the
smallest score differences, at most one bye a player (to the lowest scorer it can be), and the
same history and seed give the same round."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from games.tournaments.pairing import PairingError, Round, swiss_pairs
from games.tournaments.standings import Bye, Scoring, Table, points

from .helpers import RESULTS, perfect_matchings, played, rematches

BYE = None


def cost(rnd: Round, history, players) -> tuple[int, int]:
    """(rematches, sum of squared score differences in half points), what the pairing minimises."""
    pts = points(players, history, Scoring.two_player())
    low = min(pts.values())
    spread = sum(int(2 * (pts[a] - pts[b])) ** 2 for a, b in rnd.tables)
    spread += sum(int(2 * (pts[p] - low)) ** 2 for p in rnd.byes)
    return rematches(rnd, history), spread


def best_cost(players, history) -> tuple[int, int]:
    """Every perfect matching of the field (with a bye for an odd one), by brute force."""
    had_bye = {e.player for e in history if isinstance(e, Bye)}
    field = list(players) + ([BYE] if len(players) % 2 else [])
    best = None
    for m in perfect_matchings(field):
        if any(BYE in pair and (pair[0] or pair[1]) in had_bye for pair in m):
            continue
        rnd = Round(tuple(p for p in m if BYE not in p), tuple(a or b for a, b in m if BYE in (a, b)))
        c = cost(rnd, history, players)
        best = c if best is None or c < best else best
    return best


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 8), data=st.data(), seed=st.text(max_size=4))
def test_every_round_is_the_best_matching_of_the_whole_field(n, data, seed):
    players = [f"p{i}" for i in range(n)]
    history = []
    for number in range(1, n):
        try:
            rnd = swiss_pairs(players, history, seed)
        except PairingError:
            # Only when every player has had their bye: an odd field can have no more rounds.
            assert n % 2 and all(any(isinstance(e, Bye) and e.player == p for e in history) for p in players)
            return
        seated = [p for t in rnd.tables for p in t] + list(rnd.byes)
        assert sorted(seated) == sorted(players), "everyone plays or has the bye, once"
        assert len(rnd.byes) == n % 2
        for p in rnd.byes:
            assert not any(isinstance(e, Bye) and e.player == p for e in history), "at most one bye a player"
        # No avoidable rematch, and within that the score groups kept as tight as any matching can.
        assert cost(rnd, history, players) == best_cost(players, history)
        # Same standings, history and seed: the same round, whatever order the history is told in.
        assert swiss_pairs(players, list(reversed(history)), seed) == rnd
        history += played(rnd, number, lambda t: data.draw(st.sampled_from(RESULTS)))


def test_round_one_pairs_top_half_against_bottom_half():
    players = [f"p{i}" for i in range(1, 9)]  # by rating, strongest first
    rnd = swiss_pairs(players, [], "seed")
    assert {frozenset(t) for t in rnd.tables} == {
        frozenset(("p1", "p5")),
        frozenset(("p2", "p6")),
        frozenset(("p3", "p7")),
        frozenset(("p4", "p8")),
    }


def test_score_groups_give_way_to_avoid_a_rematch():
    # After two rounds A and B lead on 2 points and have met; C and D have 0 and have met. Pairing
    # within the score groups would repeat both games, so the leaders cross over.
    players = ["A", "B", "C", "D"]
    history = [
        Table(1, ("A", "C"), (1, 2)),
        Table(1, ("B", "D"), (1, 2)),
        Table(2, ("A", "B"), (1, 1)),
        Table(2, ("C", "D"), (1, 1)),
    ]
    rnd = swiss_pairs(players, history, "seed")
    assert {frozenset(t) for t in rnd.tables} == {frozenset(("A", "D")), frozenset(("B", "C"))}


def test_a_rematch_only_when_no_pairing_avoids_one():
    # Three rounds of four players: everyone has met everyone, so round four must repeat games,
    # and the fewest: two (every pairing of four repeats two).
    players = ["A", "B", "C", "D"]
    history = [
        Table(1, ("A", "B"), (1, 2)),
        Table(1, ("C", "D"), (1, 2)),
        Table(2, ("A", "C"), (1, 2)),
        Table(2, ("B", "D"), (1, 2)),
        Table(3, ("A", "D"), (1, 2)),
        Table(3, ("B", "C"), (1, 2)),
    ]
    rnd = swiss_pairs(players, history, "seed")
    assert rematches(rnd, history) == 2
    # A (3) and B (2) v C (1) and D (0): score order still decides among the repeats.
    assert {frozenset(t) for t in rnd.tables} == {frozenset(("A", "B")), frozenset(("C", "D"))}


def test_the_bye_goes_to_the_lowest_scorer_without_one_and_is_worth_what_the_organiser_said():
    players = ["A", "B", "C", "D", "E"]
    history = [Table(1, ("A", "B"), (1, 2)), Table(1, ("C", "D"), (1, 2)), Bye(1, "E")]
    rnd = swiss_pairs(players, history, "seed")
    # E, B and D score lowest, but E had the bye (worth a win: 1 point) and B is above D in rating.
    assert rnd.byes == ("D",)
    assert points(players, history, Scoring.two_player(bye=Fraction(1, 2)))["E"] == Fraction(1, 2)


def test_first_seat_alternates():
    players = ["A", "B"]
    first = swiss_pairs(players, [], "seed").tables[0]
    second = swiss_pairs(players, [Table(1, first, (1, 1))], "seed").tables[0]
    assert second == (first[1], first[0])


def test_a_large_field_is_paired_without_avoidable_rematches():
    # Past 60 players the matching first looks at each player's nearest 12 in pairing order.
    rng = random.Random(7)
    players = [f"p{i}" for i in range(301)]
    history = []
    for number in range(1, 6):
        rnd = swiss_pairs(players, history, "seed")
        assert rematches(rnd, history) == 0
        assert len(rnd.byes) == 1 and not any(isinstance(e, Bye) and e.player == rnd.byes[0] for e in history)
        pts = points(players, history, Scoring.two_player())
        # Score groups respected: nobody floats further than one score group away.
        groups = sorted(set(pts.values()), reverse=True)
        assert all(abs(groups.index(pts[a]) - groups.index(pts[b])) <= 1 for a, b in rnd.tables)
        history += played(rnd, number, lambda t: rng.choice(RESULTS))
