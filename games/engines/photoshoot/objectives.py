"""The 50 Photo Objective cards: a reconstruction (the published cards are not public).

Each card shows some characters on the 3x3 square, like the rulebook's example; the other cells
are free. A card is a 9-letter string in reading order, "." for a free cell, one letter per
character (characters.LETTERS: M Max, O Olivia, A Alice, P Pam, E Edgar, J Jo, C Chloé,
T Arthur, F James). 20 cards show 3 characters, 20 show 4 and 10 show 5.

They were drawn once from a seeded generator and frozen here, rejecting any card that an orange
effect would make impossible: Arthur orthogonally beside Max, or James away from Olivia.
tests/engines/photoshoot/test_objectives.py proves by search that every card can be reached
from every square under every set of orange effects a team can hold.
"""

from __future__ import annotations

from typing import Any, Sequence

from .characters import LETTERS

CARDS: tuple[str, ...] = (
    ".E.P....O",
    "T...M...O",
    "...CO..F.",
    "..J..C..A",
    "...M..AE.",
    "....AJ..P",
    "J...F..C.",
    "A..PC....",
    ".....FJC.",
    "C....T.O.",
    ".PC.A....",
    ".MJ.....C",
    ".M.A....O",
    "T.J..O...",
    "...O..MF.",
    ".AO....E.",
    "T......AC",
    ".O..PT...",
    "J.A..F...",
    "FE......T",
    ".FOP...A.",
    ".T...OM.A",
    "FO.....CA",
    ".A.TJ...M",
    "TJ.E..O..",
    ".J..E..PT",
    "A.MF....T",
    ".....PFOA",
    "...AFJT..",
    "C..P.M..O",
    "P....M.FJ",
    "..A.M.PE.",
    ".F..T..CM",
    ".A....MJT",
    "...P.CM.T",
    ".JM.E..O.",
    "O.JE..C..",
    "M...E..CO",
    ".....FATE",
    "FE...MP..",
    "..O.TJC.M",
    "...ETA.FM",
    ".F..OP.JC",
    "M.F..TEP.",
    "TJ..P..MF",
    "..F.A.TEM",
    ".PTO..J.A",
    ".CT..JPF.",
    "....PTJCA",
    "T.F.J..EP",
)
COUNT = len(CARDS)


def cells(card: int) -> list[str | None]:
    """The card as 9 cells: a character's name, or None for a free cell."""
    return [LETTERS.get(letter) for letter in CARDS[card]]


def matches(grid: Sequence[str], card: int) -> bool:
    """ "When the Character tiles are correctly arranged": every character shown is in its cell."""
    return all(want is None or want == have for want, have in zip(cells(card), grid))


def placed(grid: Sequence[str], card: int) -> int:
    """How many characters of the card are already in their cell."""
    return sum(want is not None and want == have for want, have in zip(cells(card), grid))


def public(card: int | None) -> dict[str, Any] | None:
    return None if card is None else {"id": card, "cells": cells(card)}
