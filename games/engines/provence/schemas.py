"""JSON Schemas of what Walking in Provence shows: a seat's view (`views.view`) and a log line
(`views.describe`). Plain data for the OpenAPI document; tests validate real views against them."""

from __future__ import annotations

from typing import Any

from ..base import SEAT_SCHEMA, SEATS_SCHEMA, event_schema, nullable, result_schema

CELL: dict[str, Any] = {
    "type": "array",
    "items": {"type": "integer"},
    "minItems": 2,
    "maxItems": 2,
    "description": "[x, y]",
}
CARD_ID: dict[str, Any] = {"type": "string", "description": "a landscape or photo card id"}
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
PLACEMENT: dict[str, Any] = {
    "type": "object",
    "required": ["card", "x", "y", "rotation"],
    "properties": {
        "card": CARD_ID,
        "x": {"type": "integer"},
        "y": {"type": "integer"},
        "rotation": {"type": "integer", "enum": [0, 90, 180, 270]},
        "z": {"type": "integer", "description": "stacking order: higher lies on top"},
        "under": {"type": "boolean"},
    },
}
SQUARE: dict[str, Any] = {
    "type": "object",
    "required": ["x", "y", "terrain", "card"],
    "description": "a visible square; lavender has `growth`, sunflower `facing`, town `shop`, meadow `feature`",
    "properties": {
        "x": {"type": "integer"},
        "y": {"type": "integer"},
        "terrain": {"type": "string"},
        "card": CARD_ID,
        "growth": {"type": "string"},
        "facing": {"type": "string"},
        "shop": {"type": "string"},
        "feature": {"type": "string"},
    },
}
LANDSCAPE: dict[str, Any] = {
    "type": "object",
    "required": ["cards", "photographer", "drone", "visible"],
    "properties": {
        "cards": {"type": "array", "items": PLACEMENT},
        "photographer": CELL,
        "drone": CELL,
        "visible": {"type": "array", "items": SQUARE},
    },
}
PHOTO: dict[str, Any] = {
    "type": "object",
    "required": ["card", "back", "taken_by", "requires", "spots", "markers"],
    "properties": {
        "card": CARD_ID,
        "back": {"type": "string"},
        "taken_by": {"type": "string", "enum": ["photographer", "drone"]},
        "requires": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["terrain", "count"],
                "properties": {"terrain": {"type": "string"}, "count": {"type": "integer"}},
            },
        },
        "spots": {"type": "array", "items": {"type": "integer"}, "description": "points per spot"},
        "markers": {"type": "array", "items": SEATS_SCHEMA, "description": "per spot: seats on it"},
    },
}
HAND_CARD: dict[str, Any] = {
    "type": "object",
    "required": ["id", "min_players", "rows"],
    "properties": {
        "id": CARD_ID,
        "min_players": {"type": "integer"},
        "rows": {
            "type": "array",
            "items": {"type": "array", "items": {"type": "string"}},
            "description": "square codes in base orientation",
        },
    },
}
WALK: dict[str, Any] = {
    "type": "object",
    "required": ["photographer", "drone"],
    "properties": {"photographer": CELL, "drone": CELL},
}
BREAKDOWN: dict[str, Any] = {
    "type": "object",
    "required": ["total"],
    "properties": {
        **{
            k: {"type": "integer"}
            for k in (
                "lavender",
                "lavender_penalty",
                "wheat",
                "sunflowers",
                "sunflower_penalty",
                "towns",
                "photos",
                "goals",
                "markers_placed",
                "total",
            )
        },
        "goal_detail": {"type": "object", "additionalProperties": {"type": "integer"}},
    },
}
RESULT = result_schema(BREAKDOWN)

VIEW: dict[str, Any] = {
    "title": "ProvenceView",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "phase",
        "active",
        "players",
        "round",
        "rounds",
        "deck",
        "hand_sizes",
        "submitted",
        "landscapes",
        "photos",
        "goals",
        "markers",
    ],
    "properties": {
        "phase": {"type": "string", "enum": ["scene", "walking", "over"]},
        "active": SEATS_SCHEMA,
        "players": {"type": "integer", "minimum": 2, "maximum": 5},
        "round": {"type": "integer", "minimum": 0},
        "rounds": {"type": "integer"},
        "deck": {**COUNT, "description": "cards left in the deck"},
        "hand_sizes": {"type": "array", "items": COUNT},
        "submitted": {
            "type": "array",
            "items": {"type": "boolean"},
            "description": "per seat: has chosen in this phase",
        },
        "landscapes": {"type": "array", "items": LANDSCAPE},
        "photos": {"type": "array", "items": PHOTO},
        "goals": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["card", "goal"],
                "properties": {"card": CARD_ID, "goal": {"type": "string"}},
            },
        },
        "markers": {"type": "array", "items": COUNT, "description": "per seat: markers left"},
        "you": {
            "type": "object",
            "required": ["seat", "hand", "pending", "passed"],
            "additionalProperties": False,
            "properties": {
                "seat": SEAT_SCHEMA,
                "hand": {"type": "array", "items": HAND_CARD},
                "pending": nullable(
                    {
                        "type": "object",
                        "description": "your choice this phase, not yet revealed",
                        "anyOf": [PLACEMENT, WALK],
                    }
                ),
                "passed": nullable({**CARD_ID, "description": "the card you passed"}),
            },
        },
        "result": RESULT,
    },
}

EVENT = event_schema(
    {
        "round": nullable({"type": "integer"}),
        "move": {
            "type": "object",
            "required": ["type"],
            "description": "your own choice only",
            "properties": {"type": {"type": "string", "enum": ["place", "walk"]}},
        },
        "placements": nullable({"type": "array", "items": PLACEMENT}),
        "you_passed": nullable(CARD_ID),
        "walks": nullable({"type": "array", "items": WALK}),
        "photos": nullable(
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["card", "seats", "spot", "points"],
                    "properties": {
                        "card": CARD_ID,
                        "seats": SEATS_SCHEMA,
                        "spot": {"type": "integer"},
                        "points": {"type": "integer"},
                    },
                },
            }
        ),
        "deck": COUNT,
        "your_hand": {"type": "array", "items": CARD_ID},
        "result": RESULT,
    },
    types=["CardChosen", "ScenesPlaced", "WalkChosen", "WalksRevealed"],
)
