"""The layout: choosing a subject from it, and step 4 "Check the layout" (refills, the sunset card).

A place holds None or {"card": "blue-7", "up": bool}; `up` is whether it lies face up.
"""

from __future__ import annotations

from typing import Any

from .cards import CENTRE_COLUMNS, SUNSET, deal_order, face_up_at

SIDES = ("left", "right")
MAX_TAKE = 3
REFILL_AT = 3  # "If 3 or fewer remain, lay out new cards from the deck"

# What `check` and `resume` report.
CONTINUE, SUNSET_PAUSE, GAME_END = "continue", "sunset", "end"


def count(layout) -> int:
    return sum(1 for row in layout for place in row if place is not None)


def row_columns(layout, row: int) -> list[int]:
    """Columns of the cards still in a row, left to right. Taken places are gaps, not cards: the
    row's end is its first remaining card from that side ("you may not skip over cards")."""
    return [c for c, place in enumerate(layout[row]) if place is not None]


def take(layout, row: int, side: str, how_many: int) -> list[tuple[list[int], dict[str, Any]]]:
    """Remove `how_many` cards from one end of a row, in the order they are taken."""
    columns = row_columns(layout, row)
    chosen = columns[:how_many] if side == "left" else columns[::-1][:how_many]
    taken = []
    for column in chosen:
        taken.append(([row, column], layout[row][column]))
        layout[row][column] = None
    return taken


def empty_layout(players: int) -> list[list[None]]:
    places = deal_order(players)
    rows = 1 + max(r for r, _ in places)
    columns = 1 + max(c for _, c in places)
    return [[None] * columns for _ in range(rows)]


def deal(state: dict[str, Any], places: list[list[int]], record: dict[str, Any]) -> bool:
    """Deal from the top of the deck into `places` in that order. Returns True when the sunset
    card came up: dealing pauses there and `state["deal_queue"]` keeps the places still to fill.
    When the deck runs out the remaining places stay empty."""
    for index, (row, column) in enumerate(places):
        if not state["deck"]:
            break
        card = state["deck"].pop(0)
        if card == SUNSET:
            state["sunset"] = "revealed"
            state["deal_queue"] = [list(p) for p in places[index:]]
            record["sunset"] = True
            return True
        up = face_up_at(column)
        state["layout"][row][column] = {"card": card, "up": up}
        record.setdefault("dealt", []).append({"pos": [row, column], "card": card, "face_up": up})
    state["deal_queue"] = []
    return False


def _refill_three_four(state, record) -> None:
    """3-4 players: "1. Remove all face-up cards remaining in the layout from the game. 2. Move all
    cards lying face-down in the two center columns, keeping their position, to the first
    available positions in the leftmost column, in order, and turn them face-up." "In order" is
    read as the diagram's order, for both the cards moved and the places they go to."""
    layout = state["layout"]
    order = deal_order(state["players"])
    for row, column in order:
        place = layout[row][column]
        if place is not None and place["up"]:
            state["out"].append({"card": place["card"], "seen": True})
            record["removed"].append({"pos": [row, column], "card": place["card"], "seen": True})
            layout[row][column] = None
    moving = [(r, c) for r, c in order if c in CENTRE_COLUMNS and layout[r][c] is not None]
    targets = [(r, c) for r, c in order if c == 0 and layout[r][c] is None]
    for (row, column), (to_row, to_column) in zip(moving, targets):
        card = layout[row][column]["card"]
        layout[row][column] = None
        layout[to_row][to_column] = {"card": card, "up": True}
        record["moved"].append({"from": [row, column], "to": [to_row, to_column], "card": card})


def _refill_two(state, record) -> None:
    """2 players: "remove all remaining cards in the layout from the game" (face-down ones unseen)."""
    layout = state["layout"]
    for row, column in deal_order(state["players"]):
        place = layout[row][column]
        if place is not None:
            state["out"].append({"card": place["card"], "seen": place["up"]})
            record["removed"].append({"pos": [row, column], "card": place["card"], "seen": place["up"]})
            layout[row][column] = None


def check(state: dict[str, Any], record: dict[str, Any]) -> str:
    """Step 4: refill when 3 or fewer cards remain. Returns CONTINUE, SUNSET_PAUSE or GAME_END."""
    if count(state["layout"]) > REFILL_AT:
        return CONTINUE
    record.update({"refilled": True, "removed": [], "moved": []})
    if state["players"] == 2:
        _refill_two(state, record)
    else:
        _refill_three_four(state, record)
    empty = [[r, c] for r, c in deal_order(state["players"]) if state["layout"][r][c] is None]
    if deal(state, empty, record):
        return SUNSET_PAUSE
    return _after_dealing(state)


def resume(state: dict[str, Any], record: dict[str, Any]) -> str:
    """After the sunset card: "continue resolving step 4"."""
    if deal(state, state["deal_queue"], record):  # one sunset card only: cannot happen twice
        return SUNSET_PAUSE
    return _after_dealing(state)


def _after_dealing(state) -> str:
    # "if after resolving step 4, 3 or fewer cards remain in the layout (because the shot card
    # deck has run out), the game ends immediately"
    return GAME_END if count(state["layout"]) <= REFILL_AT else CONTINUE
