"""A player's landscape: the stack of placed cards, what is visible, and where a card may go.

Each placed card has a height `z`: a card put on top gets a height above every earlier card, a
card tucked under gets a height below every earlier card. A square is visible when no card above
it covers it. Tucking a card under the landscape therefore leaves visible exactly its squares
that lie outside every earlier card.
"""

from __future__ import annotations

from typing import Any, Iterator

from . import cards
from ..base import Refusal

Cell = tuple[int, int]
Square = tuple[str, "str | None", str]  # terrain, attribute, id of the card it belongs to
Grid = dict[Cell, Square]

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
MEADOW = "meadow"


def visible(land: dict) -> Grid:
    """The visible square at every covered cell."""
    grid: Grid = {}
    for placed in sorted(land["cards"], key=lambda p: p["z"]):
        x, y = placed["x"], placed["y"]
        for (dx, dy), terrain, attr in cards.oriented(placed["card"], placed["rotation"]):
            grid[(x + dx, y + dy)] = (terrain, attr, placed["card"])
    return grid


def tokens(land: dict) -> set[Cell]:
    return {tuple(land["photographer"]), tuple(land["drone"])}


def meadows(grid: Grid) -> list[Cell]:
    """Visible Meadow squares (scooter and tree squares count as Meadow)."""
    return sorted(cell for cell, square in grid.items() if square[0] == MEADOW)


def church_partners(grid: Grid) -> dict[Cell, Cell]:
    """Each visible church square -> the other square of its church."""
    by_card: dict[str, list[Cell]] = {}
    for cell, (terrain, _, card) in grid.items():
        if terrain == "church":
            by_card.setdefault(card, []).append(cell)
    partners = {}
    for cells_ in by_card.values():
        if len(cells_) == 2:
            a, b = cells_
            partners[a], partners[b] = b, a
    return partners


def placement_error(
    land: dict, card: str, x: int, y: int, rotation: int, under: bool, grid: Grid | None = None
) -> str | None:
    """Why the card may not go there (Details of the Scene Phase, rules 1-5), or None."""
    grid = visible(land) if grid is None else grid
    cells = [(x + dx, y + dy) for dx, dy in cards.footprint(card, rotation)]
    cellset = set(cells)
    covered = [c for c in cells if c in grid]
    if under:
        # Rule 2 "hidden under a previously placed card"; tucking under nothing is just placing.
        if not covered:
            return Refusal("a card tucked under must go under a previously placed card")
        # Rule 3: at least one square of the new card is visible.
        if len(covered) == len(cells):
            return Refusal("at least one square of the new card must stay visible")
        # Rule 5 (tucked): the new card's own church is hidden whole or not at all.
        hidden = [(x + dx, y + dy) in grid for dx, dy in cards.church_offsets(card, rotation)]
        if any(hidden) and not all(hidden):
            return Refusal("a church is covered whole or not at all: both its squares or neither")
        return None
    # Rule 2: orthogonally adjacent to, or covering, a previously placed card.
    if not covered and not any((cx + dx, cy + dy) in grid for cx, cy in cells for dx, dy in NEIGHBOURS):
        return Refusal("the card must touch, cover or be tucked under a previously placed card")
    # Rule 4: squares with a Photographer or Drone token can not be covered.
    if cellset & tokens(land):
        return Refusal("a square with a photographer or drone token can not be covered")
    # Rule 5: if you cover a church, both its squares must be covered.
    partners = church_partners(grid)
    if any(c in partners and partners[c] not in cellset for c in covered):
        return Refusal("a church is covered whole or not at all: both its squares or neither")
    return None


def placements(land: dict, card: str, grid: Grid | None = None) -> Iterator[tuple[int, int, int, bool]]:
    """Every legal (x, y, rotation, under) for `card`, without testing positions one by one:
    anchors are derived from the occupied cells and the card's precomputed footprints."""
    grid = visible(land) if grid is None else grid
    occupied = set(grid)
    border = set(occupied)
    for cx, cy in occupied:
        border.update((cx + dx, cy + dy) for dx, dy in NEIGHBOURS)
    blocked = tokens(land)
    partners = church_partners(grid)
    for rotation in cards.ROTATIONS:
        offsets = cards.footprint(card, rotation)
        own_church = cards.church_offsets(card, rotation)
        # On top: every footprint touching or covering the landscape.
        for ax, ay in sorted({(bx - dx, by - dy) for bx, by in border for dx, dy in offsets}):
            cells = {(ax + dx, ay + dy) for dx, dy in offsets}
            if cells & blocked:
                continue
            if any(partners[c] not in cells for c in cells if c in partners):
                continue
            yield ax, ay, rotation, False
        # Tucked under: every footprint overlapping the landscape with a square left outside it.
        for ax, ay in sorted({(bx - dx, by - dy) for bx, by in occupied for dx, dy in offsets}):
            inside = sum((ax + dx, ay + dy) in occupied for dx, dy in offsets)
            if inside == len(offsets):
                continue
            hidden = sum((ax + dx, ay + dy) in occupied for dx, dy in own_church)
            if hidden not in (0, len(own_church)):
                continue
            yield ax, ay, rotation, True


def place(land: dict, card: str, x: int, y: int, rotation: int, under: bool) -> None:
    """Put the card in `land` (a copy the caller owns)."""
    heights = [p["z"] for p in land["cards"]]
    z = min(heights) - 1 if under else max(heights) + 1
    land["cards"].append({"card": card, "x": x, "y": y, "rotation": rotation, "z": z})


def new_landscape(start_card: str, tree_choice: int) -> dict:
    """A starting area card at the origin, the photographer on its scooter, the drone on a tree."""
    land: dict[str, Any] = {"cards": [{"card": start_card, "x": 0, "y": 0, "rotation": 0, "z": 0}]}
    squares = cards.oriented(start_card, 0)
    scooter = [list(off) for off, _, attr in squares if attr == "scooter"]
    trees = [list(off) for off, _, attr in squares if attr == "tree"]
    land["photographer"] = scooter[0]
    land["drone"] = trees[tree_choice % len(trees)]
    return land
