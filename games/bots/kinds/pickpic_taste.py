"""Pick Pic's taste: how well one picture fits another, for every pair of the 120 cards.

A player sees a card's title, its tags and its photograph. Judged by shared tags alone, 82% of
pairs of cards share nothing, so most gifts and most random cards look alike and a ranking can
hardly tell them apart. The fit here is denser, and built only from what the engine prints on
every card (`cards.CATALOGUE`) and draws on it (`art.scene`: its setting and its light), so it is
the same for every seat and reveals nothing:

- each card is a weighted bag of its words: tags, the title's words without the little words,
  the photograph's setting and light; a word on many cards weighs less (tf-idf);
- the direct fit of two cards is the cosine of their bags;
- two cards that fit the same other cards fit each other too (the cosine of their rows of direct
  fits, without themselves): Shipwreck on the Shore and Old Photo Album share no word, but both
  fit pictures of decay and of memory. This second step is what makes almost every pair
  comparable.

`percentile[table][card]` is where `card` stands among all the other cards by fit to `table`
(0: the worst fit, 1: the best): the chance that `card` fits `table` better than a card drawn at
random, which is what a gift has to beat.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter

from games.engines.pickpic import art, cards

# Title words that name no thing a picture shows.
STOPWORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "at",
        "in",
        "on",
        "of",
        "over",
        "to",
        "and",
        "with",
        "from",
        "by",
        "for",
        "into",
        "against",
        "mid",
    }
)
# How much each kind of word counts, before its rarity: tags are what the card is about; the
# title names the subject; the setting and the light are what the photograph looks like, shared
# by many cards, so they count less (and tf-idf lowers them further).
WEIGHTS = {"tag": 1.0, "title": 0.8, "setting": 0.6, "light": 0.4}
SECOND_ORDER = 0.6  # the weight of the shared-neighbours fit against the direct fit


def words(entry: dict) -> dict[str, float]:
    """The card's bag of words, each with its kind's weight (the heaviest kind if it has two)."""
    bag: dict[str, float] = {}

    def add(word: str, kind: str) -> None:
        bag[word] = max(bag.get(word, 0.0), WEIGHTS[kind])

    for tag in entry["tags"]:
        add(tag.lower(), "tag")
    for word in re.split(r"[\s-]+", entry["title"].lower()):
        word = re.sub(r"'s$", "", word).strip(".,'")
        if word and word not in STOPWORDS:
            add(word, "title")
    setting, light, _ = art.scene(entry)
    add(f"setting:{setting}", "setting")
    add(f"light:{light}", "light")
    return bag


def _unit(vector: dict) -> dict:
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {k: v / norm for k, v in vector.items()} if norm else dict(vector)


def _dot(a: dict, b: dict) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(k, 0.0) for k, v in a.items())


def build(catalogue: list[dict] = cards.CATALOGUE) -> tuple[dict[int, dict[int, float]], dict[int, dict[int, float]]]:
    """(fit, percentile) of a catalogue's cards, each card id -> card id -> value; fit is
    symmetric, in [0, 1]."""
    bags = {c["id"]: words(c) for c in catalogue}
    ids = tuple(bags)
    df = Counter(w for bag in bags.values() for w in bag)
    n = len(bags)
    vectors = {i: _unit({w: x * math.log(n / df[w]) for w, x in bag.items()}) for i, bag in bags.items()}
    direct = {a: {b: _dot(vectors[a], vectors[b]) for b in ids if b != a} for a in ids}
    rows = {a: _unit(direct[a]) for a in ids}
    fit: dict[int, dict[int, float]] = {a: {} for a in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            # Without the pair's own entries: a's fit to b is not evidence of their neighbours.
            ra = {k: v for k, v in rows[a].items() if k != b}
            rb = {k: v for k, v in rows[b].items() if k != a}
            value = (direct[a][b] + SECOND_ORDER * _dot(ra, rb)) / (1 + SECOND_ORDER)
            fit[a][b] = fit[b][a] = round(value, 9)  # rounded: the same on every machine
    percentile = {}
    for t in ids:
        others = sorted(fit[t].values())
        percentile[t] = {c: _rank(others, v) for c, v in fit[t].items()}
    return fit, percentile


def _rank(ordered: list[float], value: float) -> float:
    """The share of `ordered` (which holds `value`) below `value`, ties counted half."""
    below, upto = bisect.bisect_left(ordered, value), bisect.bisect_right(ordered, value)
    return (below + (upto - below - 1) / 2) / max(1, len(ordered) - 1)


FIT, PERCENTILE = build()
