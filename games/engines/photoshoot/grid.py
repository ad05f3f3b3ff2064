"""The 3x3 square of Character tiles: cells 0..8 in reading order (row * 3 + column).

Geometry and the two ways tiles move: a swap of two cells, and Jo's push (a row or column shifted
one cell, see `push`). Functions return new lists; they never change the grid they are given.
"""

from __future__ import annotations

from typing import Sequence

SIZE = 3
CELLS = range(SIZE * SIZE)
DIRECTIONS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

Grid = list[str]


def row_col(cell: int) -> tuple[int, int]:
    return divmod(cell, SIZE)


def orthogonal(a: int, b: int) -> bool:
    """Above, below or beside each other ("but not diagonally")."""
    (ra, ca), (rb, cb) = row_col(a), row_col(b)
    return abs(ra - rb) + abs(ca - cb) == 1


def diagonal(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = row_col(a), row_col(b)
    return abs(ra - rb) == 1 and abs(ca - cb) == 1


def touching(a: int, b: int) -> bool:
    """Side by side orthogonally or diagonally (James and Olivia)."""
    return orthogonal(a, b) or diagonal(a, b)


def swap(grid: Sequence[str], a: int, b: int) -> Grid:
    new = list(grid)
    new[a], new[b] = new[b], new[a]
    return new


def line(cell: int, direction: str) -> list[int]:
    """The cells of the row (left/right) or column (up/down) through `cell`, in push order: the
    last one is the far edge the push goes towards."""
    row, col = row_col(cell)
    dr, dc = DIRECTIONS[direction]
    if dr == 0:
        cells = [row * SIZE + c for c in range(SIZE)]
    else:
        cells = [r * SIZE + col for r in range(SIZE)]
    return cells if (dr, dc) in ((1, 0), (0, 1)) else cells[::-1]


def has_front(cell: int, direction: str) -> bool:
    """Is there a tile in front of `cell` in `direction`? ("cannot push into empty space")."""
    return line(cell, direction)[-1] != cell


def push(grid: Sequence[str], cell: int, direction: str) -> Grid:
    """Jo's push: "he pushes all the characters in his row or column".

    Our reading of the far edge (the text leaves it open): the whole line moves one cell in the
    direction and the tile pushed over the far edge comes back at the near end, so the square
    stays full (the line rotates). [a, Jo, b] pushed right gives [b, a, Jo]."""
    cells = line(cell, direction)
    new = list(grid)
    for index, target in enumerate(cells):
        new[target] = grid[cells[index - 1]]
    return new


def cell_of(grid: Sequence[str], name: str) -> int:
    return grid.index(name)
