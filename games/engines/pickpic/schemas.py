"""JSON Schemas of what Pick Pic shows: a seat's view (`views.view`) and a log line
(`views.describe`). Plain data for the OpenAPI document; tests validate real views against them."""

from __future__ import annotations

from typing import Any

from ..base import SEAT_SCHEMA, SEATS_SCHEMA, event_schema, nullable, result_schema
from .scoring import TALLY_KEYS

CARD: dict[str, Any] = {
    "type": "integer",
    "minimum": 1,
    "maximum": 120,
    "description": "card id (GET /kinds/pickpic/cards/)",
}
CARDS: dict[str, Any] = {"type": "array", "items": CARD}
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
GIFTS: dict[str, Any] = {
    "type": "object",
    "description": "receiving seat (as a string) -> cards",
    "propertyNames": {"pattern": "^[0-9]+$"},
    "additionalProperties": CARDS,
}
TALLY: dict[str, Any] = {
    "type": "object",
    "required": list(TALLY_KEYS),
    "properties": {key: {"type": "integer"} for key in TALLY_KEYS},
}
RESULT = result_schema(
    {**TALLY, "required": [*TALLY_KEYS, "total"], "properties": {**TALLY["properties"], "total": {"type": "integer"}}}
)

STACK_ENTRY: dict[str, Any] = {
    "type": "object",
    "description": "a ranked card as the table saw it turned over: below the "
    "random card nobody claims it (giver null), and in the comments variant it may stay face down",
    "properties": {
        "card": CARD,
        "giver": nullable(SEAT_SCHEMA),
        "random": {"type": "boolean"},
        "giver_points": {"type": "integer"},
        "ranker_points": {"type": "integer"},
        "claimed": {"type": "boolean"},
        "face_down": {"type": "boolean"},
        "comment": {"type": "string"},
    },
}
EVALUATION: dict[str, Any] = {
    "type": "object",
    "description": "a whole round, public once evaluated",
    "required": ["round", "table", "random", "stacks", "points", "breakdown", "scores"],
    "properties": {
        "round": {"type": "integer", "minimum": 1},
        "table": CARDS,
        "gifts": {
            "type": "array",
            "items": nullable(GIFTS),
            "description": "per giving seat "
            "(rules version 1 records only; the table never shows who gave an unclaimed card)",
        },
        "discarded": CARDS,
        "discarded_count": {"type": "integer", "minimum": 0},
        "random": {**CARDS, "description": "per seat: the random card added to its stack"},
        "stacks": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["seat", "order"],
                "properties": {
                    "seat": SEAT_SCHEMA,
                    "order": {"type": "array", "items": STACK_ENTRY},
                    "random_position": {"type": "integer"},
                    "random_last_bonus": {"type": "integer"},
                },
            },
        },
        "points": {"type": "array", "items": {"type": "integer"}},
        "breakdown": {"type": "array", "items": TALLY},
        "scores": {"type": "array", "items": {"type": "integer"}},
    },
}
YOU: dict[str, Any] = {
    "type": "object",
    "required": ["seat"],
    "additionalProperties": False,
    "description": "what only you see: your hand (give phase, until you gave), your gifts, your "
    "stack and ranking (rank phase)",
    "properties": {
        "seat": SEAT_SCHEMA,
        "hand": CARDS,
        "gifts": GIFTS,
        "stack": CARDS,
        "ranking": {
            "type": "object",
            "properties": {"order": CARDS, "comments": {"type": "object", "additionalProperties": {"type": "string"}}},
        },
    },
}

VIEW: dict[str, Any] = {
    "title": "PickpicView",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "phase",
        "active",
        "players",
        "round",
        "target",
        "comments",
        "cards_per_gift",
        "scores",
        "deck_size",
        "discard_size",
        "table",
        "done",
        "last_round",
        "result",
    ],
    "properties": {
        "phase": {"type": "string", "enum": ["give", "rank", "over"]},
        "active": SEATS_SCHEMA,
        "players": {"type": "integer", "minimum": 3, "maximum": 5},
        "round": {"type": "integer", "minimum": 0},
        "target": {"type": "integer", "description": "points that end the game"},
        "comments": {"type": "boolean", "description": "the comments variant is on"},
        "cards_per_gift": {"type": "integer", "description": "cards given to each other seat"},
        "scores": {"type": "array", "items": {"type": "integer"}},
        "deck_size": COUNT,
        "discard_size": COUNT,
        "table": {**CARDS, "description": "the face-up photos of this round, one per seat"},
        "done": {"type": "array", "items": {"type": "boolean"}, "description": "per seat: has acted in this phase"},
        "last_round": nullable(EVALUATION),
        "result": nullable(RESULT),
        "you": YOU,
    },
}

EVENT = event_schema(
    {
        "round": nullable({"type": "integer"}),
        "gifts": GIFTS,
        "ranking_starts": {"type": "boolean"},
        "deck_size": COUNT,
        "reshuffled": COUNT,
        "stack": CARDS,
        "order": CARDS,
        "comments": {"type": "object", "additionalProperties": {"type": "string"}},
        "evaluation": nullable(EVALUATION),
        "discarded": CARDS,
        "next": nullable(
            {
                "type": "object",
                "required": ["round", "table", "deck_size", "reshuffled"],
                "properties": {
                    "round": {"type": "integer"},
                    "table": CARDS,
                    "deck_size": COUNT,
                    "reshuffled": nullable(COUNT),
                    "hand": CARDS,
                },
            }
        ),
        "result": nullable(RESULT),
    },
    types=["CardsGiven", "CardsRanked", "RoundEvaluated"],
)
