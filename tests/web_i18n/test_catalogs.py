"""The web client's words in every language it offers (docs/web.md, "Words on screen"): French and
German say every message English says, with the same placeholders and their own plural forms;
every message the client names is in the English catalog; each game's rules page is in each
language; none is left in English or marked fuzzy. Read without a browser or node
(tests/web_i18n/catalogs.py)."""

import re

import pytest

from tests.web_i18n.catalogs import WEB, catalog, placeholders, rules

LANGUAGES = ("fr", "de")
# The plural categories each language's rules (CLDR, as Intl.PluralRules applies them) can pick.
CARDINAL = {"en": {"one", "other"}, "fr": {"one", "many", "other"}, "de": {"one", "other"}}
ORDINAL = {"en": {"one", "two", "few", "other"}, "fr": {"one", "other"}, "de": {"other"}}


# Messages the same in a language as in English on purpose: a word both languages share
# ("Notifications", "Lobby"), a symbol or letter, a name, placeholders alone. Any other message
# equal to its English was left untranslated.
SAME_AS_ENGLISH = {
    "fr": {
        "bar.points",
        "breakdown.photos",
        "breakdown.total",
        "chat.message",
        "clock.hours",
        "create.unit_minute",
        "create.units_minutes",
        "hooks.title",
        "invite.title",
        "ladders.place",
        "ph.card",
        "pp.scores",
        "profile.last",
        "ps.orange",
        "ps.photo",
        "pv.b_photos",
        "pv.drone",
        "pv.mark_drone",
        "pv.mark_forest",
        "pv.mark_mill",
        "pv.mark_photographer",
        "pv.place",
        "pv.scooter",
        "result.place",
        "result.score",
        "settings.channel_push",
        "settings.channel_webhook",
        "settings.notifications",
        "time.minutes",
        "tournaments.points",
        "tournaments.table",
    },
    "de": {
        "common.labelled",
        "common.list_after",
        "fair.title",
        "hooks.title",
        "lobby.title",
        "nav.lobby",
        "ph.card",
        "ps.orange",
        "ps.photo",
        "ps.team_result",
        "ps.teams",
        "pv.mark_drone",
        "pv.mark_mill",
        "settings.channel_push",
        "settings.channel_webhook",
        "tournaments.seed",
    },
}


@pytest.fixture(scope="module")
def english():
    return catalog("en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_language_has_exactly_the_english_messages_with_the_same_placeholders(english, language):
    other = catalog(language)
    assert sorted(set(english) - set(other)) == [], f"{language} lacks these messages"
    assert sorted(set(other) - set(english)) == [], f"{language} has messages English does not"
    wrong = {
        key: (placeholders(english[key]), placeholders(other[key]))
        for key in english
        if placeholders(english[key]) != placeholders(other[key])
    }
    assert wrong == {}, f"{language}: placeholders differ (English, {language})"
    empty = [
        key
        for key, message in other.items()
        if not all(text.strip() for text in (message.values() if isinstance(message, dict) else [message]))
    ]
    assert empty == [], f"{language}: empty messages"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_is_left_in_english_or_marked_fuzzy(english, language):
    """A message copied from English and not translated yet reads as its English: none may stay
    so but those listed as the same on purpose. A translator unsure of a message marks its line
    `// fuzzy`, as gettext's catalogs do, and it fails here until someone settles it."""
    other = catalog(language)
    left = sorted(key for key, message in english.items() if other.get(key) == message)
    assert sorted(set(left) - SAME_AS_ENGLISH[language]) == [], f"{language}: still in English"
    assert sorted(SAME_AS_ENGLISH[language] - set(left)) == [], "translated since: take it off the list"
    for path in (WEB / "i18n" / f"{language}.js", WEB / "rules" / f"{language}.js"):
        fuzzy = [
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if re.search(r"//\s*fuzzy\b", line, re.IGNORECASE)
        ]
        assert fuzzy == [], f"{path.name}: marked fuzzy"


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_plural_forms_are_the_languages_own(language):
    messages = catalog(language)
    plural = {key: message for key, message in messages.items() if isinstance(message, dict)}
    assert plural, "no plural message at all"
    for key, forms in plural.items():
        allowed = ORDINAL[language] if key.endswith("_ordinal") else CARDINAL[language]
        assert "other" in forms and set(forms) <= allowed, (language, key, sorted(forms))
        assert all(isinstance(text, str) for text in forms.values()), (language, key)
    english = catalog("en")
    assert {key for key, m in english.items() if isinstance(m, dict)} == set(plural), (
        f"{language}: a message is plural in one language and not in the other"
    )


def test_every_message_the_client_names_is_in_the_english_catalog(english):
    named = set()
    for path in WEB.rglob("*.js"):
        if "i18n" in path.parts or path.name == "i18n.js":
            continue
        named |= {
            (m, path.name) for m in re.findall(r"""\bt\(\s*"([\w.-]+)"\s*[,)]""", path.read_text(encoding="utf-8"))
        }
    assert len(named) > 300
    missing = sorted((key, where) for key, where in named if key not in english)
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rules_page_is_in_every_language(language):
    english, other = rules("en"), rules(language)
    assert set(other) == set(english)
    for kind, page in english.items():
        theirs = other[kind]
        assert set(theirs) == set(page), (language, kind)
        assert len(theirs["steps"]) == len(page["steps"]) and theirs["steps"] != page["steps"], (language, kind)
        assert theirs["aim"] != page["aim"] and theirs["players"] != page["players"], (language, kind)
