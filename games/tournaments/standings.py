"""Scores, tie-breaks and standings (docs/tournaments.md, "Scores" and "Tie-breaks").

A game is a `Table`: its players in seat order and, once played, each seat's place (1 is first;
equal places share). A 2-player game is a table of two: places (1, 2) is a win for the first seat,
(1, 1) a draw. Points come by place (`Scoring`); players on equal places share the points of the
places they cover, so a draw is worth half a win.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

PlayerId = str


@dataclass(frozen=True)
class Table:
    round: int
    players: tuple[PlayerId, ...]
    places: tuple[int, ...] | None = None  # None while it is being played

    def __post_init__(self) -> None:
        if self.places is not None and len(self.places) != len(self.players):
            raise ValueError("a table needs one place per seat")


@dataclass(frozen=True)
class Bye:
    """A round without a game for `player`, worth the scoring's `bye` points."""

    round: int
    player: PlayerId


Event = Table | Bye


@dataclass(frozen=True)
class Scoring:
    """Points by place; `by_place[0]` is the winner's. At a table with fewer seats than places, the
    last seat scores the last value (a short table's last place is still last)."""

    by_place: tuple[Fraction, ...]
    bye: Fraction

    @classmethod
    def two_player(cls, bye: Fraction | int = 1) -> Scoring:
        """Win 1, draw 1/2, loss 0; a bye is worth a win unless the organiser says otherwise."""
        return cls((Fraction(1), Fraction(0)), Fraction(bye))

    @classmethod
    def by_table(cls, size: int, bye: Fraction | int | None = None) -> Scoring:
        """2 points a place above last: +6/+4/+2/0 at four seats. A bye is worth the average
        points of a table (3 at four seats) unless the organiser says otherwise."""
        by_place = tuple(Fraction(2 * (size - place)) for place in range(1, size + 1))
        return cls(by_place, Fraction(bye) if bye is not None else sum(by_place, Fraction(0)) / size)

    def place_points(self, place: int, seats: int) -> Fraction:
        last = len(self.by_place)
        return self.by_place[-1] if place >= seats else self.by_place[min(place, last) - 1]

    def table_points(self, table: Table) -> dict[PlayerId, Fraction]:
        """Each seat's points; seats sharing a place share the points of the places they cover."""
        assert table.places is not None
        seats = len(table.players)
        order = sorted(table.places)
        out = {}
        for player, place in zip(table.players, table.places):
            covered = [i + 1 for i, p in enumerate(order) if p == place]
            out[player] = sum((self.place_points(i, seats) for i in covered), Fraction(0)) / len(covered)
        return out


def lot(seed: str, *key: object) -> str:
    """The drawing of lots: a stable order from the seed, the same on every machine."""
    return hashlib.sha256(":".join(map(str, (seed, *key))).encode()).hexdigest()


def finished(history: Iterable[Event]) -> list[Table]:
    return [e for e in history if isinstance(e, Table) and e.places is not None]


def points(players: Iterable[PlayerId], history: Iterable[Event], scoring: Scoring) -> dict[PlayerId, Fraction]:
    history = list(history)
    total: dict[PlayerId, Fraction] = {p: Fraction(0) for p in players}
    for table in finished(history):
        for player, value in scoring.table_points(table).items():
            total[player] = total.get(player, Fraction(0)) + value
    for event in history:
        if isinstance(event, Bye):
            total[event.player] = total.get(event.player, Fraction(0)) + scoring.bye
    return total


# -- Tie-breaks --------------------------------------------------------------------------------
# Each returns, per player, a value where larger is better (average place is negated).


def buchholz(pts: dict[PlayerId, Fraction], history: Sequence[Event], scoring: Scoring) -> dict[PlayerId, Fraction]:
    """The sum of the points of every opponent met (a bye adds nothing)."""
    out: dict[PlayerId, Fraction] = defaultdict(Fraction)
    for table in finished(history):
        for player in table.players:
            out[player] += sum((pts.get(o, Fraction(0)) for o in table.players if o != player), Fraction(0))
    return out


def sonneborn_berger(
    pts: dict[PlayerId, Fraction], history: Sequence[Event], scoring: Scoring
) -> dict[PlayerId, Fraction]:
    """The points of each opponent beaten, plus half the points of each opponent drawn: the
    opponent's points times the share of a win scored against them."""
    out: dict[PlayerId, Fraction] = defaultdict(Fraction)
    win = scoring.by_place[0]
    for table in finished(history):
        got = scoring.table_points(table)
        for player in table.players:
            for o in table.players:
                if o != player:
                    out[player] += pts.get(o, Fraction(0)) * got[player] / win
    return out


def direct_encounter(
    players: Sequence[PlayerId], tied: Sequence[Sequence[PlayerId]], history: Sequence[Event], scoring: Scoring
) -> dict[PlayerId, Fraction]:
    """Within each group of players still tied, the points each scored in the games among them;
    it decides only a group in which every two have met (otherwise it leaves them tied)."""
    out: dict[PlayerId, Fraction] = {p: Fraction(0) for p in players}
    tables = finished(history)
    for group in tied:
        if len(group) < 2:
            continue
        members = set(group)
        met = set()
        scored: dict[PlayerId, Fraction] = defaultdict(Fraction)
        for table in tables:
            if len(table.players) == 2 and set(table.players) <= members:
                met.add(frozenset(table.players))
                for player, value in scoring.table_points(table).items():
                    scored[player] += value
        if len(met) == len(members) * (len(members) - 1) // 2:
            for p in group:
                out[p] = scored[p]
    return out


def opponents_points(
    pts: dict[PlayerId, Fraction], history: Sequence[Event], scoring: Scoring
) -> dict[PlayerId, Fraction]:
    """Multi-player: the sum, over every table played, of the points of the others at it."""
    return buchholz(pts, history, scoring)


def average_place(history: Sequence[Event]) -> dict[PlayerId, Fraction]:
    """Multi-player: the mean place over the tables played, negated so that larger is better
    (a player yet to play a table has the worst)."""
    places: dict[PlayerId, list[int]] = defaultdict(list)
    for table in finished(history):
        for player, place in zip(table.players, table.places or ()):
            places[player].append(place)
    return defaultdict(lambda: Fraction(-(10**9)), {p: -Fraction(sum(v), len(v)) for p, v in places.items()})


TWO_PLAYER_ORDER = ("points", "buchholz", "sonneborn_berger", "direct_encounter", "lot")
MULTI_PLAYER_ORDER = ("points", "opponents_points", "average_place", "lot")


@dataclass(frozen=True)
class Standing:
    rank: int  # 1 is first; players the tie-breaks cannot part (never: the lot parts them) never share
    player: PlayerId
    points: Fraction
    tiebreaks: dict[str, Fraction]


def standings(
    players: Sequence[PlayerId], history: Sequence[Event], scoring: Scoring, seed: str, two_player: bool = True
) -> list[Standing]:
    """The standings in the published order: TWO_PLAYER_ORDER for 2-player games, else
    MULTI_PLAYER_ORDER; the last criterion, the lot drawn from the tournament's seed, parts
    everyone, so the order is total."""
    history = list(history)
    pts = points(players, history, scoring)
    values: dict[str, dict[PlayerId, Fraction]] = {"points": pts}
    if two_player:
        values["buchholz"] = buchholz(pts, history, scoring)
        values["sonneborn_berger"] = sonneborn_berger(pts, history, scoring)
        before = ("points", "buchholz", "sonneborn_berger")
        groups: dict[tuple, list[PlayerId]] = defaultdict(list)
        for p in players:
            groups[tuple(values[k][p] for k in before)].append(p)
        values["direct_encounter"] = direct_encounter(players, list(groups.values()), history, scoring)
        order = TWO_PLAYER_ORDER
    else:
        values["opponents_points"] = opponents_points(pts, history, scoring)
        values["average_place"] = average_place(history)
        order = MULTI_PLAYER_ORDER
    named = order[1:-1]

    def key(p: PlayerId) -> tuple:
        return tuple(-values[k][p] for k in order[:-1]) + (lot(seed, p),)

    ranked = sorted(players, key=key)
    return [Standing(i + 1, p, pts[p], {k: values[k][p] for k in named}) for i, p in enumerate(ranked)]
