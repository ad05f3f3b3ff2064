"""The figures of the fault scenarios (issue 30's targets), printed by `make chaos`: timer
lateness (a TimerExpired event's commit time less its deadline) and, after an outage, how long
the clocks that fell due meanwhile took to fire once the service was back. Figures, never
assertions: the suite asserts behaviour, `make chaos` reports speed."""
from __future__ import annotations

import os
from datetime import datetime

from games.models import Event

LINES: list[str] = []


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * p // 100) - 1))]


def record(scenario: str, games, after: datetime | None = None, rows=None, note: str = "",
           since: datetime | None = None) -> str:
    """One line of figures for `scenario`'s games: `after` an outage ended (the catch-up of the
    clocks due meanwhile), `since` a process was killed (the lateness of the clocks due after it);
    `rows` are (data, created_at) of their TimerExpired events when they live elsewhere than the
    test database."""
    if rows is None:
        rows = Event.objects.filter(game_id__in=games, type="TimerExpired").values_list("data", "created_at")
    late, catch_up, later = [], [], []
    for data, created_at in rows:
        deadline = datetime.fromisoformat(data["deadline"])
        late.append((created_at - deadline).total_seconds())
        if since is not None and deadline >= since:
            later.append(late[-1])
        if after is not None and deadline <= after <= created_at:  # due meanwhile, not fired before
            catch_up.append((created_at - after).total_seconds())
    line = (f"{scenario}: {len(games)} games, {len(late)} expiries; lateness p50 {percentile(late, 50):.2f} s, "
            f"p99 {percentile(late, 99):.2f} s, max {max(late, default=float('nan')):.2f} s")
    if after is not None:
        line += (f"; clocks due while it was down fired within {max(catch_up, default=0):.2f} s of its "
                 f"return ({len(catch_up)} of them)")
    if since is not None:
        line += (f"; the {len(later)} clocks due after the kill: lateness p99 {percentile(later, 99):.2f} s, "
                 f"max {max(later, default=float('nan')):.2f} s")
    if note:
        line += f"; {note}"
    LINES.append(line)
    report = os.environ.get("CHAOS_REPORT")
    if report:
        with open(report, "a") as fh:
            fh.write(line + "\n")
    return line
