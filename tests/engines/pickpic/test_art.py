"""The cards' photographs (art.py): drawn from each card's words and id, every one different."""
from xml.etree import ElementTree

from games.engines.pickpic import art, cards


def test_every_card_has_its_own_well_formed_scene():
    drawn = {}
    for entry in cards.CATALOGUE:
        setting, light, svg = art.scene(entry)
        assert setting in art.SETTINGS and light in art.SKIES
        ElementTree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
        drawn[entry["id"]] = svg
    assert len(set(drawn.values())) == len(cards.CATALOGUE) == 120


def test_a_scene_follows_the_card_words_and_is_deterministic():
    entry = {"id": 500, "title": "Harbor at Night", "tags": ["sea", "night", "boat", "stars"]}
    assert art.scene(entry) == art.scene(dict(entry))
    setting, light, _ = art.scene(entry)
    assert (setting, light) == ("sea", "night")
    assert art.scene(entry) != art.scene({**entry, "id": 501})   # same words, another card: another photo


def test_the_settings_all_occur_among_the_cards():
    used = {art.scene(entry)[0] for entry in cards.CATALOGUE}
    assert used == set(art.SETTINGS)
