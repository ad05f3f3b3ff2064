"""Game End & Final Scoring: scenes (A), photos (B) and goals (C), from the visible squares."""

from __future__ import annotations

from . import photos as photo_rules
from .layout import NEIGHBOURS, Cell, Grid, visible

LAVENDER_MEET_PENALTY = -3
SUNFLOWER_FACING = 2
SUNFLOWER_CROOKED = -3
TOWN_SET_POINTS = {1: 1, 2: 3, 3: 7, 4: 12}
GOAL_FIRST, GOAL_SECOND = 6, 3
DECK_SIDE = "N"  # the scene deck lies beyond the top edge of every landscape


def fields(grid: Grid, terrain: str, attr: str | None = None) -> list[set[Cell]]:
    """Orthogonally adjacent groups of visible `terrain` squares (of one `attr` if given)."""
    pool = {c for c, (t, a, _) in grid.items() if t == terrain and (attr is None or a == attr)}
    groups = []
    while pool:
        start = pool.pop()
        group, todo = {start}, [start]
        while todo:
            cx, cy = todo.pop()
            for dx, dy in NEIGHBOURS:
                n = (cx + dx, cy + dy)
                if n in pool:
                    pool.discard(n)
                    group.add(n)
                    todo.append(n)
        groups.append(group)
    return groups


def largest(grid: Grid, terrain: str, attr: str | None = None) -> int:
    return max((len(g) for g in fields(grid, terrain, attr)), default=0)


def lavender(grid: Grid) -> dict:
    """Only the largest vertical and the largest horizontal field score: the larger 1 per
    square, the smaller 2 per square (equal fields: one of each, "3x1 + 3x2"). Every spot where
    a vertical square touches a horizontal one costs 3."""
    vertical, horizontal = largest(grid, "lavender", "v"), largest(grid, "lavender", "h")
    big, small = max(vertical, horizontal), min(vertical, horizontal)
    meets = 0
    for (cx, cy), (t, a, _) in grid.items():
        if t == "lavender" and a == "v":
            for dx, dy in NEIGHBOURS:
                other = grid.get((cx + dx, cy + dy))
                if other and other[0] == "lavender" and other[1] == "h":
                    meets += 1
    return {
        "vertical": vertical,
        "horizontal": horizontal,
        "points": big + 2 * small,
        "meets": meets,
        "penalty": LAVENDER_MEET_PENALTY * meets,
    }


def _in_block(grid_wheat: set[Cell], cell: Cell) -> bool:
    # A square is inside an all-wheat rectangle of at least 2x2 exactly when one of the four
    # 2x2 blocks containing it is all wheat.
    x, y = cell
    for ox in (0, -1):
        for oy in (0, -1):
            if all((x + ox + i, y + oy + j) in grid_wheat for i in (0, 1) for j in (0, 1)):
                return True
    return False


def wheat(grid: Grid) -> dict:
    """Fields of 2+ wheat squares score 1 per square, 2 per square inside an all-wheat rectangle
    of at least 2x2; a single square scores nothing.

    The text says "a rectangle or square larger than 2x2", but the scoring example gives
    "4 of them are within a rectangle score you 4x2": a 2x2 square counts. We follow the example.
    """
    squares = {c for c, (t, _, _) in grid.items() if t == "wheat"}
    doubled = single = 0
    for group in fields(grid, "wheat"):
        if len(group) < 2:
            continue
        inside = sum(1 for c in group if _in_block(squares, c))
        doubled += inside
        single += len(group) - inside
    return {"points": 2 * doubled + single, "doubled": doubled, "single": single}


def sunflowers(grid: Grid) -> dict:
    facing = sum(1 for t, a, _ in grid.values() if t == "sunflower" and a == DECK_SIDE)
    crooked = sum(1 for t, a, _ in grid.values() if t == "sunflower" and a != DECK_SIDE)
    return {
        "facing": facing,
        "crooked": crooked,
        "points": SUNFLOWER_FACING * facing,
        "penalty": SUNFLOWER_CROOKED * crooked,
    }


def town_sets(shops: list[str | None]) -> list[int]:
    """Split one town's shops into sets of different shops. Taking one of every shop left,
    again and again, makes the largest sets, which is best since a set's points grow faster
    than its size (1/3/7/12)."""
    counts: dict[str | None, int] = {}
    for shop in shops:
        counts[shop] = counts.get(shop, 0) + 1
    sets = []
    while counts:
        sets.append(len(counts))
        counts = {s: n - 1 for s, n in counts.items() if n > 1}
    return sets


def towns(grid: Grid) -> dict:
    """Each group of neighbouring town squares scores its sets of 1/2/3/4 different shops
    1/3/7/12 points; a single town scores 1."""
    sets = []
    for group in fields(grid, "town"):
        sets.extend(town_sets([grid[c][1] for c in group]))
    return {"sets": sorted(sets, reverse=True), "points": sum(TOWN_SET_POINTS[s] for s in sets)}


def goal_value(grid: Grid, goal: str) -> int:
    """A player's measure for one goal (Appendix: Goal Cards)."""
    if goal == "churches":
        return sum(1 for t, _, _ in grid.values() if t == "church")
    if goal == "mills":
        return sum(1 for t, _, _ in grid.values() if t == "mill")
    if goal == "sunflowers_facing_deck":
        return sum(1 for t, a, _ in grid.values() if t == "sunflower" and a == DECK_SIDE)
    if goal == "lavender_field":
        return max(largest(grid, "lavender", "v"), largest(grid, "lavender", "h"))
    if goal == "wheat_field":
        return largest(grid, "wheat")
    if goal == "forest_field":
        return largest(grid, "forest")
    raise ValueError(goal)


def goal_points(values: list[int]) -> list[int]:
    """1st place 6, 2nd place 3; at least one qualifying visible square to score; tied players
    gain the same points. Interpretation: places go by value, so players tied for 1st all
    score 6 and the next lower value is still 2nd place (3 points)."""
    ranked = sorted({v for v in values if v > 0}, reverse=True)
    prize = dict(zip(ranked, (GOAL_FIRST, GOAL_SECOND)))
    return [prize.get(v, 0) if v > 0 else 0 for v in values]


def scene_breakdown(grid: Grid) -> dict:
    lav, wht, sun, twn = lavender(grid), wheat(grid), sunflowers(grid), towns(grid)
    return {
        "lavender": lav["points"],
        "lavender_penalty": lav["penalty"],
        "wheat": wht["points"],
        "sunflowers": sun["points"],
        "sunflower_penalty": sun["penalty"],
        "towns": twn["points"],
    }


def final(state: dict, grids: list[Grid] | None = None) -> tuple[dict[int, int], dict[int, tuple], dict[int, dict]]:
    """(scores, sort keys, breakdown) of every seat. The key breaks ties by FEWER Player Markers
    placed; still equal keys share the victory. `grids` (the visible squares) default to the
    state's landscapes."""
    n = state["players"]
    grids = [visible(land) for land in state["landscapes"]] if grids is None else grids
    goal_scores = [[0] * len(state["goals"]) for _ in range(n)]
    for g, goal in enumerate(state["goals"]):
        for seat, pts in enumerate(goal_points([goal_value(grid, goal["goal"]) for grid in grids])):
            goal_scores[seat][g] = pts
    scores, keys, breakdown = {}, {}, {}
    for seat in range(n):
        parts = scene_breakdown(grids[seat])
        parts["photos"] = photo_rules.points(state["photos"], seat)
        parts["goals"] = sum(goal_scores[seat])
        total = sum(parts.values())
        markers = sum(1 for p in state["photos"] for spot in p["markers"] if seat in spot)
        breakdown[seat] = {
            **parts,
            "goal_detail": {g["goal"]: goal_scores[seat][i] for i, g in enumerate(state["goals"])},
            "markers_placed": markers,
            "total": total,
        }
        scores[seat] = total
        keys[seat] = (total, -markers)
    return scores, keys, breakdown


def standing(view: dict) -> list[dict]:
    """Every seat's score if the game ended now, from a view: landscapes, photos and goals are
    public, so this is the final scoring of what everyone sees (goals ranked between the
    landscapes as they stand). Once the game is over the result's scores stand."""
    if view.get("result"):
        return [{"seats": [s], "score": score} for s, score in enumerate(view["result"]["scores"])]
    grids = [visible(land) for land in view["landscapes"]]
    scores, _, _ = final({"players": view["players"], "goals": view["goals"], "photos": view["photos"]}, grids)
    return [{"seats": [s], "score": scores[s]} for s in range(view["players"])]
