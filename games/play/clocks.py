"""Clock arithmetic: per-seat time controls, as plain functions over JSON data.

A game's clocks (Game.clocks) hold, per seat, the time it has left and since when its clock runs:

    {"control": "bank", "seats": {"0": {"left": 3600.0, "since": "2026-..." | null,
                                        "allowance": 3600.0, "reminded": false}}}

A seat's clock runs while the seat is active, every active seat's at once in simultaneous phases.
`per_move`: each move gets `move_seconds`, afresh whenever the seat moves or becomes active.
`bank`: the seat spends from its bank while its clock runs and earns `bank_increment_seconds` per
move, never above `bank_max_seconds` (correspondence chess and Go servers work this way).

Vacations stop a seat's clock: a deadline is the moment the seat's *running* time, not counting
its user's vacation intervals, reaches what it had left. No clock is read here: `at` is given.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Iterable, Mapping, Sequence

Interval = tuple[datetime, datetime]
# seat -> its user's vacations
Vacations = Mapping[int, Sequence[Interval]]


def parse(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def start(options: dict[str, Any], players: int, active: Iterable[int], at: datetime) -> dict[str, Any]:
    control = options.get("time_control", "none")
    if control == "none":
        return {}
    allowance = float(options["move_seconds"] if control == "per_move" else options["bank_initial_seconds"])
    clocks = {
        "control": control,
        "seats": {
            str(seat): {"left": allowance, "since": None, "allowance": allowance, "reminded": False}
            for seat in range(players)
        },
    }
    return advance(clocks, options, set(), set(active), set(), at)


def advance(
    clocks: dict[str, Any],
    options: dict[str, Any],
    active_before: set[int],
    active_after: set[int],
    movers: set[int],
    at: datetime,
    vacations: Vacations | None = None,
) -> dict[str, Any]:
    """The clocks after a change at `at`: `movers` made a move; actives went from before to after."""
    if not clocks:
        return clocks
    vacations = vacations or {}
    new = {"control": clocks["control"], "seats": {k: dict(v) for k, v in clocks["seats"].items()}}
    for key, seat in new["seats"].items():
        number = int(key)
        since = parse(seat["since"])
        running = since is not None
        if since is not None:
            used = running_seconds(since, at, vacations.get(number, ()))
            seat["left"] = max(0.0, seat["left"] - used)
        if number in movers:
            if clocks["control"] == "bank":
                seat["left"] = min(float(options["bank_max_seconds"]), seat["left"] + options["bank_increment_seconds"])
        restart = number in active_after and (number in movers or not running or number not in active_before)
        if clocks["control"] == "per_move" and restart:
            seat["left"] = float(options["move_seconds"])
        if number in active_after:
            seat["since"] = at.isoformat()
            if restart:
                seat["allowance"], seat["reminded"] = seat["left"], False
        else:
            seat["since"] = None
    return new


def running_seconds(since: datetime, until: datetime, vacations: Sequence[Interval]) -> float:
    """Seconds from `since` to `until`, less the parts spent on vacation."""
    total = (until - since).total_seconds()
    for start_, end in vacations:
        overlap = (min(end, until) - max(start_, since)).total_seconds()
        total -= max(0.0, overlap)
    return max(0.0, total)


def deadline(seat: dict[str, Any], vacations: Sequence[Interval] = ()) -> datetime | None:
    """When a running seat's time is up: `left` seconds of running time after `since`."""
    since = parse(seat.get("since"))
    if since is None:
        return None
    moment, left = since, seat["left"]
    for start_, end in sorted(vacations):
        if end <= moment:
            continue
        if start_ > moment:
            gap = (start_ - moment).total_seconds()
            if gap >= left:
                break
            left -= gap
        moment = max(moment, end)
    return moment + timedelta(seconds=left)


def seat_deadlines(
    clocks: dict[str, Any], vacations: Vacations | None = None, skip: Iterable[int] = ()
) -> dict[int, datetime]:
    if not clocks:
        return {}
    vacations, skip = vacations or {}, set(skip)
    found = {}
    for key, seat in clocks["seats"].items():
        if int(key) in skip:
            continue
        due = deadline(seat, vacations.get(int(key), ()))
        if due is not None:
            found[int(key)] = due
    return found


def reminder_times(clocks: dict[str, Any], fraction: float, vacations: Vacations | None = None) -> dict[int, datetime]:
    """When each running seat should be reminded: when `fraction` of its allowance is left."""
    if not clocks or fraction <= 0:
        return {}
    times = {}
    for seat, due in seat_deadlines(clocks, vacations).items():
        state = clocks["seats"][str(seat)]
        if not state["reminded"]:
            times[seat] = due - timedelta(seconds=state["allowance"] * fraction)
    return times


def mark_reminded(clocks: dict[str, Any], seats: Iterable[int]) -> dict[str, Any]:
    new = {"control": clocks["control"], "seats": {k: dict(v) for k, v in clocks["seats"].items()}}
    for seat in seats:
        new["seats"][str(seat)]["reminded"] = True
    return new
