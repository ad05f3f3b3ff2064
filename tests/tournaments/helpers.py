"""Playing rounds out on paper: results drawn by hypothesis (or a rule), recorded as history."""

from __future__ import annotations

from itertools import combinations

from games.tournaments.pairing import Round
from games.tournaments.standings import Bye, Event, Table

RESULTS = [(1, 2), (2, 1), (1, 1)]  # first seat wins, second seat wins, a draw


def played(rnd: Round, number: int, results) -> list[Event]:
    """`rnd` as history, each table's places given by `results(table)`."""
    return [Table(number, t, results(t)) for t in rnd.tables] + [Bye(number, p) for p in rnd.byes]


def rematches(rnd: Round, history) -> int:
    met = {frozenset(pair) for e in history if isinstance(e, Table) for pair in combinations(e.players, 2)}
    return sum(frozenset(t) in met for t in rnd.tables)


def perfect_matchings(items: list):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for m in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *m]
