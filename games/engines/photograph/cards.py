"""Shot cards, the deck of six piles with the sunset card, and the layout diagram.

A shot card is the string "<colour>-<number>" ("blue-7"): plain JSON, easy to account for.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import rng

# "84 shot cards (12 each of 7 colors: blue, red, yellow, green, brown, gray, and purple)"
COLOURS = ("blue", "red", "yellow", "green", "brown", "gray", "purple")
NUMBERS = tuple(range(1, 13))
SUNSET = "sunset"

# "Playing with 4: use all the shot cards. 3: remove one color. 2: remove two colors."
COLOURS_IN_PLAY = {2: 5, 3: 6, 4: 7}
HAND_SIZE = 5
PILES = 6
# The sunset pile goes "on top of another pile" and the other four on top of both: it is the
# second pile from the bottom (index 4 of 6, counted from the top of the deck).
SUNSET_PILE = PILES - 2

COLUMNS = 4
# "cards in the leftmost and rightmost columns are laid face-up, the two center columns face-down"
FACE_UP_COLUMNS = (0, COLUMNS - 1)
CENTRE_COLUMNS = (1, 2)

# THE layout diagram (the only copy of the dealing order in the code): the rulebook says to deal
# "in the order shown on the diagram, starting with the card numbered 1", but the diagram is not
# in the text. Each grid below is that diagram, one per side: the number in a place is the order
# in which it is dealt. Row 0 is the top row, column 0 the leftmost column. Any correction to the
# printed diagram is made here and nowhere else.
LAYOUT_DIAGRAM: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)),
    3: ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)),
}
LAYOUT_DIAGRAM[4] = LAYOUT_DIAGRAM[3]


def rows_for(players: int) -> int:
    return len(LAYOUT_DIAGRAM[players])


def deal_order(players: int) -> list[tuple[int, int]]:
    """Layout places, (row, column), in the diagram's dealing order."""
    grid = LAYOUT_DIAGRAM[players]
    numbered = {grid[r][c]: (r, c) for r in range(len(grid)) for c in range(COLUMNS)}
    return [numbered[n] for n in sorted(numbered)]


def face_up_at(column: int) -> bool:
    return column in FACE_UP_COLUMNS


def make(colour: str, number: int) -> str:
    return f"{colour}-{number}"


def colour_of(card: str) -> str:
    return card.split("-", 1)[0]


def number_of(card: str) -> int:
    return int(card.split("-", 1)[1])


def is_card(value: Any) -> bool:
    if not isinstance(value, str) or value.count("-") != 1:
        return False
    colour, number = value.split("-")
    return colour in COLOURS and number.isdigit() and int(number) in NUMBERS


def face(card: str) -> dict[str, Any]:
    """A card as someone who has seen its face knows it."""
    return {"colour": colour_of(card), "number": number_of(card)}


def back(card: str) -> dict[str, Any]:
    """What the back of a card shows: its colour and whether its number is 1-6 or 7-12."""
    return {"colour": colour_of(card), "range": "1-6" if number_of(card) <= 6 else "7-12"}


def all_cards(colours) -> list[str]:
    return [make(c, n) for c in colours for n in NUMBERS]


def choose_colours(players: int, seed: str) -> tuple[list[str], list[str]]:
    """(colours in play, colours removed from the game), both in the rulebook's colour order."""
    leaving = rng(seed, "colours").sample(COLOURS, len(COLOURS) - COLOURS_IN_PLAY[players])
    return [c for c in COLOURS if c not in leaving], [c for c in COLOURS if c in leaving]


def build_deck(colours, seed: str) -> list[str]:
    """The deck, top card first: shuffle, deal 6 roughly equal piles, shuffle the sunset card into
    one, stack it second from the bottom."""
    cards = all_cards(colours)
    shuffler = rng(seed, "deck")
    shuffler.shuffle(cards)
    size, extra = divmod(len(cards), PILES)
    piles, start = [], 0
    for index in range(PILES):
        end = start + size + (1 if index < extra else 0)
        piles.append(cards[start:end])
        start = end
    sunset_pile = piles[SUNSET_PILE]
    sunset_pile.insert(shuffler.randrange(len(sunset_pile) + 1), SUNSET)
    return [card for pile in piles for card in pile]
