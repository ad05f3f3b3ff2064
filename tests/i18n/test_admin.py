"""The admin speaks its staff member's language: their account's choice (User.language), else
the browser's Accept-Language; and its own words (the models' and fields' names, their help,
the choices, the actions) are in the catalogs like every other message."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.admin.sites import site
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise

from accounts.models import User

pytestmark = pytest.mark.django_db


def signed_in(language=""):
    clerk = User.objects.create_superuser("clerk", "clerk@example.org", "x", language=language)
    client = Client()
    client.force_login(clerk)
    return client


def test_the_admin_follows_accept_language_when_the_account_chose_none():
    page = signed_in().get("/admin/games/game/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200 and page["Content-Language"] == "fr"
    text = page.content.decode()
    assert "Parties" in text and "Games<" not in text and "statut" in text


def test_the_admin_follows_the_staff_members_own_language_over_accept_language():
    client = signed_in("de")
    page = client.get("/admin/games/game/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200 and page["Content-Language"] == "de"
    text = page.content.decode()
    assert "Partien" in text and "Parties" not in text
    index = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Einsprüche" in index and "Konten" in index and "API-Tokens" in index
    disputes = client.get("/admin/games/dispute/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'upheld">angenommen<' in disputes  # a status to filter by


def test_every_name_the_admin_shows_of_its_models_is_marked_for_translation():
    """A model's names, each field's name and help, and each choice: lazy translations, so the
    catalogs hold them (tests/i18n/test_catalogs.py fails on one not translated)."""
    unmarked = []
    for model, model_admin in site._registry.items():
        if model._meta.app_label not in ("games", "accounts"):
            continue
        names = [("verbose_name", model._meta.verbose_name), ("verbose_name_plural", model._meta.verbose_name_plural)]
        for field in model._meta.get_fields():
            if not hasattr(field, "verbose_name") or field.auto_created:  # Django's own "ID"
                continue
            names.append((field.name, field.verbose_name))
            if field.help_text:
                names.append((f"{field.name} help", field.help_text))
            names += [(f"{field.name}={value}", label) for value, label in field.flatchoices or ()]
        for action in model_admin.actions or ():
            function = getattr(model_admin, action, None) if isinstance(action, str) else action
            names.append((f"action {action}", getattr(function, "short_description", None)))
        unmarked += [f"{model.__name__}.{what}" for what, name in names if not isinstance(name, Promise)]
    assert unmarked == []


def test_the_admins_words_read_in_french_and_german():
    from games.models import Dispute, Game

    for language, game, disputes, upheld in (
        ("fr", "partie", "litiges", "retenu"),
        ("de", "Partie", "Einsprüche", "angenommen"),
    ):
        with translation.override(language):
            assert str(Game._meta.verbose_name) == game
            assert str(Dispute._meta.verbose_name_plural) == disputes
            assert str(dict(Dispute.Status.choices)["upheld"]) == upheld
            assert (
                str(admin.site._registry[Dispute].claim.short_description)
                != "Claim: assign the selected open disputes to me"
            )
