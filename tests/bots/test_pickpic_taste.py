"""Pick Pic's taste (`games.bots.kinds.pickpic_taste`): a fit for every pair of cards, read only
from what the cards print and show, the same on every machine."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

from games.bots.kinds import pickpic_taste as taste
from games.engines.pickpic import cards


def test_fit_is_symmetric_and_between_0_and_1():
    for a, row in taste.FIT.items():
        assert a not in row
        assert set(row) == set(cards.CARD_IDS) - {a}
        for b, value in row.items():
            assert 0.0 <= value <= 1.0
            assert taste.FIT[b][a] == value


def test_fit_tells_almost_every_pair_apart():
    """Shared tags leave 82% of pairs at nothing; the taste must rank nearly all of them."""
    pairs = [(a, b) for a in cards.CARD_IDS for b in cards.CARD_IDS if a < b]
    shared_tags = sum(1 for a, b in pairs if not set(cards.card(a)["tags"]) & set(cards.card(b)["tags"]))
    assert shared_tags / len(pairs) > 0.8
    values = [taste.FIT[a][b] for a, b in pairs]
    assert sum(1 for v in values if v == 0) / len(pairs) < 0.01
    assert len(set(values)) / len(values) > 0.95


def _digest() -> str:
    return hashlib.sha256(json.dumps(taste.FIT, sort_keys=True).encode()).hexdigest()


def test_fit_is_the_same_in_every_process():
    """No set or hash order may reach the numbers: other hash seeds give the same fits."""
    script = (
        "import hashlib, json; from games.bots.kinds import pickpic_taste as t; "
        "print(hashlib.sha256(json.dumps(t.FIT, sort_keys=True).encode()).hexdigest())"
    )
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert out.stdout.strip() == _digest()


def test_fit_comes_from_what_the_cards_print():
    """A card printed like card 1 (its title and tags, under a new id) fits card 1 better than
    any other card does, and changes no fit that is read from the catalogue alone otherwise."""
    twin = {"id": 999, "title": cards.card(1)["title"], "tags": cards.card(1)["tags"]}
    fit, _ = taste.build([*cards.CATALOGUE, twin])
    assert max(fit[1], key=fit[1].get) == 999
    again, _ = taste.build(list(cards.CATALOGUE))
    assert again == taste.FIT


def test_fit_ranks_a_winter_picture_nearer_winter_than_a_kitchen():
    waterfall, glacier, kitchen = 9, 114, 101
    assert cards.card(glacier)["title"] == "Glacier Cave"
    assert cards.card(kitchen)["title"] == "Restaurant Kitchen Rush"
    assert taste.FIT[waterfall][glacier] > taste.FIT[waterfall][kitchen]
    assert taste.PERCENTILE[waterfall][glacier] > 0.9
    assert taste.PERCENTILE[waterfall][kitchen] < 0.5


def test_percentile_is_a_share_of_the_other_cards():
    for t, row in taste.PERCENTILE.items():
        assert min(row.values()) == 0.0 and max(row.values()) == 1.0
        best = max(taste.FIT[t], key=taste.FIT[t].get)
        assert row[best] == 1.0
