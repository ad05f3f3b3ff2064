"""The move vocabulary: JSON Schema, and strict parsing of what a client posts."""

from __future__ import annotations

from ..base import IllegalMove
from . import cards

COORD = {"type": "integer", "minimum": -1000, "maximum": 1000}
POSITION = {
    "type": "array",
    "items": COORD,
    "minItems": 2,
    "maxItems": 2,
    "description": "[x, y]: x grows to the right, y downwards; the deck is above (y < 0 side)",
}

PLACE_SCHEMA = {
    "type": "object",
    "title": "place",
    "description": "Scene phase: place `card` from your hand; the other card of your hand (if any) "
    "is passed face down to your left. (x, y) is the top-left square of the card "
    "after turning it clockwise by `rotation`; `under` tucks it under the landscape.",
    "required": ["type", "card", "x", "y", "rotation"],
    "additionalProperties": False,
    "properties": {
        "type": {"const": "place"},
        "card": {"type": "string", "example": "s07"},
        "x": COORD,
        "y": COORD,
        "rotation": {"enum": list(cards.ROTATIONS)},
        "under": {"type": "boolean", "default": False},
    },
}
WALK_SCHEMA = {
    "type": "object",
    "title": "walk",
    "description": "Walking phase: move the photographer and/or the drone to empty visible Meadow "
    'squares; leave a key out to keep that token where it is ({"type": "walk"} '
    "passes).",
    "required": ["type"],
    "additionalProperties": False,
    "properties": {"type": {"const": "walk"}, "photographer": POSITION, "drone": POSITION},
}
MOVE_SCHEMA = {"oneOf": [PLACE_SCHEMA, WALK_SCHEMA]}


def _int(value, name: str) -> int:
    if type(value) is not int or not -1000 <= value <= 1000:
        raise IllegalMove("'%(name)s' must be an integer between -1000 and 1000", name=name)
    return value


def _keys(move: dict, required: set[str], optional: set[str]) -> None:
    missing = required - move.keys()
    if missing:
        raise IllegalMove("missing %(missing)s", missing=sorted(missing))
    extra = move.keys() - required - optional
    if extra:
        raise IllegalMove("unknown keys %(extra)s", extra=sorted(extra))


def parse_place(move: dict) -> tuple[str, int, int, int, bool]:
    _keys(move, {"type", "card", "x", "y", "rotation"}, {"under"})
    card = move["card"]
    if not isinstance(card, str) or card not in cards.SCENE:
        raise IllegalMove("'card' must be the id of a Scene Card")
    rotation = move["rotation"]
    if type(rotation) is not int or rotation not in cards.ROTATIONS:
        raise IllegalMove("'rotation' must be 0, 90, 180 or 270")
    under = move.get("under", False)
    if not isinstance(under, bool):
        raise IllegalMove("'under' must be true or false")
    return card, _int(move["x"], "x"), _int(move["y"], "y"), rotation, under


def _position(value, name: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise IllegalMove("'%(name)s' must be [x, y]", name=name)
    return _int(value[0], name), _int(value[1], name)


def parse_walk(move: dict) -> dict[str, tuple[int, int]]:
    _keys(move, {"type"}, {"photographer", "drone"})
    return {token: _position(move[token], token) for token in ("photographer", "drone") if token in move}
