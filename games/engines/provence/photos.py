"""The Photo phase: frames, the requirements of a Photo Card, and the markers on its spots."""

from __future__ import annotations

from . import cards
from .layout import NEIGHBOURS, Cell, Grid

PHOTOGRAPHER_BACKS = ("A", "B")
DRONE_BACK = "C"
# Interpretation: the 3x5 grid ruler lies with its long side (5 squares) against the
# photographer's square, centred on it, and reaches 3 squares away, like a landscape photo.
FRAME_DEPTH, FRAME_WIDTH = 3, 5


def photographer_frames(pos: Cell) -> dict[str, list[Cell]]:
    """The four 3x5 frames directly above, below, left and right of the photographer."""
    px, py = pos
    half = FRAME_WIDTH // 2
    across = range(-half, half + 1)
    depth = range(1, FRAME_DEPTH + 1)
    return {
        "above": [(px + i, py - d) for d in depth for i in across],
        "below": [(px + i, py + d) for d in depth for i in across],
        "left": [(px - d, py + i) for d in depth for i in across],
        "right": [(px + d, py + i) for d in depth for i in across],
    }


def drone_frame(pos: Cell) -> list[Cell]:
    """The 5x5 frame centred on the drone."""
    dx, dy = pos
    return [(dx + i, dy + j) for j in range(-2, 3) for i in range(-2, 3)]


def _kind(square) -> tuple:
    # Adjacent lavender squares must grow in the same direction (rule 3 of the requirements).
    terrain, attr, _ = square
    return (terrain, attr) if terrain == "lavender" else (terrain,)


def largest_group(grid: Grid, cells: set[Cell], terrain: str) -> int:
    """The largest orthogonally adjacent group of `terrain` squares within `cells`
    (any shape; lavender of one direction)."""
    pool = {c for c in cells if c in grid and grid[c][0] == terrain}
    best = 0
    while pool:
        start = pool.pop()
        kind = _kind(grid[start])
        todo, size = [start], 1
        while todo:
            cx, cy = todo.pop()
            for dx, dy in NEIGHBOURS:
                n = (cx + dx, cy + dy)
                if n in pool and _kind(grid[n]) == kind:
                    pool.discard(n)
                    todo.append(n)
                    size += 1
        best = max(best, size)
    return best


def requirement_met(grid: Grid, frame: list[Cell], terrain: str, count: int) -> bool:
    cells = set(frame)
    if terrain == "church":
        # Both squares of one church must appear in the frame.
        churches: dict[str, list[Cell]] = {}
        for cell, (t, _, card) in grid.items():
            if t == "church":
                churches.setdefault(card, []).append(cell)
        return any(len(both) == 2 and all(c in cells for c in both) for both in churches.values())
    return largest_group(grid, cells, terrain) >= count


def frames_met(grid: Grid, frames: list[list[Cell]], requires: list) -> bool:
    """All the required squares appear in one frame."""
    return any(all(requirement_met(grid, frame, t, n) for t, n in requires) for frame in frames)


def completed(grid: Grid, land: dict, photo_id: str) -> bool:
    photo = cards.PHOTO[photo_id]
    if photo["back"] == DRONE_BACK:
        frames = [drone_frame(tuple(land["drone"]))]
    else:
        frames = list(photographer_frames(tuple(land["photographer"])).values())
    return frames_met(grid, frames, photo["requires"])


def holders(photo: dict) -> set[int]:
    return {seat for spot in photo["markers"] for seat in spot}


def award(photo: dict, seats: list[int]) -> int:
    """Put the markers of `seats` (who completed this card in the same phase) on one spot:
    the highest empty one, else the infinity spot (the last). Returns the spot's index."""
    spots = photo["markers"]
    index = next((i for i, spot in enumerate(spots[:-1]) if not spot), len(spots) - 1)
    spots[index].extend(sorted(seats))
    return index


def points(photos: list[dict], seat: int) -> int:
    """Points for Photos: the value of every spot holding the seat's marker."""
    total = 0
    for photo in photos:
        values = cards.PHOTO[photo["card"]]["spots"]
        total += sum(values[i] for i, spot in enumerate(photo["markers"]) if seat in spot)
    return total
