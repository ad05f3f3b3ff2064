"""The components of Walking in Provence, as data.

RECONSTRUCTION. The published cards are not public; this is the project's own set, built to
agree with everything the rulebook says (counts, terrains, card backs, spot values) and to make
every scoring rule, photo card and goal matter. It is not a copy of the printed cards.

Square codes (a card is written in its base, horizontal orientation: 3 squares wide, 2 high,
top row first; "top" is the card edge printed on top):
    F forest, W wheat field, G meadow, M mill, C church (the two C squares of a card are its one
    church), Lh / Lv lavender growing horizontally / vertically, Tc Tg Tp Ti town with a coffee,
    gift, pizza or ice cream shop, Sn Se Ss Sw sunflower facing the top (north), right, bottom or
    left edge of its card, P scooter and R tree (both meadows; starting area cards only).
"""

from __future__ import annotations

# (id, minimum player count printed in the corner, "top row / bottom row")
# 20 cards marked 2+, 10 each marked 3+, 4+ and 5+ (Game Setup, step 1).
SCENE_CARDS: tuple[tuple[str, int, str], ...] = (
    ("s01", 2, "G  G  G  / Lh Sw Sw"),
    ("s02", 2, "F  F  Tp / M  G  Tp"),
    ("s03", 2, "Lv Lv W  / Lh G  Ti"),
    ("s04", 2, "Tc G  Lh / Tp F  Lh"),
    ("s05", 2, "W  Tg Tg / W  Lv Lh"),
    ("s06", 2, "W  F  Ti / Se Ss G "),
    ("s07", 2, "C  W  W  / C  M  Sw"),
    ("s08", 2, "Lv Lv F  / Lv G  Tc"),
    ("s09", 2, "Lh Lh W  / M  G  G "),
    ("s10", 2, "C  F  Ti / C  G  G "),
    ("s11", 2, "Lh Lh Lv / F  F  F "),
    ("s12", 2, "Sn F  F  / Tg Tp Tg"),
    ("s13", 2, "C  Lh W  / C  Ss F "),
    ("s14", 2, "W  Tc G  / W  G  G "),
    ("s15", 2, "C  C  Lh / Se W  Lv"),
    ("s16", 2, "W  W  F  / Lv G  G "),
    ("s17", 2, "Sn M  Lh / Sn F  Lv"),
    ("s18", 2, "W  W  W  / M  G  G "),
    ("s19", 2, "Ti G  M  / W  W  Lv"),
    ("s20", 2, "W  F  F  / W  Lv Tc"),
    ("s21", 3, "Sn Ss Lv / G  Ti Lv"),
    ("s22", 3, "Lh Lh Tc / Sw G  G "),
    ("s23", 3, "C  Lv W  / C  Ti W "),
    ("s24", 3, "G  G  W  / Tg Tc Tp"),
    ("s25", 3, "C  C  W  / M  G  W "),
    ("s26", 3, "F  Tg Lh / F  W  W "),
    ("s27", 3, "W  F  G  / Lv Lh Sn"),
    ("s28", 3, "F  F  G  / Lv M  G "),
    ("s29", 3, "M  Lv W  / G  Tp F "),
    ("s30", 3, "W  F  F  / Lh Lh Se"),
    ("s31", 4, "G  Lh F  / G  Ti F "),
    ("s32", 4, "Lv W  W  / G  Tg F "),
    ("s33", 4, "C  C  Lv / Tp F  W "),
    ("s34", 4, "Lh Lv W  / M  Ss G "),
    ("s35", 4, "F  F  Se / F  W  Lv"),
    ("s36", 4, "Sn M  Lh / Sn W  Lv"),
    ("s37", 4, "W  G  G  / C  C  Sw"),
    ("s38", 4, "Tg G  Lh / Ti W  Lh"),
    ("s39", 4, "Tc G  G  / W  M  G "),
    ("s40", 4, "W  F  Tp / Lv Lh Tc"),
    ("s41", 5, "G  G  M  / F  F  W "),
    ("s42", 5, "Tc Ti G  / F  Lv Lh"),
    ("s43", 5, "W  F  Tp / W  Se G "),
    ("s44", 5, "C  C  Tc / Sn G  G "),
    ("s45", 5, "G  Sw Ss / F  Lv Lh"),
    ("s46", 5, "C  C  Lv / G  F  F "),
    ("s47", 5, "W  F  Tg / M  Sn Tg"),
    ("s48", 5, "Ti G  Lh / W  W  W "),
    ("s49", 5, "W  G  Lh / Lv Lv Lh"),
    ("s50", 5, "Lh Lv W  / M  Tp W "),
)

# Starting Area Cards: one scooter square (the photographer's start) and two tree squares (the
# drone starts on one of them, chosen at random).
START_CARDS: tuple[tuple[str, str], ...] = (
    ("start1", "R  G  R  / Lh P  W "),
    ("start2", "R  P  F  / G  Sn R "),
    ("start3", "Tc R  G  / R  P  Lv"),
    ("start4", "R  W  W  / P  G  R "),
    ("start5", "F  R  P  / R  G  Tg"),
)

# Photo Cards: back A and B are taken by the photographer, C by the drone. A requirement is
# [terrain, count]: count 1 for church (both squares), mill and sunflower; 2 for adjacent town
# or forest squares; 3, 4 or 5 for adjacent lavender (one direction) or wheat squares (Summary of
# Requirements). Spots run from the highest down; the last one is the infinity spot. "B1" is the
# rulebook's 6-then-4 card; the spot values 8, 7, 6, 4 and 2 of the scoring example all occur.
PHOTO_CARDS: tuple[tuple[str, str, tuple[tuple[str, int], ...], tuple[int, ...]], ...] = (
    ("A1", "A", (("church", 1),), (4, 3, 2)),
    ("A2", "A", (("mill", 1),), (4, 3, 2)),
    ("A3", "A", (("town", 2),), (4, 3, 2)),
    ("A4", "A", (("sunflower", 1), ("forest", 2)), (5, 4, 3)),
    ("B1", "B", (("lavender", 3),), (6, 4)),
    ("B2", "B", (("wheat", 4),), (7, 5, 3)),
    ("B3", "B", (("wheat", 3), ("mill", 1)), (7, 6, 4)),
    ("B4", "B", (("lavender", 5),), (8, 6, 4, 2)),
    ("C1", "C", (("wheat", 5),), (8, 7, 6, 4)),
    ("C2", "C", (("lavender", 4), ("church", 1)), (8, 6, 4)),
    ("C3", "C", (("forest", 2), ("town", 2)), (6, 4, 2)),
    ("C4", "C", (("sunflower", 1), ("mill", 1), ("church", 1)), (7, 5, 3)),
    ("C5", "C", (("lavender", 3), ("wheat", 3)), (7, 6, 4)),
    ("C6", "C", (("town", 2), ("sunflower", 1)), (5, 4, 2)),
)

# Goal Cards: three double-sided cards, the six goals of the appendix. "count" goals count
# visible squares; "field" goals measure the largest orthogonally adjacent field. Each card has a
# count goal on one side and a field goal on the other. The scoring example plays the lavender
# field goal and the church goal in one game, so they are on different cards (rules version 2).
GOAL_CARDS: tuple[tuple[str, tuple[str, str]], ...] = (
    ("G1", ("churches", "wheat_field")),
    ("G2", ("mills", "forest_field")),
    ("G3", ("sunflowers_facing_deck", "lavender_field")),
)
# Rules version 1 paired the appendix's two lists line by line: G1 carried churches and lavender on
# its two sides, so the scoring example's pairing could never be dealt. Kept for version-1 games.
GOAL_CARDS_V1: tuple[tuple[str, tuple[str, str]], ...] = (
    ("G1", ("churches", "lavender_field")),
    ("G2", ("mills", "wheat_field")),
    ("G3", ("sunflowers_facing_deck", "forest_field")),
)

MARKERS_PER_PLAYER = 7
ROUNDS = 10
HAND_SIZE = 2
