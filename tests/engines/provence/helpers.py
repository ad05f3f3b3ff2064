"""Hand-built landscapes for the Walking in Provence tests."""

from __future__ import annotations

from games.engines.provence import cards


def grid_from(text: str) -> dict:
    """Visible squares from a picture: one row per line, codes of components.py separated by
    spaces, "." for no card. "C" squares form one church; "Ca", "Cb"... name separate churches.
    The top line is y = 0 (the deck side), the left column x = 0."""
    grid = {}
    for y, line in enumerate(l for l in text.strip("\n").splitlines() if l.strip()):
        for x, code in enumerate(line.split()):
            if code == ".":
                continue
            if code.startswith("C"):
                grid[(x, y)] = ("church", None, "church-" + code)
            else:
                terrain, attr = cards.CODES[code]
                grid[(x, y)] = (terrain, attr, "hand-built")
    return grid


def landscape(start: str = "start1", *placed, photographer=None, drone=None) -> dict:
    """A landscape of real cards: the starting card at the origin, then each (card, x, y,
    rotation, under) put on top or tucked under in order."""
    from games.engines.provence import layout

    land = layout.new_landscape(start, 0)
    for card, x, y, rotation, under in placed:
        layout.place(land, card, x, y, rotation, under)
    if photographer is not None:
        land["photographer"] = list(photographer)
    if drone is not None:
        land["drone"] = list(drone)
    return land
