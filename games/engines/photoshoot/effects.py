"""The Effect cards (10 blue, 4 orange), the difficulty levels and the orange constraints.

Each card has an id `<character>-<what>`; its text is the rulebook's ("Effect Details").
"""

from __future__ import annotations

from typing import Iterable, Sequence

from . import grid as g
from .characters import GIRLFRIENDS
from ..base import Refusal

BLUE: dict[str, dict[str, str]] = {
    "max-stroke": {
        "character": "Max",
        "text": "Each time Max is moved, the next player must stroke his tile before playing.",
    },
    "max-phrase": {
        "character": "Max",
        "text": 'When moving Max, the active player must say "Tout doux le chien!" ("Easy, good doggy!").',
    },
    "olivia-slap": {
        "character": "Olivia",
        "text": "Before moving Olivia, the active player must slap the hand of the player after them.",
    },
    "olivia-applause": {"character": "Olivia", "text": "Before moving Olivia, the active player must applaud her."},
    "alice-contact": {
        "character": "Alice",
        "text": "When moving Alice, her tile must remain in constant contact with the table.",
    },
    "alice-shake": {
        "character": "Alice",
        "text": "Before moving Alice, the active player must shake their neighbour to wake them up.",
    },
    "pam-wave": {
        "character": "Pam",
        "text": 'When Pam is moved, the players of the team must do a Mexican wave ("une Ola").',
    },
    "pam-phrase": {
        "character": "Pam",
        "text": 'When moving Pam, the active player must ask "Eh! Je suis bien dans le cadre?" ("Hey! Am I in the frame?").',
    },
    "edgar-smile": {
        "character": "Edgar",
        "text": 'When moving Edgar, the active player must smile while saying "Ouistiti" ("Monkey").',
    },
    "edgar-ready": {
        "character": "Edgar",
        "text": 'When moving Edgar, the active player must ask "Tout le monde est prêt?" ("Is everyone ready?"). The whole team must answer him!',
    },
}
ORANGE: dict[str, dict[str, str]] = {
    "jo": {
        "character": "Jo",
        "text": "To move, Jo does not swap; instead he pushes all the characters in his row or column. He must always push a character and cannot push into empty space.",
    },
    "chloe": {
        "character": "Chloé",
        "text": "Chloé can only swap diagonally. She can always swap places with her two girlfriends. She can be pushed by Jo, if both effects are active at the same time.",
    },
    "arthur": {
        "character": "Arthur",
        "text": "No movement may leave Arthur and Max side by side, but a diagonal is allowed.",
    },
    "james": {
        "character": "James",
        "text": "James and Olivia must always remain side by side (orthogonally or diagonally).",
    },
}
CARDS: dict[str, dict[str, str]] = {
    **{k: {"id": k, "colour": "blue", **v} for k, v in BLUE.items()},
    **{k: {"id": k, "colour": "orange", **v} for k, v in ORANGE.items()},
}

# Difficulty Levels: the cards a team draws at each threshold of its own score (0 = the start of
# the game). Level 1 is the Base Level.
LEVELS: dict[int, dict[int, tuple[str, ...]]] = {
    1: {5: ("blue",), 15: ("orange",)},
    2: {0: ("blue",), 5: ("blue",), 15: ("orange",)},
    3: {0: ("blue",), 5: ("orange",), 15: ("orange",)},
    4: {0: ("blue",), 5: ("blue", "blue"), 15: ("orange",)},
    5: {0: ("blue",), 5: ("blue", "orange"), 15: ("orange",)},
}
THRESHOLDS = (0, 5, 15)


def schedule(level: int, family: bool) -> dict[int, tuple[str, ...]]:
    """The draws per threshold. Family Variant: "drawing only blue Effect cards" (we apply it to
    any level: every orange draw becomes a blue one)."""
    table = LEVELS[level]
    if not family:
        return dict(table)
    return {t: tuple("blue" for _ in colours) for t, colours in table.items()}


def characters_of(effects: Iterable[str]) -> list[str]:
    """The tiles a team turns to their black-frame side."""
    return sorted({CARDS[e]["character"] for e in effects})


# ---------------------------------------------------------------------------------------------
# Orange constraints: what a swap or a push may do, and what no movement may leave behind
# ---------------------------------------------------------------------------------------------
def swap_fault(grid: Sequence[str], a: int, b: int, effects: Iterable[str]) -> str | None:
    """Why swapping cells a and b breaks the rules, or None when it is a correct swap."""
    effects = set(effects)
    x, y = grid[a], grid[b]
    pair = {x, y}
    if "jo" in effects and "Jo" in pair:
        return Refusal("Jo does not swap: he pushes his row or column")
    friends = pair <= GIRLFRIENDS
    if "chloe" in effects and "Chloé" in pair:
        if friends or g.diagonal(a, b):
            return None
        return Refusal("Chloé swaps only diagonally, or with her girlfriends")
    if g.orthogonal(a, b) or friends:
        return None
    return Refusal("only two adjacent characters (not diagonally) or two girlfriends may swap")


def push_fault(grid: Sequence[str], cell: int, direction: str, effects: Iterable[str]) -> str | None:
    if grid[cell] != "Jo" or "jo" not in set(effects):
        return Refusal("only Jo pushes, and only with his Effect card")
    if not g.has_front(cell, direction):
        return Refusal("Jo must always push a character: he cannot push into empty space")
    return None


def placement_fault(grid: Sequence[str], effects: Iterable[str]) -> str | None:
    """What the grid may never look like after a movement (Arthur, James)."""
    effects = set(effects)
    if "arthur" in effects and g.orthogonal(grid.index("Arthur"), grid.index("Max")):
        return Refusal("no movement may leave Arthur and Max side by side")
    if "james" in effects and not g.touching(grid.index("James"), grid.index("Olivia")):
        return Refusal("James and Olivia must always remain side by side")
    return None


def needs_mending(grid: Sequence[str], effects: Iterable[str]) -> bool:
    """Arthur's and James's notes: fix the square before the round starts."""
    return placement_fault(grid, effects) is not None


def base_swaps() -> list[tuple[int, int]]:
    """Every pair of cells (a < b): the move schema lets a player name any of them."""
    return [(a, b) for a in g.CELLS for b in g.CELLS if a < b]


def correct_movements(grid: Sequence[str], effects: Iterable[str]) -> list[tuple[str, ...]]:
    """Every error-free movement from `grid`: ("swap", a, b) and ("push", cell, direction)."""
    effects = set(effects)
    found: list[tuple] = []
    for a, b in base_swaps():
        if swap_fault(grid, a, b, effects) is None and placement_fault(g.swap(grid, a, b), effects) is None:
            found.append(("swap", a, b))
    if "jo" in effects:
        jo = grid.index("Jo")
        for direction in g.DIRECTIONS:
            if (
                push_fault(grid, jo, direction, effects) is None
                and placement_fault(g.push(grid, jo, direction), effects) is None
            ):
                found.append(("push", jo, direction))
    return found


# The orange sets a team can hold together: up to two orange cards (Levels 3 and 5).
def orange_combinations() -> list[frozenset[str]]:
    names = sorted(ORANGE)
    combos: list[frozenset[str]] = [frozenset()] + [frozenset({n}) for n in names]
    combos += [frozenset({a, b}) for i, a in enumerate(names) for b in names[i + 1 :]]
    return combos
