"""Card lookup and orientation: the square codes of components.py turned into terrain squares.

A landscape uses screen coordinates: x grows to the right, y grows downwards, and the scene deck
lies beyond the top edge (smaller y) of every player's area. A placed card is anchored by the
top-left square of its footprint after rotation; rotation is clockwise, in degrees.
"""

from __future__ import annotations

from functools import lru_cache

from . import components

ROTATIONS = (0, 90, 180, 270)
FACINGS = "NESW"  # N is the top edge, the one facing the scene deck
SHOPS = ("coffee", "gift", "pizza", "ice_cream")

# code -> (terrain, attribute): lavender direction, sunflower facing, shop, or meadow feature.
CODES: dict[str, tuple[str, str | None]] = {
    "F": ("forest", None),
    "W": ("wheat", None),
    "G": ("meadow", None),
    "M": ("mill", None),
    "C": ("church", None),
    "Lh": ("lavender", "h"),
    "Lv": ("lavender", "v"),
    "Tc": ("town", "coffee"),
    "Tg": ("town", "gift"),
    "Tp": ("town", "pizza"),
    "Ti": ("town", "ice_cream"),
    "Sn": ("sunflower", "N"),
    "Se": ("sunflower", "E"),
    "Ss": ("sunflower", "S"),
    "Sw": ("sunflower", "W"),
    "P": ("meadow", "scooter"),
    "R": ("meadow", "tree"),
}
BASE_WIDTH, BASE_HEIGHT = 3, 2


def parse_rows(text: str) -> tuple[tuple[str, ...], ...]:
    rows = tuple(tuple(row.split()) for row in text.split("/"))
    assert len(rows) == BASE_HEIGHT and all(len(r) == BASE_WIDTH for r in rows), text
    assert all(code in CODES for row in rows for code in row), text
    return rows


SCENE: dict[str, dict] = {
    cid: {"id": cid, "min_players": n, "rows": parse_rows(rows)} for cid, n, rows in components.SCENE_CARDS
}
START: dict[str, dict] = {
    cid: {"id": cid, "min_players": None, "rows": parse_rows(rows)} for cid, rows in components.START_CARDS
}
ALL = {**SCENE, **START}

PHOTO: dict[str, dict] = {
    cid: {"id": cid, "back": back, "requires": [list(r) for r in req], "spots": list(spots)}
    for cid, back, req, spots in components.PHOTO_CARDS
}
GOAL_CARDS: dict[str, tuple[str, str]] = dict(components.GOAL_CARDS)
GOALS = tuple(goal for sides in GOAL_CARDS.values() for goal in sides)


def goal_cards(rules_version: int) -> dict[str, tuple[str, str]]:
    """The goal cards a game of that rules version was dealt from."""
    return dict(components.GOAL_CARDS_V1) if rules_version < 2 else GOAL_CARDS


def scene_ids(players: int) -> list[str]:
    """The Scene Cards used at this player count (Game Setup, step 1)."""
    return [cid for cid, card in SCENE.items() if card["min_players"] <= players]


def size(rotation: int) -> tuple[int, int]:
    """(width, height) of a card's footprint: horizontal at 0/180, vertical at 90/270."""
    return (BASE_WIDTH, BASE_HEIGHT) if rotation in (0, 180) else (BASE_HEIGHT, BASE_WIDTH)


def _turn(col: int, row: int, rotation: int) -> tuple[int, int]:
    w, h = BASE_WIDTH, BASE_HEIGHT
    if rotation == 0:
        return col, row
    if rotation == 90:
        return h - 1 - row, col
    if rotation == 180:
        return w - 1 - col, h - 1 - row
    return row, w - 1 - col


def _turn_attr(terrain: str, attr: str | None, rotation: int) -> str | None:
    # Turning a card a quarter turns its lavender's growth and its sunflowers with it.
    if terrain == "lavender" and rotation in (90, 270):
        return "v" if attr == "h" else "h"
    if terrain == "sunflower" and attr is not None:  # every sunflower faces a side (CODES)
        return FACINGS[(FACINGS.index(attr) + rotation // 90) % 4]
    return attr


@lru_cache(maxsize=None)
def oriented(card_id: str, rotation: int) -> tuple[tuple[tuple[int, int], str, str | None], ...]:
    """The card's squares as ((dx, dy), terrain, attribute) once turned by `rotation`."""
    out = []
    for row, codes in enumerate(ALL[card_id]["rows"]):
        for col, code in enumerate(codes):
            terrain, attr = CODES[code]
            out.append((_turn(col, row, rotation), terrain, _turn_attr(terrain, attr, rotation)))
    return tuple(sorted(out))


@lru_cache(maxsize=None)
def footprint(card_id: str, rotation: int) -> tuple[tuple[int, int], ...]:
    return tuple(offset for offset, _, _ in oriented(card_id, rotation))


@lru_cache(maxsize=None)
def church_offsets(card_id: str, rotation: int) -> tuple[tuple[int, int], ...]:
    return tuple(offset for offset, terrain, _ in oriented(card_id, rotation) if terrain == "church")


def card_json(card_id: str) -> dict:
    """A card as a client shows it: its square codes in base orientation (see components.py)."""
    card = ALL[card_id]
    return {"id": card_id, "min_players": card["min_players"], "rows": [list(r) for r in card["rows"]]}
