"""The server's catalogs: French and German complete, none fuzzy, their placeholders the English
ones, the compiled files current, and no message in the code missing from them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

from games.notifications import notify

ROOT = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdfgr]")


def catalog(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def translations(entry: polib.POEntry) -> list[str]:
    return [text for _, text in sorted(entry.msgstr_plural.items())] if entry.msgid_plural else [entry.msgstr]


def test_french_and_german_are_the_languages_besides_english():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "fr", "de"]
    assert LANGUAGES == ["fr", "de"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    po = catalog(language)
    live = [e for e in po if not e.obsolete]
    assert len(live) > 200, "the catalog holds the server's messages"
    assert not po.metadata_is_fuzzy, "the header is marked fuzzy"
    untranslated = [e.msgid for e in live if not all(t.strip() for t in translations(e))]
    fuzzy = [e.msgid for e in live if "fuzzy" in e.flags]
    assert untranslated == [], f"{language}: not translated: {untranslated}"
    assert fuzzy == [], f"{language}: marked fuzzy: {fuzzy}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_message(language):
    wrong = []
    for entry in catalog(language):
        wanted = set(PLACEHOLDER.findall(entry.msgid)) | set(PLACEHOLDER.findall(entry.msgid_plural or ""))
        for text in translations(entry):
            # A plural form may leave the count out ("un litige"), never add a name of its own.
            found = set(PLACEHOLDER.findall(text))
            if found - wanted or (not entry.msgid_plural and found != wanted):
                wrong.append((entry.msgid, text))
    assert wrong == [], wrong


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_notice_that_begins_with_a_name_begins_with_it_in_every_language(language):
    """A deleted account's name is replaced at the start of others' notices (notify.forget_name)."""
    po = catalog(language)
    for kind in notify.NAMING:
        assert po.find(notify.TITLES[kind]).msgstr.startswith("%(who)s "), kind


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_the_current_one(language):
    """The .mo files are committed (so that `make run` and the image need no GNU gettext):
    `make messages` compiles them; this fails when a .po changed and they were not."""
    po = catalog(language)
    mo = polib.mofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo"))

    def pairs(entries):
        return {(e.msgctxt, e.msgid): tuple(translations(e)) for e in entries if not e.obsolete and e.msgid}

    assert pairs(mo) == pairs(po), "run `make messages` and commit locale/"


def test_every_message_in_the_code_is_in_the_catalogs(tmp_path):
    """makemessages over a copy of the code, merged into a copy of the catalogs: a message added
    to the code and not yet extracted shows up here untranslated (or fuzzy), and fails."""
    if not shutil.which("xgettext") or not shutil.which("msgmerge"):
        pytest.fail("GNU gettext is needed to extract messages: apt-get install gettext (make test-tools does)")
    ignore = shutil.ignore_patterns("__pycache__", "static", "node_modules")
    for part in ("accounts", "config", "games", "web", "locale"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=ignore)
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": "postgres://127.0.0.1:1/none",
        "DATABASE_POOL": "off",
    }
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "makemessages",
            *[f"-l{code}" for code in LANGUAGES],
            "--no-obsolete",
            "--add-location=file",
        ],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    for language in LANGUAGES:
        po = polib.pofile(str(tmp_path / "locale" / language / "LC_MESSAGES" / "django.po"))
        missing = [e.msgid for e in po if not e.obsolete and ("fuzzy" in e.flags or not all(translations(e)))]
        assert missing == [], f"{language}: extracted but not translated (make messages, then translate): {missing}"
