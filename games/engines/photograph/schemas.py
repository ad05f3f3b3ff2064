"""JSON Schemas of what Photograph shows: a seat's view (`views.view`) and a log line
(`views.describe`). Plain data for the OpenAPI document; tests validate real views against them."""

from __future__ import annotations

from typing import Any

from ..base import SEAT_SCHEMA, SEATS_SCHEMA, event_schema, nullable, result_schema
from .cards import COLOURS, NUMBERS

COLOUR: dict[str, Any] = {"type": "string", "enum": list(COLOURS)}
# A card is known (its face: colour and number) or not (its back: colour and number range).
FACE: dict[str, Any] = {
    "type": "object",
    "required": ["colour", "number"],
    "properties": {"colour": COLOUR, "number": {"type": "integer", "minimum": NUMBERS[0], "maximum": NUMBERS[-1]}},
}
BACK: dict[str, Any] = {
    "type": "object",
    "required": ["colour", "range"],
    "properties": {"colour": COLOUR, "range": {"type": "string", "enum": ["1-6", "7-12"]}},
}
CARD: dict[str, Any] = {
    "description": "a card: its face if known to the viewer, else its back",
    "type": "object",
    "required": ["colour"],
    "properties": {"colour": COLOUR, "number": FACE["properties"]["number"], "range": BACK["properties"]["range"]},
    "oneOf": [{"required": ["number"]}, {"required": ["range"]}],
}
POS: dict[str, Any] = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0},
    "minItems": 2,
    "maxItems": 2,
    "description": "[row, column]",
}


def card_with(optional: tuple[str, ...] = (), /, **fields: Any) -> dict[str, Any]:
    """A card with more fields, each required but the ones named in `optional` (positional, so a
    field may be called anything, "from" and "to" included)."""
    return {
        **CARD,
        "required": [*CARD["required"], *(k for k in fields if k not in optional)],
        "properties": {**CARD["properties"], **fields},
    }


PLACE = nullable(card_with(face_up={"type": "boolean"}))
REEL_ENTRY: dict[str, Any] = {
    "type": "object",
    "required": ["colour"],
    "description": "a shot; a blurred one shows only its colour and `blurred: true`",
    "properties": {
        "colour": COLOUR,
        "number": FACE["properties"]["number"],
        "blurred": {"type": "boolean", "description": "always true"},
    },
}
COLOUR_SCORE: dict[str, Any] = {
    "type": "object",
    "required": ["shots", "blurred", "good_shot", "missed", "points"],
    "properties": {
        "shots": {"type": "integer"},
        "blurred": {"type": "integer"},
        "good_shot": {"type": "boolean"},
        "missed": {"type": "boolean"},
        "points": {"type": "integer"},
    },
}
RESULT = result_schema(
    {
        "type": "object",
        "required": ["colours", "reels", "good_shots", "blurred", "longest_reel", "total"],
        "properties": {
            "colours": {"type": "object", "additionalProperties": COLOUR_SCORE},
            "reels": {"type": "integer"},
            "good_shots": {"type": "integer"},
            "blurred": {"type": "integer"},
            "longest_reel": {"type": "integer"},
            "missed_colour": nullable(COLOUR),
            "total": {"type": "integer"},
        },
    }
)
PHASE: dict[str, Any] = {"type": "string", "enum": ["take", "wind", "sunset", "end", "over"]}

VIEW: dict[str, Any] = {
    "title": "PhotographView",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "phase",
        "active",
        "players",
        "turn",
        "first",
        "turns",
        "options",
        "colours",
        "removed_colours",
        "deck_size",
        "sunset",
        "layout",
        "hands",
        "reels",
        "good_shots",
        "good_shot_threshold",
        "out",
    ],
    "properties": {
        "phase": PHASE,
        "active": SEATS_SCHEMA,
        "players": {"type": "integer", "minimum": 2, "maximum": 4},
        "turn": SEAT_SCHEMA,
        "first": SEAT_SCHEMA,
        "turns": {"type": "integer", "minimum": 0},
        "options": {"type": "object", "properties": {"missed_shot": {"type": "boolean"}}},
        "colours": {"type": "array", "items": COLOUR},
        "removed_colours": {"type": "array", "items": COLOUR},
        "deck_size": {"type": "integer", "minimum": 0},
        "sunset": {"type": "string", "enum": ["deck", "revealed", "box"], "description": "where the sunset card is"},
        "layout": {
            "type": "array",
            "items": {"type": "array", "items": PLACE},
            "description": "rows of places, top row first; null: an empty place",
        },
        "hands": {
            "type": "array",
            "items": {
                "type": "array",
                "items": card_with(
                    ("public",), public={"type": "boolean", "description": "(your own hand) seen by the others"}
                ),
            },
            "description": "per seat, leftmost card first",
        },
        "reels": {
            "type": "array",
            "items": {"type": "object", "additionalProperties": {"type": "array", "items": REEL_ENTRY}},
            "description": "per seat: colour -> shots played, in order",
        },
        "good_shots": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["holder", "void"],
                "properties": {"holder": nullable(SEAT_SCHEMA), "void": {"type": "boolean"}},
            },
        },
        "good_shot_threshold": {"type": "integer"},
        "shown": {
            "type": "array",
            "items": card_with(seat=SEAT_SCHEMA),
            "description": "blurred cards the last action showed face up, until the next action",
        },
        "out": {"type": "array", "items": CARD, "description": "cards out of the game"},
        "to_play": {"type": "integer", "description": "wind phase: cards to play"},
        "wound": {"type": "array", "items": {"type": "boolean"}},
        "my_wind": {
            "type": "object",
            "required": ["from", "to"],
            "properties": {"from": {"type": "integer"}, "to": {"type": "integer"}},
        },
        "last_cards": {"type": "array", "items": {"type": "array", "items": CARD}},
        "result": RESULT,
    },
}

PLAYED: dict[str, Any] = card_with(
    seat=SEAT_SCHEMA,
    blurred={"type": "boolean"},
    good_shot=nullable({**COLOUR, "description": "the good shot card this play claimed"}),
)
EVENT = event_schema(
    {
        "move": {
            "type": "object",
            "required": ["type"],
            "description": "the move, as far as it is public",
            "properties": {
                "type": {"type": "string", "enum": ["take", "wind"]},
                "row": {"type": "integer"},
                "side": {"type": "string"},
                "count": {"type": "integer"},
                "from": {"type": "integer"},
                "to": {"type": "integer"},
            },
        },
        "cards": {"type": "array", "items": card_with(pos=POS, face_up={"type": "boolean"})},
        "stage": nullable({"type": "string"}),
        "resolved": {"type": "boolean"},
        "winds": {
            "type": "array",
            "description": "each seat's wind, once all are chosen",
            "items": {
                "type": "object",
                "required": ["seat", "from", "to"],
                "properties": {"seat": SEAT_SCHEMA, "from": {"type": "integer"}, "to": {"type": "integer"}},
            },
        },
        "played": {"type": "array", "items": PLAYED},
        "voided": {"type": "array", "items": COLOUR},
        "check": {
            "type": "object",
            "properties": {
                "refilled": {"type": "boolean"},
                "sunset": {"type": "boolean"},
                "removed": {"type": "array", "items": card_with(pos=POS, seen={"type": "boolean"})},
                "moved": {"type": "array", "items": card_with(**{"from": POS, "to": POS})},
                "dealt": {"type": "array", "items": card_with(pos=POS, face_up={"type": "boolean"})},
            },
        },
        "left": {"type": "array", "items": card_with(seat=SEAT_SCHEMA)},
        "next": {"type": "object", "required": ["phase"], "properties": {"phase": PHASE, "turn": SEAT_SCHEMA}},
    },
    types=["SubjectChosen", "FilmWound"],
)
