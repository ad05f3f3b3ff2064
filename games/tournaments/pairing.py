"""Pairings: Swiss, round robin and knockout (docs/tournaments.md, "Formats").

Every function is a pure function of the players (initial order: strongest first, by rating), the
history of the rounds played and the tournament's seed: the same arguments give the same round.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, combinations_with_replacement, islice, permutations

import networkx as nx

from .standings import Bye, Event, PlayerId, Scoring, Table, lot, points, standings


class PairingError(ValueError):
    """The round cannot be made (every player already had their bye, too few players...)."""


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[PlayerId, ...], ...]  # each in seat order
    byes: tuple[PlayerId, ...] = ()

    def events(self, number: int) -> list[Event]:
        """This round as history, its tables yet to be played."""
        return [Table(number, t) for t in self.tables] + [Bye(number, p) for p in self.byes]


def met_pairs(history: Sequence[Event]) -> set[frozenset[PlayerId]]:
    return {frozenset(pair) for e in history if isinstance(e, Table) for pair in combinations(e.players, 2)}


def next_round_number(history: Sequence[Event]) -> int:
    return max((e.round for e in history), default=0) + 1


# -- Swiss, 2-player ---------------------------------------------------------------------------
# Small fields are matched over every pair; larger ones first over each player's nearest WINDOW in
# the pairing order (where their best opponents are), and over every pair only when that cannot
# pair everyone without a rematch, so a rematch is only ever made when no matching avoids it.
# The blossom algorithm's time grows with the edges: 1,000 players, a window of 24 took up to 19 s
# a round, of 12 up to 6 s (docs/tournaments.md).
FULL_FIELD = 60
WINDOW = 12


def pairing_order(players: Sequence[PlayerId], pts: dict[PlayerId, Fraction]) -> list[PlayerId]:
    """Score groups from the top; within a group (in initial order) its top half meets its bottom
    half, 1st v (h+1)th, 2nd v (h+2)th (the Dutch way), so that ideal pairs sit side by side."""
    initial = {p: i for i, p in enumerate(players)}
    by_score: dict[Fraction, list[PlayerId]] = defaultdict(list)
    for p in sorted(players, key=lambda p: (-pts[p], initial[p])):
        by_score[pts[p]].append(p)
    order: list[PlayerId] = []
    for group in by_score.values():
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        for a, b in zip(top, bottom):
            order += [a, b]
        order += bottom[len(top) :]
    return order


def swiss_pairs(
    players: Sequence[PlayerId], history: Sequence[Event], seed: str, scoring: Scoring | None = None
) -> Round:
    """The next round of a 2-player Swiss. Lexicographically, the matching: pairs everyone (an
    odd field: one bye, to a player who has had none, the lowest scoring one it can be); makes as
    few rematches as possible; then keeps the score differences of the pairs as small as possible
    (the sum of their squares); then pairs within score groups the Dutch way."""
    scoring = scoring or Scoring.two_player()
    pts = points(players, history, scoring)
    order = pairing_order(players, pts)
    n = len(order)
    if n < 2:
        raise PairingError("a round needs at least two players")
    met = met_pairs(history)
    had_bye = {e.player for e in history if isinstance(e, Bye)}
    scale = math.lcm(*(v.denominator for v in pts.values()))
    low = min(pts.values())
    gap = int((max(pts.values()) - low) * scale) + 1
    b_unit = n * n + 1  # one step of squared score difference outweighs all of the Dutch terms
    d_max = gap * gap
    a_unit = b_unit * (d_max + 1) * (n + 1)  # one rematch outweighs every score difference

    def weight(i: int, j: int) -> int:
        p, q = order[i], order[j]
        d = int((pts[p] - pts[q]) * scale)
        fresh = frozenset((p, q)) not in met
        return a_unit * fresh + b_unit * (d_max - d * d) + (n - abs(i - j)) + 1

    bye_node = n

    def bye_weight(i: int) -> int:
        d = int((pts[order[i]] - low) * scale)
        return a_unit + b_unit * (d_max - d * d) + i + 1

    def solve(window: int | None) -> tuple[list[tuple[int, int]], bool]:
        graph = nx.Graph()
        graph.add_nodes_from(range(n + n % 2))
        for i in range(n):
            for j in range(i + 1, n if window is None else min(n, i + window + 1)):
                graph.add_edge(i, j, weight=weight(i, j))
        if n % 2:
            eligible = [i for i in range(n) if order[i] not in had_bye]
            if not eligible:
                raise PairingError("every player has had their bye")
            for i in eligible:
                graph.add_edge(i, bye_node, weight=bye_weight(i))
        matching = [tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)]
        complete = 2 * len(matching) == n + n % 2
        clean = all(j == bye_node or frozenset((order[i], order[j])) not in met for i, j in matching)
        return sorted(matching), complete and clean

    matching, good = solve(None if n <= FULL_FIELD else WINDOW)
    if not good and n > FULL_FIELD:
        matching, good = solve(None)
    if 2 * len(matching) != n + n % 2:
        raise PairingError("no pairing of every player exists")
    seats = _seat_counts(history)
    tables, byes = [], []
    for i, j in matching:
        if j == bye_node:
            byes.append(order[i])
        else:
            tables.append(_seat_pair(order[i], order[j], seats, next_round_number(history), seed))
    return Round(tuple(tables), tuple(byes))


def _seat_counts(history: Sequence[Event]) -> dict[PlayerId, list[int]]:
    """Per player, the seat (0 first) they had at each table, in round order."""
    seats: dict[PlayerId, list[int]] = defaultdict(list)
    for e in sorted((e for e in history if isinstance(e, Table)), key=lambda e: e.round):
        for seat, p in enumerate(e.players):
            seats[p].append(seat)
    return seats


def _seat_pair(
    a: PlayerId, b: PlayerId, seats: dict[PlayerId, list[int]], number: int, seed: str
) -> tuple[PlayerId, PlayerId]:
    """First seat to whoever has had it less often; then to whoever had the second seat last;
    then by lot."""

    def key(p: PlayerId) -> tuple:
        had = seats.get(p, [])
        return (had.count(0) - had.count(1), -(had[-1] if had else 0), lot(seed, number, p))

    return (a, b) if key(a) <= key(b) else (b, a)


# -- Swiss, tables -----------------------------------------------------------------------------
def table_sizes(n: int, size: int, smallest: int | None = None) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes: full tables, the rest at shorter tables
    when they can all have at least `smallest` seats, else byes."""
    smallest = smallest or size
    count = math.ceil(n / size)
    if count and n >= count * smallest:
        base, extra = divmod(n, count)
        return [base + 1] * extra + [base] * (count - extra), 0
    return [size] * (n // size), n % size


def seat_table(
    table: Sequence[PlayerId], seats: dict[PlayerId, list[int]], number: int, seed: str
) -> tuple[PlayerId, ...]:
    """Seat order balanced over the rounds: the order in which the players have sat least often in
    the seats they are given; among equal ones, whoever has sat furthest back on average sits
    earlier (then by lot)."""

    def lateness(p: PlayerId) -> Fraction:
        had = seats.get(p, [])
        return Fraction(sum(had), len(had)) if had else Fraction(0)

    preferred = sorted(table, key=lambda p: (-lateness(p), lot(seed, number, p)))
    if len(preferred) > 6:
        return tuple(preferred)

    def repeats(order: tuple[PlayerId, ...]) -> int:
        return sum(seats.get(p, []).count(s) for s, p in enumerate(order))

    return min(permutations(preferred), key=repeats)


def swiss_tables(
    players: Sequence[PlayerId],
    history: Sequence[Event],
    seed: str,
    size: int,
    scoring: Scoring | None = None,
    smallest: int | None = None,
) -> Round:
    """The next round of a multi-player Swiss: the standings cut into tables from the top (the
    leaders at table 1, the next at table 2); the odd ones out, from the bottom of the standings,
    have a bye if they have had none (a player who has moves up past them)."""
    scoring = scoring or Scoring.by_table(size)
    ranked = [s.player for s in standings(players, history, scoring, seed, two_player=size == 2)]
    sizes, bye_count = table_sizes(len(ranked), size, smallest)
    had_bye = {e.player for e in history if isinstance(e, Bye)}
    byes: list[PlayerId] = []
    for p in reversed(ranked):
        if len(byes) == bye_count:
            break
        if p not in had_bye:
            byes.append(p)
    if len(byes) < bye_count:
        raise PairingError("not enough players without a bye")
    seated = [p for p in ranked if p not in byes]
    number = next_round_number(history)
    seats = _seat_counts(history)
    tables, start = [], 0
    for s in sizes:
        tables.append(seat_table(seated[start : start + s], seats, number, seed))
        start += s
    return Round(tuple(tables), tuple(sorted(byes, key=ranked.index)))


# -- Round robin -------------------------------------------------------------------------------
def round_robin_pairs(players: Sequence[PlayerId], seed: str = "") -> list[Round]:
    """Every pair once, by the circle method: the first player stays, the others turn one place a
    round; an odd field has a bye each round (everyone once). The first seat goes to whoever has
    had it less often so far (then whoever sat second last, then by lot)."""
    ring: list[PlayerId | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    rounds = []
    seats: dict[PlayerId, list[int]] = defaultdict(list)
    for r in range(n - 1):
        tables, byes = [], []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
                continue
            table = _seat_pair(a, b, seats, r + 1, seed)
            tables.append(table)
        for table in tables:
            for s, p in enumerate(table):
                seats[p].append(s)
        rounds.append(Round(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def meetings(rounds: Sequence[Round], players: Sequence[PlayerId]) -> Counter:
    """How often each two players sat at one table (pairs that never did count 0)."""
    count: Counter = Counter({frozenset(pair): 0 for pair in combinations(players, 2)})
    for rnd in rounds:
        for table in rnd.tables:
            count.update(frozenset(pair) for pair in combinations(table, 2))
    return count


def balanced(rounds: Sequence[Round], players: Sequence[PlayerId]) -> bool:
    """Everyone met everyone, and the most and least often any two met differ by at most one."""
    count = meetings(rounds, players).values()
    return min(count) >= 1 and max(count) - min(count) <= 1


def round_robin_tables(
    players: Sequence[PlayerId],
    size: int,
    seed: str,
    smallest: int | None = None,
    max_rounds: int | None = None,
    steps: int = 4000,
) -> list[Round]:
    """A round robin at tables of `size` (3-5 seats) in as few rounds as the search finds: every
    two players meet, and the most and least often any two met differ by at most one. Tables are
    full where the numbers allow; the rest sit at tables of at least `smallest` seats (the game's
    least) or, failing that, sit out in turn.

    For each number of rounds from the least that could do, a schedule is built round by round
    (each round's seating makes the pairs who have met least meet now) and, if it is not balanced
    yet, improved by swapping two players between tables of one round while that does not make it
    worse (a seeded walk of `steps` swaps). The first balanced schedule found is the one; seats are
    then ordered so each player's seat is balanced over the rounds. When no schedule is found at
    `size`, smaller tables down to `smallest` are tried (nine players of a 5-seat game: three
    tables of three)."""
    for tables_of in range(size, (smallest or size) - 1, -1):
        try:
            return _round_robin_at(players, tables_of, seed, smallest, max_rounds, steps)
        except PairingError:
            continue
    raise PairingError("no balanced round robin found for these numbers")


def _round_robin_at(
    players: Sequence[PlayerId], size: int, seed: str, smallest: int | None, max_rounds: int | None, steps: int
) -> list[Round]:
    n = len(players)
    if n <= size:
        return [Round((tuple(players),))]
    sizes, bye_count = table_sizes(n, size, smallest)
    pairs_per_round = sum(s * (s - 1) // 2 for s in sizes)
    all_pairs = n * (n - 1) // 2
    least = max(math.ceil(all_pairs / pairs_per_round), math.ceil((n - 1) / (size - 1)))
    max_rounds = max_rounds or 4 * least + 4
    greedy = _greedy_rounds(players, sizes, bye_count, max_rounds, seed)
    for count in range(least, max_rounds + 1):
        schedule = [[list(t) for t in tables] for tables, _ in greedy[:count]]
        if not _balanced_tables(schedule, players):
            schedule = _walk(schedule, players, count * pairs_per_round, all_pairs, seed, steps)
        if schedule is None:
            # A small field whose byes the walk cannot move (it swaps seated players only): every
            # choice of `count` rounds is tried, when there are few enough to try them all.
            schedule = _every_schedule(players, sizes, count, seed)
        if schedule is not None:
            seats: dict[PlayerId, list[int]] = defaultdict(list)
            rounds = []
            for number, tables in enumerate(schedule, start=1):
                seated = tuple(seat_table(t, seats, number, seed) for t in tables)
                for t in seated:
                    for s, p in enumerate(t):
                        seats[p].append(s)
                sitting = {p for t in tables for p in t}
                rounds.append(Round(seated, tuple(p for p in players if p not in sitting)))
            return rounds
    raise PairingError("no balanced round robin found for these numbers")


EVERY_SCHEDULE_MOST = 50_000  # the most schedules `_every_schedule` tries, each a quick check
EVERY_SEATING_MOST = 60  # the most ways to seat one round that it looks through


def _every_schedule(
    players: Sequence[PlayerId], sizes: list[int], count: int, seed: str
) -> list[list[list[PlayerId]]] | None:
    """The first balanced schedule of `count` rounds among all of them (in an order drawn by lot
    from the seed, so the same seed gives the same schedule), or None when none is or when there
    are more than EVERY_SCHEDULE_MOST to try."""
    # Counted before they are listed: a larger field has millions of seatings. Seated by their
    # places in the field, whose order is the listing's, whatever the players' ids sort as.
    found = list(islice(_seatings(list(range(len(players))), sizes), EVERY_SEATING_MOST + 1))
    if len(found) > EVERY_SEATING_MOST or math.comb(len(found) + count - 1, count) > EVERY_SCHEDULE_MOST:
        return None
    named = [tuple(tuple(players[i] for i in table) for table in tables) for tables in found]
    seatings = sorted(named, key=lambda tables: lot(seed, 0, repr(tables)))
    for choice in combinations_with_replacement(range(len(seatings)), count):
        schedule = [[list(t) for t in seatings[i]] for i in choice]
        if _balanced_tables(schedule, players):
            return schedule
    return None


def _seatings(players: list[int], sizes: list[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to seat `players` at tables of `sizes` (the rest sitting out), each once, one at a
    time."""
    if not sizes:
        yield ()
        return
    for table in combinations(players, sizes[0]):
        rest = [p for p in players if p not in table]
        for others in _seatings(rest, sizes[1:]):
            # Tables of one size in one order only: the first player's table comes first.
            if others and len(others[0]) == len(table) and others[0] < table:
                continue
            yield (table, *others)


def _balanced_tables(schedule: list[list[list[PlayerId]]], players: Sequence[PlayerId]) -> bool:
    return balanced([Round(tuple(tuple(t) for t in tables)) for tables in schedule], players)


def _greedy_rounds(
    players: Sequence[PlayerId], sizes: list[int], bye_count: int, rounds: int, seed: str
) -> list[tuple[list[list[PlayerId]], list[PlayerId]]]:
    count: Counter = Counter()
    sat_out: Counter = Counter()
    out = []
    for number in range(1, rounds + 1):
        # Who sits out: whoever has sat out least (then by lot), so the byes go round.
        order = sorted(players, key=lambda p: (sat_out[p], lot(seed, number, p)))
        byes = order[:bye_count]
        playing = sorted(order[bye_count:], key=lambda p: lot(seed, number, "seat", p))
        tables = _improve([playing[sum(sizes[:k]) : sum(sizes[: k + 1])] for k in range(len(sizes))], count)
        for t in tables:
            count.update(frozenset(pair) for pair in combinations(t, 2))
        sat_out.update(byes)
        out.append((tables, byes))
    return out


def _walk(
    schedule: list[list[list[PlayerId]]], players: Sequence[PlayerId], total: int, all_pairs: int, seed: str, steps: int
) -> list[list[list[PlayerId]]] | None:
    """Swaps between tables of one round, kept when they do not raise the distance from balance
    (the meetings below the floor or above the ceiling of the average); None if balance is not
    reached within `steps`."""
    import random

    low, high = total // all_pairs, -(-total // all_pairs)
    if low < 1:
        return None
    rng = random.Random(lot(seed, "walk", len(schedule)))
    count: Counter = Counter({frozenset(pair): 0 for pair in combinations(players, 2)})
    for tables in schedule:
        for t in tables:
            count.update(frozenset(pair) for pair in combinations(t, 2))

    def off(c: int) -> int:
        return max(0, c - high) + max(0, low - c)

    bad = sum(off(c) for c in count.values())
    for _ in range(steps):
        if bad == 0:
            return schedule
        tables = rng.choice(schedule)
        if len(tables) < 2:
            return None
        a, b = rng.sample(range(len(tables)), 2)
        i, j = rng.randrange(len(tables[a])), rng.randrange(len(tables[b]))
        x, y = tables[a][i], tables[b][j]
        change: Counter = Counter()
        for o in tables[a]:
            if o != x:
                change[frozenset((x, o))] -= 1
                change[frozenset((y, o))] += 1
        for o in tables[b]:
            if o != y:
                change[frozenset((y, o))] -= 1
                change[frozenset((x, o))] += 1
        delta = sum(off(count[k] + d) - off(count[k]) for k, d in change.items())
        if delta <= 0:
            tables[a][i], tables[b][j] = y, x
            for k, d in change.items():
                count[k] += d
            bad += delta
    return schedule if bad == 0 else None


def _improve(tables: list[list[PlayerId]], count: Counter) -> list[list[PlayerId]]:
    """Swap players between tables while it lowers the cost of the meetings made (a pair that has
    met c times costs 4^c: one more meeting of a pair that met twice outweighs many first ones)."""

    def cost(table: list[PlayerId]) -> int:
        return sum(4 ** count[frozenset(pair)] for pair in combinations(table, 2))

    better = True
    while better:
        better = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    before = cost(tables[a]) + cost(tables[b])
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    if cost(tables[a]) + cost(tables[b]) < before:
                        better = True
                    else:
                        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return tables


# -- Knockout ----------------------------------------------------------------------------------
def bracket_positions(size: int) -> list[int]:
    """Seeds (1 strongest) in bracket order for a power-of-two `size`: 1 and 2 can meet only in the
    final, 1-4 only from the semi-finals, and each first-round pair adds up to size + 1."""
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def knockout_slots(seeded: Sequence[PlayerId]) -> list[tuple[PlayerId, ...]]:
    """Single elimination's first round for players in seed order (by rating, strongest first), in
    bracket order: a game (two players) or a bye (one). The bracket is the next power of two; its
    empty places are byes for the top seeds. The next round pairs the winners of slots 1-2, 3-4..."""
    n = len(seeded)
    if n < 2:
        raise PairingError("a knockout needs at least two players")
    size = 1 << (n - 1).bit_length()
    at = bracket_positions(size)
    return [tuple(seeded[s - 1] for s in (at[k], at[k + 1]) if s <= n) for k in range(0, size, 2)]


def knockout_first_round(seeded: Sequence[PlayerId]) -> Round:
    slots = knockout_slots(seeded)
    return Round(tuple(s for s in slots if len(s) == 2), tuple(s[0] for s in slots if len(s) == 1))


def knockout_next_round(winners: Sequence[PlayerId]) -> Round:
    """The next round from the previous round's winners (a bye's player wins it), in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError("a knockout round needs an even number of winners")
    return Round(tuple((winners[k], winners[k + 1]) for k in range(0, len(winners), 2)))


def knockout_tables(seeded: Sequence[PlayerId], size: int, smallest: int | None = None) -> Round:
    """A knockout round of multi-player tables for players in seed order: seeds dealt to the tables
    in a snake (1 to table 1, 2 to table 2 ... then back), so every table is as strong as another;
    players left over (fewer than a table, unless shorter tables are allowed) are the top seeds,
    who go through on a bye. Each table's top places go through (`knockout_through`)."""
    sizes, bye_count = table_sizes(len(seeded), size, smallest)
    if not sizes:
        raise PairingError("a knockout round needs a table's worth of players")
    byes, rest = list(seeded[:bye_count]), list(seeded[bye_count:])
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    forward = True
    while rest:
        for k in range(len(sizes)) if forward else reversed(range(len(sizes))):
            if rest and len(tables[k]) < sizes[k]:
                tables[k].append(rest.pop(0))
        forward = not forward
    return Round(tuple(tuple(t) for t in tables), tuple(byes))


def knockout_through(table: Table, through: int, seeded: Sequence[PlayerId]) -> list[PlayerId]:
    """The `through` best places of a played table; a tie across the cut goes to the better seed."""
    assert table.places is not None
    ranked = sorted(zip(table.places, table.players), key=lambda pp: (pp[0], seeded.index(pp[1])))
    return [p for _, p in ranked[:through]]
