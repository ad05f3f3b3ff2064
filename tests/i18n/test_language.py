"""The language the server speaks: the account's choice, else Accept-Language; Content-Language
says which; codes, event types and keys are the same in every language; notices, emails and pushes
go out in their recipient's language."""

from __future__ import annotations

import json

import pytest
from django.core import mail

from accounts.models import User
from games.tasks import deliver_email, deliver_push
from tests.conftest import start_game
from tests.games.test_push import PushService, keys, pushes, subscribe  # noqa: F401  (keys: autouse)

NOWHERE = "/api/v1/games/00000000-0000-0000-0000-000000000000/"


def speak(player, language):
    answer = player.client.put("/api/v1/accounts/preferences/", {"language": language}, format="json")
    assert answer.status_code == 200, answer.content
    return answer


def turn_pushes(user):
    return pushes(user).filter(notification__type="your_turn")


def pending_turn_pushes():
    from games.models import Delivery

    return Delivery.objects.filter(channel="push", notification__type="your_turn", status="pending")


def keys_of(value):
    """Every key of a JSON value, nested ones as paths: what must not change with the language."""
    if isinstance(value, dict):
        return {(k, *sub) for k, v in value.items() for sub in (keys_of(v) or {()})}
    if isinstance(value, list):
        return {sub for item in value for sub in keys_of(item)}
    return set()


def test_accept_language_chooses_the_language_and_content_language_says_it(alice):
    for asked, said, detail in (
        ("fr", "fr", "partie introuvable"),
        ("de-DE,de;q=0.9", "de", "Partie nicht gefunden"),
        ("en", "en", "no such game"),
        ("ja", "en", "no such game"),
    ):
        answer = alice.client.get(NOWHERE, HTTP_ACCEPT_LANGUAGE=asked)
        assert answer.status_code == 404 and answer["Content-Language"] == said, asked
        assert answer.json() == {"code": "not_found", "detail": detail}
        assert "Accept-Language" in answer["Vary"]


def test_the_accounts_choice_beats_accept_language(alice):
    answer = speak(alice, "de")
    assert answer.json()["language"] == "de" and answer["Content-Language"] == "de"
    refused = alice.client.get(NOWHERE, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused["Content-Language"] == "de" and refused.json()["detail"] == "Partie nicht gefunden"
    # DRF's own validation messages follow it too.
    bad = alice.client.put(
        "/api/v1/accounts/preferences/", {"email_digest_minutes": "x"}, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert bad.status_code == 400 and bad["Content-Language"] == "de" and bad.json()["code"] == "invalid"
    # null gives the choice back to each request's Accept-Language.
    assert (
        alice.client.put("/api/v1/accounts/preferences/", {"language": None}, format="json").json()["language"] is None
    )
    assert alice.client.get(NOWHERE, HTTP_ACCEPT_LANGUAGE="fr").json()["detail"] == "partie introuvable"


@pytest.mark.parametrize("value", ["xx", "FR", "fr-ca ", "", 3, ["fr"], {"code": "fr"}])
def test_a_language_the_server_does_not_speak_is_refused_and_nothing_is_written(alice, value):
    before = alice.client.get("/api/v1/accounts/preferences/").json()
    answer = alice.client.put(
        "/api/v1/accounts/preferences/", {"language": value, "email_digest_minutes": 5}, format="json"
    )
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid" and isinstance(body["detail"], str) and "language" in body["detail"]
    assert alice.client.get("/api/v1/accounts/preferences/").json() == before
    assert User.objects.get(pk=alice.user.pk).language == ""


def test_errors_keep_their_codes_and_keys_in_french(alice, bob, duel, anonymous):
    """The same refusals in English and in French: the same status, code and keys; a French detail."""
    base = f"/api/v1/games/{duel}/"
    asks = [
        (alice.client, "get", NOWHERE, None),
        (alice.client, "post", f"{base}moves/", {"move": {"type": "nope"}, "expected_version": 999}),
        (alice.client, "post", f"{base}moves/", {"move": "x"}),
        (alice.client, "post", f"{base}join/", {}),
        (alice.client, "post", "/api/v1/games/", {"kind": "nope"}),
        (alice.client, "get", "/api/v1/games/?status=bogus", None),
        (alice.client, "get", f"{base}events/?after=-1", None),
        (alice.client, "put", "/api/v1/accounts/preferences/", {"language": "xx"}),
        (anonymous, "get", f"{base}legal-moves/", None),
        (alice.client, "get", "/api/v1/nowhere/", None),
    ]
    for client, method, path, body in asks:
        answers = {}
        for language in ("en", "fr"):
            call = getattr(client, method)
            answer = (
                call(path, body, format="json", HTTP_ACCEPT_LANGUAGE=language)
                if body is not None
                else call(path, HTTP_ACCEPT_LANGUAGE=language)
            )
            assert answer["Content-Language"] == language, (path, language)
            answers[language] = (answer.status_code, answer.json())
        (status_en, en), (status_fr, fr) = answers["en"], answers["fr"]
        assert status_en == status_fr >= 400 and en["code"] == fr["code"], (path, en, fr)
        assert keys_of(en) == keys_of(fr), (path, en, fr)
        assert en["detail"] != fr["detail"], f"{path}: {fr['detail']!r} is not French"


def test_a_french_and_a_german_player_each_get_notice_email_and_push_in_their_own_language(make_player):
    amelie, bernd = make_player("amelie"), make_player("bernd")
    service = PushService()
    try:
        browsers = {}
        for player, language in ((amelie, "fr"), (bernd, "de")):
            speak(player, language)
            player.client.put("/api/v1/accounts/preferences/", {"email_digest_minutes": 0}, format="json")
            browsers[player.user.pk], _ = subscribe(player, service.endpoint(player.user.username))
        # Each writes asking for the other's language: what reaches a player follows the player's own.
        amelie.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "de"
        bernd.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
        game = start_game(amelie, [bernd])
        players = {0: amelie, 1: bernd}
        for _ in range(6):
            if all(turn_pushes(p.user).exists() for p in players.values()):
                break
            state = amelie.game(game)
            mover = players[state["active_seats"][0]]
            moves = mover.get(f"/api/v1/games/{game}/legal-moves/").json()
            assert mover.move(game, moves["moves"][0], moves["version"]).status_code == 201
            for delivery in pending_turn_pushes():
                deliver_push(delivery.pk)  # before its player moves (a move reads the notice)
        expected = {
            amelie: (
                "À vous de jouer dans Duel (test game)",
                "avec bernd",
                "C'est à vous de jouer.",
                "Darkroom : 2 mises à jour",
            ),
            bernd: ("Du bist am Zug in Duel (test game)", "mit amelie", "Du bist am Zug.", "Darkroom: 2 Neuigkeiten"),
        }
        for player, (title, others, body, digest) in expected.items():
            notes = player.get("/api/v1/notifications/").json()["results"]
            assert title in [n["title"] for n in notes if n["type"] == "your_turn"], notes
            assert all(n["type"] in ("your_turn", "joined") for n in notes)  # types stay codes
            mail.outbox.clear()
            deliver_email(player.user.pk)
            (sent,) = mail.outbox  # one email: the notice alone, or with the "joined" one, a digest
            assert sent.to == [player.user.email] and f"- {title}" in sent.body.splitlines()
            assert sent.subject == title or sent.subject == digest
            delivery = turn_pushes(player.user).get()
            assert delivery.status == "sent", (delivery.status, delivery.last_error, service.refused)
            shown = [
                browsers[player.user.pk].decrypt(raw)
                for path, _, raw in service.messages
                if path.endswith(f"/{player.user.username}")
            ]
            assert shown and shown[-1]["title"] == f"{title} {others}" and shown[-1]["body"] == body
            assert set(shown[-1]) == {"title", "body", "url", "tag", "id"} and shown[-1]["tag"].startswith("your_turn:")
    finally:
        service.close()


def test_a_digest_is_counted_in_its_recipients_words(alice, bob, carol):
    from games.models import Delivery

    speak(alice, "fr")
    for other in (bob, carol):
        game = start_game(other, [alice])
        state = other.game(game)
        other.move(game, {"type": "play", "card": state["state"]["hand"][0]})
    Delivery.objects.filter(notification__user=alice.user).update(next_attempt_at=Delivery.objects.first().created_at)
    deliver_email(alice.user.pk)
    assert [m.subject for m in mail.outbox] == ["Darkroom : 2 mises à jour"]


def test_a_refused_move_is_explained_in_the_players_language(alice, bob, duel):
    """The engines speak English only; the server says their refusals in the player's language."""
    speak(bob, "de")
    answers = {}
    for player, language in ((alice, None), (bob, "de")):
        state = player.game(duel)
        answer = player.client.post(
            f"/api/v1/games/{duel}/moves/",
            {"move": {"type": "nope"}, "expected_version": state["version"]},
            format="json",
            HTTP_ACCEPT_LANGUAGE="fr",
        )
        answers[language] = answer.json()
    french, german = answers[None], answers["de"]
    assert french["code"] in ("unavailable_move", "not_your_turn") and german["code"] in (
        "unavailable_move",
        "not_your_turn",
    )
    sentences = {
        "unavailable_move": ("n'est pas possible maintenant", "ist gerade nicht möglich"),
        "not_your_turn": ("n'a rien à faire maintenant", "hat gerade nichts zu tun"),
    }
    assert sentences[french["code"]][0] in french["detail"], french
    assert sentences[german["code"]][1] in german["detail"], german


def test_an_engines_refusal_is_its_english_and_translates_whole():
    from django.utils import translation

    from games.engines.base import IllegalMove, Refusal
    from games.errors import in_words

    faults = [
        Refusal("Edgar moved without a smile"),
        Refusal('%(character)s moved without "%(phrase)s"', character="Max", phrase="Ouistiti !"),
    ]
    error = IllegalMove("a mend is a move like any other: %(faults)s", faults=faults)
    assert (
        error.detail == 'a mend is a move like any other: Edgar moved without a smile; Max moved without "Ouistiti !"'
    )
    with translation.override("fr"):
        # The phrase as the rulebook prints it, in every language.
        assert in_words(error.detail) == (
            "une réparation est un coup comme un autre : Edgar a bougé sans un sourire; Max a bougé sans « Ouistiti ! »"
        )
    with translation.override("de"):
        assert in_words(Refusal("a swap needs two different cells")) == "ein Tausch braucht zwei verschiedene Felder"
        assert in_words("a swap needs two different cells") == "ein Tausch braucht zwei verschiedene Felder"
        assert in_words("") == ""
    import copy

    copied = copy.deepcopy({"faults": faults})
    assert copied == {"faults": [str(f) for f in faults]} and type(copied["faults"][0]) is str


def test_the_live_process_speaks_the_same_language_inline():
    """`live` runs no sync middleware (config/live_settings.py): LocaleMiddleware's hooks run
    inline there, with the same choice and the same headers."""
    from django.http import JsonResponse
    from django.test import RequestFactory
    from django.utils import translation

    from config import live_settings
    from config.locale import LiveLocaleMiddleware

    assert "config.locale.LiveLocaleMiddleware" in live_settings.MIDDLEWARE
    assert "django.middleware.locale.LocaleMiddleware" not in live_settings.MIDDLEWARE
    assert LiveLocaleMiddleware.async_capable and LiveLocaleMiddleware.sync_capable

    def view(request):
        return JsonResponse({"code": "not_found", "detail": translation.gettext("no such game")}, status=404)

    with translation.override("en"):
        answer = LiveLocaleMiddleware(view)(RequestFactory().get("/", HTTP_ACCEPT_LANGUAGE="de-AT,de;q=0.9"))
    assert answer["Content-Language"] == "de" and "Accept-Language" in answer["Vary"]
    assert json.loads(answer.content)["detail"] == "Partie nicht gefunden"


def test_a_photoshoot_verdict_is_read_in_the_readers_language(alice, bob):
    """The engine records a fault in English, as its golden games keep it; each reader reads the
    verdict in their own language, with the same event types and keys."""
    from tests.golden.test_golden import HERE, finished_game

    game, recorded = finished_game(HERE / "photoshoot" / "v1-2p-a.json", [alice.user, bob.user])
    speak(bob, "de")
    read = {}
    for player, asked in ((alice, "fr"), (bob, "fr"), (alice, "en")):
        answer = player.client.get(f"/api/v1/games/{game.pk}/events/?limit=1000", HTTP_ACCEPT_LANGUAGE=asked)
        assert answer.status_code == 200
        read[answer["Content-Language"]] = answer.json()["events"]
    english, french, german = read["en"], read["fr"], read["de"]
    assert [e["type"] for e in french] == [e["type"] for e in english] == [e["type"] for e in german]
    assert keys_of(french) == keys_of(english) == keys_of(german)
    caught = [i for i, e in enumerate(english) if e["type"] == "ErrorCaught"]
    assert caught
    assert [english[i]["record"]["faults"] for i in caught] == [
        recorded["events"][i]["data"]["record"]["faults"] for i in caught
    ]
    pushes_fault = english[caught[0]]["record"]["faults"]
    assert pushes_fault == ["only Jo pushes, and only with his Effect card"]
    assert french[caught[0]]["record"]["faults"] == ["seul Jo pousse, et seulement avec sa carte Effet"]
    assert german[caught[0]]["record"]["faults"] == ["nur Jo schiebt, und nur mit seiner Effektkarte"]
    assert all(english[i]["record"]["faults"] != french[i]["record"]["faults"] for i in caught)
