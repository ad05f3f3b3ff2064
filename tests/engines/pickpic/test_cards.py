"""The catalogue of 120 photo cards and their generated images (Components: "120 cards")."""

from pathlib import Path
from xml.etree import ElementTree

import pytest

from games.engines import pickpic
from games.engines.pickpic import cards
from games.engines.pickpic.make_images import DEFAULT_DIR

SVG = "{http://www.w3.org/2000/svg}"


def test_components_120_cards_with_ids_1_to_120():
    """Components: "120 cards"."""
    assert [c["id"] for c in cards.CATALOGUE] == list(range(1, 121))
    assert sorted(cards.CARD_IDS) == list(range(1, 121)) and cards.DECK_SIZE == 120


def test_each_card_has_a_title_and_three_or_four_descriptive_tags():
    titles = [c["title"] for c in cards.CATALOGUE]
    assert len(set(titles)) == 120 and all(t.strip() == t and t for t in titles)
    for c in cards.CATALOGUE:
        assert 3 <= len(c["tags"]) <= 4
        assert len(set(c["tags"])) == len(c["tags"])
        assert all(isinstance(t, str) and t and t == t.strip() for t in c["tags"])


def test_package_exports_the_catalogue_and_the_lookup():
    assert pickpic.CATALOGUE is cards.CATALOGUE
    assert pickpic.card(43) == cards.CATALOGUE[42]
    assert pickpic.card(1)["title"] == "Lighthouse at Dusk"


def test_card_lookup_returns_a_copy_and_rejects_unknown_ids():
    entry = cards.card(7)
    entry["tags"].append("changed")
    entry["title"] = "changed"
    assert cards.card(7)["title"] != "changed" and "changed" not in cards.card(7)["tags"]
    for bad in (0, 121, -1):
        with pytest.raises(KeyError):
            cards.card(bad)


@pytest.mark.parametrize(
    "value,ok",
    [(1, True), (120, True), (0, False), (121, False), (True, False), ("5", False), (5.0, False), (None, False)],
)
def test_is_card_accepts_only_integer_ids_of_the_catalogue(value, ok):
    assert cards.is_card(value) is ok


def test_image_path_is_relative_to_the_image_base():
    assert cards.image_path(17) == "cards/pickpic/17.svg"


def test_card_svg_is_well_formed_and_shows_title_and_tags():
    for entry in cards.CATALOGUE:
        root = ElementTree.fromstring(cards.card_svg(entry))
        assert root.tag == f"{SVG}svg"
        text = " ".join("".join(el.itertext()) for el in root.iter(f"{SVG}text"))
        assert all(word in text for word in entry["title"].split())
        assert all(f"#{tag}" in text for tag in entry["tags"])
        assert root.find(f"{SVG}title").text == entry["title"]


def test_card_svg_escapes_markup_and_is_deterministic():
    entry = {"id": 999, "title": 'Fish & <Chips> "to go"', "tags": ["a&b", "<c>", "d"]}
    svg = cards.card_svg(entry)
    assert svg == cards.card_svg(dict(entry))
    root = ElementTree.fromstring(svg)
    assert root.find(f"{SVG}title").text == entry["title"]
    assert "<Chips>" not in svg


def test_the_shipped_images_are_the_generated_ones():
    """The committed static files must not go stale: regenerate with make_images."""
    files = sorted(DEFAULT_DIR.glob("*.svg"), key=lambda p: int(p.stem))
    assert [int(p.stem) for p in files] == list(range(1, 121))
    for path in files:
        assert path.read_text(encoding="utf-8") == cards.card_svg(cards.card(int(path.stem)))
    assert DEFAULT_DIR == Path(__file__).resolve().parents[3] / "games/static/cards/pickpic"
