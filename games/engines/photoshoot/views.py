"""What everyone sees. The table is public, as around a real table: the square, the current
objective, the scores, the Camera tokens, each team's Effect cards, whose turn it is, what may be
challenged now, the hourglass's deadline, and each action as it was made (the cells, what was said
and done). Secret: the order of the objective and Effect piles (only their sizes are shown), the
seed, and whether an action was an error until a challenge (or, cooperatively, the referee)
judges it: `faults` and `before` of the latest action never leave the state.
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import base
from . import challenges as ch
from . import effects as fx
from . import objectives as obj
from . import rounds
from .characters import CHARACTERS
from .moves import RITUALS_SCHEMA

LAST_KEYS = (
    "number",
    "seat",
    "kind",
    "cells",
    "cell",
    "direction",
    "rituals",
    "moved",
    "grid",
    "validated",
    "objective",
    "status",
    "owed",
    "passed",
)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def public_last(state: base.State) -> dict[str, Any] | None:
    last = state["last"]
    if last is None:
        return None
    shown = {key: _copy(last[key]) for key in LAST_KEYS if key in last}
    if rounds.by_player(state):
        # Whether its player owed Max's stroke when acting: the view before it said so
        # (`stroke_due`), so the Control team judges the action on what the table saw.
        shown["stroke_owed"] = last["before"]["stroke_due"] == last["seat"]
    return shown


def view(
    state: base.State,
    viewer: int | None,
    active: list[int],
    result: dict[str, Any] | None,
    types: Mapping[int, list[str]],
) -> dict[str, Any]:
    phase = state["phase"]
    last = state["last"]
    playing = phase != "over"
    shown: dict[str, Any] = {
        "phase": phase,
        "mode": state["mode"],
        "round": state["round"],
        "level": state["options"]["level"],
        "family": state["options"]["family"],
        "hourglass_seconds": state["options"]["hourglass_seconds"],
        "players": state["players"],
        "teams": _copy(state["teams"]),
        # Who left is public, and the rules turn on it: "the player after" skips them.
        "forfeited": sorted(state.get("_forfeited", [])),
        "photographers": state["photographers"] if playing else None,
        "control": (1 - state["photographers"]) if playing and state["mode"] == "teams" else None,
        "photo_rounds": list(state["photo_rounds"]),
        "scores": list(state["scores"]),
        "target": 25,
        "grid": list(state["grid"]),
        "characters": dict(CHARACTERS),
        "objective": obj.public(state["objective"]) if playing else None,
        "objective_pile_size": len(state["objective_pile"]),
        "effect_piles": {colour: len(pile) for colour, pile in state["piles"].items()},
        "effects": [[_copy(fx.CARDS[card]) for card in cards] for cards in state["effects"]],
        "black_frame": fx.characters_of(rounds.team_effects(state)) if playing else [],
        "tokens_left": state["tokens"],
        "tally": _copy(state["tally"]) if playing else None,
        "turn": rounds.current_photographer(state) if phase == "round" else None,
        "ready": list(state["ready"]),
        "awaiting_ready": rounds.awaiting_ready(state),
        "mending": rounds.mending(state),
        "deadline": state["hourglass"]["deadline"] if state["hourglass"] else None,
        "hourglass_started": state["hourglass"]["start"] if state["hourglass"] else None,
        "challengeable": last["number"] if last and last["status"] == "open" and state["mode"] == "teams" else None,
        "last_action": public_last(state),
        "stroke_due": state["stroke_due"] if type(state["stroke_due"]) is int and playing else None,
        "last_round": _last_round(state["last_round"]),
        "active": active,
        "moves": {str(seat): kinds for seat, kinds in types.items() if kinds},
        "result": _copy(result),
    }
    if type(viewer) is int and 0 <= viewer < state["players"]:
        team = next(t for t, seats in enumerate(state["teams"]) if viewer in seats)
        shown["you"] = {"seat": viewer, "team": team}
    return shown


def _last_round(summary: Mapping[str, Any] | None) -> dict[str, Any] | None:
    shown = _copy(summary)
    caught = shown.get("caught") if shown else None
    if isinstance(caught, dict) and isinstance(caught.get("faults"), list):
        caught["faults"] = ch.read_faults(caught["faults"])
    return shown


def describe(event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """Every record is public (the records never hold a pile's order, nor a verdict before a
    challenge), and so is the move, ritual fields included: the table sees what a player did."""
    data = event.get("data") or {}
    out = {
        "seq": event["seq"],
        "type": event["type"],
        "actor": event["actor"],
        "move": _copy(data.get("move")),
        "record": _copy(data.get("record")),
    }
    record = out["record"]
    if isinstance(record, dict) and isinstance(record.get("faults"), list):
        # a challenge's or the referee's verdict: its messages, for the reader's language
        record["faults"] = ch.read_faults(record["faults"])
    return out


def view_schema() -> dict[str, Any]:
    """JSON Schema of `view` (for the OpenAPI document)."""
    seat = {"type": "integer", "minimum": 0}
    name = {"type": "string", "enum": list(CHARACTERS)}
    grid = {"type": "array", "items": name, "minItems": 9, "maxItems": 9}
    card = {
        "type": "object",
        "required": ["id", "colour", "character", "text"],
        "properties": {
            "id": {"type": "string"},
            "colour": {"enum": ["blue", "orange"]},
            "character": name,
            "text": {"type": "string"},
        },
    }
    objective = {
        "type": ["object", "null"],
        "required": ["id", "cells"],
        "properties": {"id": {"type": "integer"}, "cells": {"type": "array", "items": {"type": ["string", "null"]}}},
    }
    nullable_int = {"type": ["integer", "null"]}
    result = base.nullable(
        {
            **base.result_schema(
                {
                    "type": "object",
                    "required": ["team", "team_score"],
                    "properties": {"team": {"type": "integer"}, "team_score": {"type": "integer"}},
                }
            ),
            "description": "the outcome, once the game is over",
        }
    )
    result["anyOf"][0]["properties"].update(
        {
            "teams": {"type": "array", "items": {"type": "array", "items": seat}},
            "team_scores": {"type": "array", "items": {"type": "integer"}},
            "cooperative": {
                "type": "object",
                "properties": {"target": {"type": "integer"}, "won": {"type": "boolean"}},
            },
            "rematch": {
                "type": "boolean",
                "description": "rules version 3: the teams finished on "
                "equal points, and the rulebook asks for a new game to break the tie "
                "(`POST /games/{id}/rematch/`)",
            },
        }
    )
    last = {
        "type": ["object", "null"],
        "description": "the latest action, as the table saw it",
        "properties": {
            "number": {"type": "integer"},
            "seat": seat,
            "kind": {"enum": ["swap", "push", "photo"]},
            "cells": {"type": "array", "items": {"type": "integer"}},
            "cell": {"type": "integer"},
            "direction": {"type": "string"},
            "rituals": RITUALS_SCHEMA,
            "moved": {"type": "array", "items": name},
            "grid": grid,
            "validated": {"type": "integer"},
            "objective": objective,
            "status": {"enum": ["open", "closed", "challenged"]},
            "owed": {
                "type": "object",
                "properties": {"wave": {"type": "array", "items": seat}, "answer": {"type": "array", "items": seat}},
            },
            "passed": {
                "type": "array",
                "items": seat,
                "description": "rules version 2: the control seats that let this action stand",
            },
            "stroke_owed": {
                "type": "boolean",
                "description": "rules version 3: its player owed Max's "
                "stroke when making it (`stroke_due` "
                "named that seat)",
            },
        },
    }
    return {
        "type": "object",
        "required": ["phase", "mode", "round", "grid", "objective", "scores", "deadline", "active"],
        "properties": {
            "phase": {"enum": ["ready", "round", "over"]},
            "mode": {"enum": ["teams", "coop"]},
            "round": {"type": "integer"},
            "level": {"type": "integer"},
            "family": {"type": "boolean"},
            "hourglass_seconds": {"type": "integer"},
            "players": {"type": "integer"},
            "teams": {"type": "array", "items": {"type": "array", "items": seat}},
            "forfeited": {
                "type": "array",
                "items": seat,
                "description": "the seats out of the game by forfeit (their turns "
                'go to their teammates; nobody is "after" anyone '
                "through them from rules version 3)",
            },
            "photographers": nullable_int,
            "control": nullable_int,
            "photo_rounds": {"type": "array", "items": {"type": "integer"}},
            "scores": {"type": "array", "items": {"type": "integer"}},
            "target": {"type": "integer"},
            "grid": grid,
            "characters": {"type": "object", "additionalProperties": {"type": "string"}},
            "objective": objective,
            "objective_pile_size": {"type": "integer"},
            "effect_piles": {
                "type": "object",
                "properties": {"blue": {"type": "integer"}, "orange": {"type": "integer"}},
            },
            "effects": {"type": "array", "items": {"type": "array", "items": card}},
            "black_frame": {"type": "array", "items": name},
            "tokens_left": {"type": "integer"},
            "tally": {
                "type": ["object", "null"],
                "properties": {
                    "validated": {"type": "integer"},
                    "photographer_tokens": {"type": "integer"},
                    "control_tokens": {"type": "integer"},
                },
            },
            "turn": {"type": ["integer", "null"]},
            "ready": {"type": "array", "items": seat},
            "awaiting_ready": {"type": "array", "items": seat},
            "mending": {"type": "boolean"},
            "deadline": {
                "type": ["string", "null"],
                "format": "date-time",
                "description": "when the hourglass runs out (ISO 8601); null before every player is ready",
            },
            "hourglass_started": {"type": ["string", "null"], "format": "date-time"},
            "challengeable": {
                "type": ["integer", "null"],
                "description": "the action the Control team may challenge now",
            },
            "last_action": last,
            "stroke_due": {
                "type": ["integer", "null"],
                "description": "rules version 3: the seat that must stroke Max's tile "
                "before its next action (Max moved and the team holds "
                "his card); null: nobody (always null before version 3)",
            },
            "last_round": {
                "type": ["object", "null"],
                "description": "the previous round's scoring",
                "properties": {
                    "round": {"type": "integer"},
                    "photographers": seat,
                    "validated": {"type": "integer"},
                    "photographer_tokens": {"type": "integer"},
                    "control_tokens": {"type": "integer"},
                    "points": {"type": "array", "items": {"type": "integer"}},
                    "scores": {"type": "array", "items": {"type": "integer"}},
                    "drawn": {
                        "type": "array",
                        "description": "Effect cards drawn",
                        "items": {
                            "type": "object",
                            "properties": {"team": {"type": "integer"}, "threshold": {"type": "integer"}, "card": card},
                        },
                    },
                    "caught": {
                        "type": "object",
                        "description": "coop: the referee's catch",
                        "properties": {
                            "action": {"type": "integer"},
                            "error": {"type": "boolean"},
                            "faults": {"type": "array", "items": {"type": "string"}},
                            "token": {"type": ["string", "null"]},
                            "grid": grid,
                            "objective": objective,
                        },
                    },
                    "result": result,
                },
            },
            "active": {"type": "array", "items": seat},
            "moves": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
            "result": result,
            "you": {"type": "object", "properties": {"seat": seat, "team": {"type": "integer"}}},
        },
    }
