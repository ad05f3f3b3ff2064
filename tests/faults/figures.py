"""The figures of the fault scenarios, printed by `make chaos`, each next to its target for
it and whether it was met: timer lateness (a TimerExpired event's commit time less its deadline);
after an outage, how long the clocks that fell due meanwhile took to fire once the service was
back; after a kill, the lateness of the clocks that fired after it; clocks lost and doubled.
Figures and judgements, not assertions: the suite asserts behaviour, `make chaos` reports speed
(on a shared or slow machine a target may be missed while every behaviour holds). One figure is
asserted besides, with a bound far above its target: the lateness of the games of hostile webhook
receivers (tests/faults/test_hostile_parties.py), whose clocks share nothing with outbound delivery
and would be seconds late only if a delivery ran on the timers' queue."""

from __future__ import annotations

import json
import os
from datetime import datetime

from games.models import Event

LINES: list[str] = []

# The targets, by figure: what must stay below its limit (seconds), or at it (counts).
LATENESS_P99 = "p99"  # every expiry's lateness, 99th percentile
CATCH_UP = "catch_up"  # the clocks due while a service was down: the last one's firing after its return
AFTER_KILL_P99 = "after_kill_p99"  # the clocks fired after a kill, late from their deadline or the kill
LOST, DOUBLED = "lost", "doubled"  # clocks that never fired, clocks that fired twice


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * p // 100) - 1))]


def judged(text: str, value: float, limit: float | None, count: bool = False) -> str:
    """`text`, and if there is a target, the target and whether `value` met it: a count must be at
    most `limit`, a time below it (a figure that could not be measured, NaN, meets nothing)."""
    if limit is None:
        return text
    met = value <= limit if count else value < limit
    rule = f"{limit:g}" if count else f"< {limit:g} s"
    return f"{text} [target {rule}: {'met' if met else 'NOT MET'}]"


def expiries(games) -> list[tuple]:
    """(game, data, created_at) of the games' TimerExpired events in the test database."""
    return list(
        Event.objects.filter(game_id__in=games, type="TimerExpired").values_list("game_id", "data", "created_at")
    )


def _expiries(rows):
    for game_id, data, created_at in rows:
        data = json.loads(data) if isinstance(data, str) else data
        yield game_id, data, created_at, datetime.fromisoformat(data["deadline"])


def lateness(games, rows=None) -> list[float]:
    """Each expiry's lateness (its commit time less its deadline), in seconds."""
    return [
        (created_at - deadline).total_seconds()
        for _, _, created_at, deadline in _expiries(expiries(games) if rows is None else rows)
    ]


def record(
    scenario: str,
    games,
    after: datetime | None = None,
    rows=None,
    note: str = "",
    since: datetime | None = None,
    down_since: datetime | None = None,
    clocks: int | None = None,
    targets: dict[str, float] | None = None,
    counted: dict[str, tuple[int, int]] | None = None,
) -> str:
    """One line of figures for `scenario`'s games: `after` an outage ended (the catch-up of the
    clocks due meanwhile: with `down_since`, when the outage began, every clock due before `after`
    and fired after `down_since`, one fired before `after` was seen counting 0 s; without it, those
    fired after `after`), `since` a process was killed (the lateness of the clocks fired after
    it, counted from their deadline or the kill, whichever was later), and with `clocks` (each
    game's, when they all should have fired) how many were lost or doubled. `rows` are (game,
    data, created_at) of their TimerExpired events when they live elsewhere than the test
    database. `targets` gives the limits by figure (LATENESS_P99, CATCH_UP, ...);
    `counted` adds the scenario's own counts, name -> (value, target at most)."""
    targets = targets or {}
    if rows is None:
        rows = expiries(games)
    late, catch_up, later, fired = [], [], [], []
    for game_id, data, created_at, deadline in _expiries(rows):
        fired.append((str(game_id), data["seat"], data["deadline"]))
        late.append((created_at - deadline).total_seconds())
        if since is not None and created_at >= since:
            later.append((created_at - max(deadline, since)).total_seconds())
        if after is None or deadline > after:
            continue
        if down_since is not None and created_at >= down_since:
            # Due before the service was seen back and not fired before it went: the worker may
            # fire it before the watcher notices the return.
            catch_up.append(max(0.0, (created_at - after).total_seconds()))
        elif down_since is None and after <= created_at:  # due meanwhile, not fired before
            catch_up.append((created_at - after).total_seconds())
    parts = [
        f"{scenario}: {len(games)} games, {len(late)} expiries",
        judged(
            f"lateness p50 {percentile(late, 50):.2f} s, p99 {percentile(late, 99):.2f} s, "
            f"max {max(late, default=float('nan')):.2f} s",
            percentile(late, 99),
            targets.get(LATENESS_P99),
        ),
    ]
    if after is not None:
        parts.append(
            judged(
                f"clocks due while it was down fired within {max(catch_up, default=0):.2f} s of "
                f"its return ({len(catch_up)} of them)",
                max(catch_up, default=0),
                targets.get(CATCH_UP),
            )
        )
    if since is not None:
        parts.append(
            judged(
                f"the {len(later)} clocks fired after the kill: lateness p99 "
                f"{percentile(later, 99):.2f} s, max {max(later, default=float('nan')):.2f} s",
                percentile(later, 99),
                targets.get(AFTER_KILL_P99),
            )
        )
    if clocks is not None:
        lost, doubled = clocks * len(games) - len(set(fired)), len(fired) - len(set(fired))
        parts.append(
            ", ".join(
                judged(f"{value} {name}", value, targets.get(name), count=True)
                for name, value in ((LOST, lost), (DOUBLED, doubled))
            )
        )
    for name, (value, limit) in (counted or {}).items():
        parts.append(judged(f"{value} {name}", value, limit, count=True))
    if note:
        parts.append(note)
    return report("; ".join(parts))


def report(line: str) -> str:
    """`line` among the figures the run prints (CHAOS_REPORT: `make chaos`, `make ha`), with the
    machine's load beside it: on a shared machine a figure means little without it."""
    line = f"{line} (load {os.getloadavg()[0]:.2f})"
    LINES.append(line)
    path = os.environ.get("CHAOS_REPORT")
    if path:
        with open(path, "a") as fh:
            fh.write(line + "\n")
    return line
