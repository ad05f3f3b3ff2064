"""The moves: their JSON Schema, their parsing, and the lists `legal_moves` offers.

Photographer actions (one per turn):
  {"type": "swap", "cells": [a, b], "rituals": {...}}      any two cells 0..8
  {"type": "push", "cell": c, "direction": "up"|"down"|"left"|"right", "rituals": {...}}
  {"type": "photo", "rituals": {...}}
Teammates' part of a ritual: {"type": "wave"} (Pam), {"type": "answer"} (Edgar).
Control team: {"type": "challenge", "action": n} (n: the number of the latest action).
Before the hourglass: {"type": "ready"}; {"type": "mend", "cells": [a, b]} (Arthur, James; rules
version 2: a movement with its rituals, {"type": "mend", "cells": [a, b], "rituals": {...}} or
{"type": "mend", "cell": c, "direction": d, "rituals": {...}} for Jo).
Rules version 2: {"type": "pass"}: the photographer on turn passes it, a control seat lets the
latest action stand (what the server plays for a timed-out seat).
The system: {"type": "hourglass_run_out"} (the server's timer, never a player).

An action the rules forbid (a diagonal swap, a push without Jo's card, a false "Photo!", a
forgotten ritual) is still a well-formed move: the engine accepts it, and only a challenge tells.
Only malformed moves are refused (illegal_move).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterable, Sequence

from ..base import IllegalMove
from . import effects as fx
from . import grid as g
from . import objectives as obj
from . import rituals as rt

ACTIONS = ("swap", "push", "photo")
TEAM_RITUALS = ("wave", "answer")
PASS = "pass"
SYSTEM = "hourglass_run_out"
CELL = {"type": "integer", "minimum": 0, "maximum": 8}
PAIR = {"type": "array", "items": CELL, "minItems": 2, "maxItems": 2}

RITUALS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "what the acting player did with the action (blue Effect cards)",
    "properties": {
        "say": {
            "type": "array",
            "maxItems": rt.MAX_PHRASES,
            "items": {"type": "string", "maxLength": rt.MAX_PHRASE_LENGTH},
        },
        **{flag: {"type": "boolean", "default": False} for flag in rt.FLAGS},
        **{seat: {"type": ["integer", "null"], "minimum": 0, "maximum": 5} for seat in rt.SEATS},
    },
    "additionalProperties": False,
}


def _move(kind: str, description: str, required=(), **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "required": ["type", *required],
        "properties": {"type": {"const": kind}, **props},
        "additionalProperties": False,
    }


def move_schema() -> dict[str, Any]:
    return {
        "oneOf": [
            _move(
                "ready",
                "present for the round: the hourglass starts when every photographer and "
                "one control-team member are ready",
            ),
            _move(
                "mend",
                "before the hourglass: the move that separates Arthur from Max or brings "
                "James beside Olivia: a swap (`cells`) or, rules version 2, Jo's push "
                "(`cell`, `direction`), with its `rituals` (version 2)",
                (),
                cells=PAIR,
                cell=CELL,
                direction={"enum": list(g.DIRECTIONS)},
                rituals=RITUALS_SCHEMA,
            ),
            _move("swap", "swap the characters of two cells", ("cells",), cells=PAIR, rituals=RITUALS_SCHEMA),
            _move(
                "push",
                "Jo pushes his row or column one cell",
                ("cell", "direction"),
                cell=CELL,
                direction={"enum": list(g.DIRECTIONS)},
                rituals=RITUALS_SCHEMA,
            ),
            _move("photo", '"Photo!": validate the current objective', rituals=RITUALS_SCHEMA),
            _move("wave", "join the Mexican wave for Pam"),
            _move("answer", 'answer Edgar\'s "Tout le monde est prêt?"'),
            _move(
                "challenge",
                "control team: challenge the latest action",
                ("action",),
                action={"type": "integer", "minimum": 1},
            ),
            _move(
                PASS,
                "rules version 2: the photographer on turn passes it to the next teammate; "
                "a control seat lets the latest action stand (the server's move for a "
                "timed-out seat)",
            ),
        ]
    }


def only_fields(move: dict[str, Any], keys: Iterable[str]) -> None:
    extra = sorted(set(move) - {"type", *keys})
    if extra:
        raise IllegalMove("unknown field(s) %(extra)s in a '%(type)s' move", extra=extra, type=move["type"])


def _cell(value: Any, name: str) -> int:
    if type(value) is not int or not 0 <= value <= 8:
        raise IllegalMove('"%(name)s" must be a cell number from 0 to 8', name=name)
    return value


def parse_pair(move: dict[str, Any]) -> tuple[int, int]:
    cells = move.get("cells")
    if not (isinstance(cells, list) and len(cells) == 2):
        raise IllegalMove('"cells" must be a list of two cell numbers (0..8)')
    a, b = (_cell(c, "cells") for c in cells)
    if a == b:
        raise IllegalMove("a swap needs two different cells")
    return a, b


def parse_mend(move: dict[str, Any], players: int) -> dict[str, Any]:
    """Rules version 2: a mend is a movement, a swap (`cells`) or Jo's push (`cell` and
    `direction`), with its rituals, as {kind, cells | cell+direction, rituals}."""
    kind = "push" if "direction" in move or "cell" in move else "swap"
    return parse_action({**move, "type": kind}, players, declared=True)


def parse_action(move: dict[str, Any], players: int, declared: bool = False) -> dict[str, Any]:
    """A photographer's action as {kind, cells | cell+direction, rituals}; IllegalMove if malformed."""
    kind = move["type"]
    if kind == "swap":
        only_fields(move, ("cells", "rituals"))
        parsed: dict[str, Any] = {"kind": kind, "cells": list(parse_pair(move))}
    elif kind == "push":
        only_fields(move, ("cell", "direction", "rituals"))
        if move.get("direction") not in g.DIRECTIONS:
            raise IllegalMove('"direction" must be one of %(DIRECTIONS)s', DIRECTIONS=list(g.DIRECTIONS))
        parsed = {"kind": kind, "cell": _cell(move.get("cell"), "cell"), "direction": move["direction"]}
    else:
        only_fields(move, ("rituals",))
        parsed = {"kind": kind}
    parsed["rituals"] = rt.parse(move.get("rituals"), players, declared)
    return parsed


def parse_challenge(move: dict[str, Any]) -> int:
    only_fields(move, ("action",))
    number = move.get("action")
    if type(number) is not int or number < 1:
        raise IllegalMove('"action" must be the number of the action challenged (1 or more)')
    return number


# ---------------------------------------------------------------------------------------------
# What legal_moves offers
# ---------------------------------------------------------------------------------------------
def full_rituals(
    effects: Iterable[str], actor: int, team: Sequence[int], players: int, declared: bool = False
) -> dict[str, Any]:
    """Every ritual the team's cards could ask for, done (`declared`, rules version 2: the
    team's answer to Edgar too)."""
    effects = set(effects)
    said = [phrase for card, phrase in rt.PHRASES.items() if card in effects]
    done = {
        "say": said,
        "smile": True,
        "applaud": True,
        "contact": True,
        "stroke": True,
        "wave": True,
        "slap": rt.next_teammate(team, actor),
        "shake": min(rt.neighbours(actor, players)),
    }
    if declared:
        done["answered"] = True
    return done


def action_moves(
    grid: Sequence[str],
    effects: Iterable[str],
    objective: int,
    actor: int,
    team: Sequence[int],
    players: int,
    declared: bool = False,
    every: bool = False,
) -> list[dict[str, Any]]:
    """Useful actions first, then one example of each way to err; clients may send any other
    well-formed action too. Useful: "Photo!" when the square matches the objective, else the
    correct movements that put more characters where the objective wants them (all correct
    movements when none does), every ritual done; `every` (rules version 3): then the other
    correct movements too, so that a player (or a bot) choosing among the offered moves may
    take a way round rather than undo the move before. The errors: a "Photo!" and a movement
    with the rituals forgotten, a forbidden swap, a push without cause. (The server's auto-move
    for a timed-out photographer draws from this list under rules version 1; version 2 passes.)"""
    effects = set(effects)
    done = full_rituals(effects, actor, team, players, declared)
    found: list[dict[str, Any]] = []
    if obj.matches(grid, objective):
        found.append({"type": "photo", "rituals": done})
    else:
        score = obj.placed(grid, objective)
        movements = fx.correct_movements(grid, effects)
        useful = [m for m in movements if obj.placed(_after(grid, m), objective) > score]
        offered = useful or movements
        if every:
            offered = offered + [m for m in movements if m not in offered]
        for movement in offered:
            if movement[0] == "swap":
                found.append({"type": "swap", "cells": [movement[1], movement[2]], "rituals": done})
            else:
                found.append({"type": "push", "cell": movement[1], "direction": movement[2], "rituals": done})
    forgetful = {k: v for k, v in found[0].items() if k != "rituals"} if found else {"type": "photo"}
    found.append(forgetful)
    if forgetful["type"] != "photo":
        found.append({"type": "photo"})
    wrong = next(((a, b) for a, b in fx.base_swaps() if fx.swap_fault(grid, a, b, effects)), None)
    if wrong:
        found.append({"type": "swap", "cells": list(wrong), "rituals": done})
    found.append({"type": "push", "cell": 4, "direction": "up", "rituals": done})
    return found


def _after(grid: Sequence[str], movement: tuple) -> list[str]:
    if movement[0] == "swap":
        return g.swap(grid, movement[1], movement[2])
    return g.push(grid, movement[1], movement[2])


def mend_moves(grid: Sequence[str], effects: Iterable[str], depth: int = 4) -> list[dict[str, Any]]:
    """First swaps of the shortest mendings (breadth-first over correct swaps)."""
    effects = set(effects)
    swaps = [(a, b) for a, b in fx.base_swaps()]
    start = tuple(grid)
    first: dict[tuple, tuple[int, int] | None] = {start: None}
    queue = deque([(start, 0)])
    found: list[tuple[tuple[int, int], int]] = []  # (its first swap, the mending's length)
    while queue:
        current, level = queue.popleft()
        if found and level >= found[0][1]:
            break
        if level >= depth:
            continue
        for a, b in swaps:
            if fx.swap_fault(current, a, b, effects):
                continue
            after = tuple(g.swap(current, a, b))
            if after in first:
                continue
            first[after] = opening = first[current] or (a, b)
            if not fx.needs_mending(after, effects):
                found.append((opening, level + 1))
            queue.append((after, level + 1))
    moves = sorted({pair for pair, _ in found})
    if not moves:  # no short mending: any correct swap (the square still changes)
        moves = [(a, b) for a, b in swaps if not fx.swap_fault(grid, a, b, effects)]
    return [{"type": "mend", "cells": [a, b]} for a, b in moves]


def mending_movements(grid: Sequence[str], effects: Iterable[str]) -> list[tuple[str, ...]]:
    """Rules version 2, "make a move to separate them (bring them closer) before starting": the
    correct movements (swaps, and Jo's pushes with his card) after which the square needs no
    mending. Empty when no single movement mends it (both Arthur and James at fault, say)."""
    effects = set(effects)
    return [m for m in fx.correct_movements(grid, effects) if not fx.needs_mending(_after(grid, m), effects)]


def mend_moves_v2(
    grid: Sequence[str], effects: Iterable[str], actor: int, team: Sequence[int], players: int
) -> list[dict[str, Any]]:
    """The mends offered under rules version 2, every ritual done: the movements that mend the
    square at once, or (none does) the first swaps of the shortest mendings."""
    done = full_rituals(effects, actor, team, players, declared=True)
    found = []
    for movement in mending_movements(grid, effects):
        if movement[0] == "swap":
            found.append({"type": "mend", "cells": [movement[1], movement[2]], "rituals": done})
        else:
            found.append({"type": "mend", "cell": movement[1], "direction": movement[2], "rituals": done})
    if found:
        return found
    return [{**move, "rituals": done} for move in mend_moves(grid, effects)]
