"""The 9 Character tiles (Components: "9 Character tiles"), as the rulebook names them.

A character is named by its first name everywhere in the state, the views and the moves; the
species is shown beside it. Olivia, Chloé and Alice are "the three girlfriends" (blue background).
"""

from __future__ import annotations

CHARACTERS: dict[str, str] = {
    "Max": "dog",
    "Olivia": "squirrel",
    "Alice": "marmot",
    "Pam": "giraffe",
    "Edgar": "monkey",
    "Jo": "rhinoceros",
    "Chloé": "rabbit",
    "Arthur": "cat",
    "James": "fox",
}
NAMES: tuple[str, ...] = tuple(CHARACTERS)

# "The Three Girlfriends: Olivia the squirrel, Chloé the rabbit and Alice the marmot".
GIRLFRIENDS: frozenset[str] = frozenset({"Olivia", "Chloé", "Alice"})

# One letter per character for the compact objective data (objectives.py).
LETTERS: dict[str, str] = {
    "M": "Max",
    "O": "Olivia",
    "A": "Alice",
    "P": "Pam",
    "E": "Edgar",
    "J": "Jo",
    "C": "Chloé",
    "T": "Arthur",
    "F": "James",
}


def label(name: str) -> str:
    """'Max the dog'."""
    return f"{name} the {CHARACTERS[name]}"
