"""The cards' photographs (art.py, motifs/): drawn from each card's words and id, every one
different, each showing the subjects its title names."""

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
    assert art.scene(entry) != art.scene({**entry, "id": 501})  # same words, another card: another photo


def test_the_settings_all_occur_among_the_cards():
    used = {art.scene(entry)[0] for entry in cards.CATALOGUE}
    assert used == set(art.SETTINGS)


def test_every_card_shows_a_subject_of_its_own():
    """No two cards share the same set of subjects: each photo can be told apart and judged."""
    shown = {entry["id"]: frozenset(art.motifs(entry)) for entry in cards.CATALOGUE}
    assert all(shown.values()), [i for i, names in shown.items() if not names]
    assert len(set(shown.values())) == len(shown)
    for entry in cards.CATALOGUE:
        svg = art.scene(entry)[2]
        assert all(f'data-motif="{name}"' in svg for name in shown[entry["id"]])


def test_a_subject_follows_the_title_words():
    assert "lighthouse" in art.motifs({"id": 1, "title": "Lighthouse at Dusk", "tags": ["coast"]})
    assert art.motifs({"id": 7, "title": "Grandmother's Kitchen", "tags": []}) == ("kitchen",)
    # A phrase is matched as one: a vintage car is not any car.
    assert "vintage car" not in art.motifs({"id": 40, "title": "Rain on a Car Window", "tags": ["vintage"]})
