"""What a push says and how a push service's answer is read (games.notifications.push), without a
network: the title names the other players for a turn or a reminder only, each notice links to
its game (or the inbox), repeats fold under one tag, a phone goes to its own platform, and an
answer says whether the browser or phone is gone. End to end, through push services written for
the tests: test_push.py, push_mobile/."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from accounts.models import NotificationPreference
from accounts.webhooks import Outcome
from games.notifications import mobile, push
from tests.games.test_push import GOOD, VAPID

WEB = push.WebTarget(1, "https://push.example/1", "p", "a")
PHONE = push.DeviceTarget(2, "fcm", "token")


def notice(kind: str, game_id: str | None = "g1", pk: int = 7, title: str = "Your turn in Duel"):
    return SimpleNamespace(type=kind, game_id=game_id, pk=pk, title=title)


@pytest.mark.parametrize("kind", ["your_turn", "reminder"])
def test_a_turn_or_a_reminder_names_the_other_players_in_their_order(kind):
    assert push.message(notice(kind), ["ann", "carol"]) == {
        "title": "Your turn in Duel with ann, carol",
        "body": push.BODIES[kind],
        "url": "/#/games/g1",
        "tag": f"{kind}:g1",
        "id": 7,
    }


@pytest.mark.parametrize("kind", [k for k in NotificationPreference.TYPES if k not in ("your_turn", "reminder")])
def test_every_other_notice_shows_the_inbox_s_title_and_a_line_of_its_own(kind):
    shown = push.message(notice(kind, title="Something happened"), ["ann"])
    assert shown["title"] == "Something happened"
    assert shown["body"] == push.BODIES[kind] != ""
    assert (shown["url"], shown["tag"]) == ("/#/games/g1", f"{kind}:g1")


def test_a_turn_with_nobody_else_named_is_the_inbox_s_title_alone():
    assert push.message(notice("your_turn"), [])["title"] == "Your turn in Duel"


def test_a_notice_without_a_game_links_to_the_inbox_and_folds_by_itself():
    assert push.message(notice("invitation", game_id=None, pk=9), []) == {
        "title": "Your turn in Duel",
        "body": push.BODIES["invitation"],
        "url": "/#/inbox",
        "tag": "invitation:9",
        "id": 9,
    }


def test_a_kind_of_notice_without_a_line_of_its_own_has_an_empty_body():
    assert push.message(notice("something_new"), ["ann"])["body"] == ""


# ---------------------------------------------------------------------------------------------
# Tags, topics and collapse ids
# ---------------------------------------------------------------------------------------------
def test_a_topic_is_at_most_32_base64url_characters_and_one_per_tag():
    one, other = push.topic("your_turn:g1"), push.topic("your_turn:g2")
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", one) and one != other
    assert push.topic("your_turn:g1") == one


@pytest.mark.parametrize(
    "tag, kept",
    [
        ("a" * 64, True),
        ("a" * 65, False),
        ("é" * 32, True),  # 64 bytes
        ("é" * 33, False),
    ],
)  # 33 characters, 66 bytes
def test_a_phone_s_collapse_id_is_the_tag_up_to_64_bytes_else_its_topic(tag, kept):
    assert push.collapse_id(tag) == (tag if kept else push.topic(tag))


# ---------------------------------------------------------------------------------------------
# Answers
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "status, gone",
    [
        (404, True),
        (410, True),
        (200, False),
        (201, False),
        (400, False),
        (403, False),
        (429, False),
        (500, False),
        (None, False),
    ],
)
def test_a_browser_is_gone_when_its_push_service_answers_404_or_410(status, gone):
    outcome = Outcome(status_code=status, ok=status in (200, 201), error="", duration_ms=1)
    assert push.gone(outcome) is gone
    assert push.is_gone(WEB, outcome) is gone


def test_a_phone_is_gone_when_its_service_said_so_whatever_the_status():
    assert push.is_gone(PHONE, mobile.Answer(False, 400, "BadDeviceToken", 1, gone=True)) is True
    assert push.is_gone(PHONE, mobile.Answer(False, 410, "", 1, gone=False)) is False
    assert push.is_gone(PHONE, mobile.Answer(True, 200, "", 1)) is False
    # A browser's answer is read by its status alone.
    assert push.is_gone(WEB, SimpleNamespace(status_code=200, gone=True)) is False


# ---------------------------------------------------------------------------------------------
# A phone's push goes to its own platform (no network: each platform refuses before sending)
# ---------------------------------------------------------------------------------------------
PAYLOAD = {"title": "t", "body": "b", "url": "/#/inbox", "tag": "your_turn:g1", "id": 1}


def test_an_iphone_s_push_goes_to_apns(settings):
    settings.APNS_AUTH_KEY_PATH = ""
    # APNs' tokens are hexadecimal: anything else is refused as APNs would, before any request.
    answer = push.send(push.DeviceTarget(3, "apns", "not hex"), PAYLOAD)
    assert (answer.ok, answer.status_code, answer.gone) == (False, 400, True)
    assert answer.error.startswith("BadDeviceToken")
    unconfigured = push.send(push.DeviceTarget(3, "apns", "ab" * 32), PAYLOAD)
    assert unconfigured.error.startswith("APNs credentials: ") and not unconfigured.gone


def test_an_android_phone_s_push_goes_to_fcm(settings):
    settings.FCM_CREDENTIALS_PATH = ""
    answer = push.send(push.DeviceTarget(4, "fcm", "not hex"), PAYLOAD)
    assert (answer.ok, answer.status_code, answer.gone) == (False, None, False)
    assert answer.error == "FCM credentials: not configured (FCM_CREDENTIALS_PATH unset)"


# ---------------------------------------------------------------------------------------------
# Which platforms can be pushed to
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "private, public, ready", [(True, True, True), (True, False, False), (False, True, False), (False, False, False)]
)
def test_web_push_is_ready_with_both_halves_of_the_vapid_pair(settings, private, public, ready):
    settings.VAPID_PRIVATE_KEY = VAPID["VAPID_PRIVATE_KEY"] if private else ""
    settings.VAPID_PUBLIC_KEY = VAPID["VAPID_PUBLIC_KEY"] if public else ""
    assert push.web_push_ready() is ready


def test_apns_is_ready_with_a_p256_key_and_says_what_is_missing_otherwise(settings, tmp_path):
    settings.APNS_AUTH_KEY_PATH, settings.APNS_KEY_ID, settings.APNS_TEAM_ID, settings.APNS_TOPIC = "", "K", "T", "app"
    assert push.apns_problem() == "not configured (APNS_AUTH_KEY_PATH unset)" and push.apns_ready() is False
    key = tmp_path / "AuthKey.p8"
    key.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    settings.APNS_AUTH_KEY_PATH = str(key)
    assert push.apns_problem() == "" and push.apns_ready() is True


def test_fcm_is_ready_with_a_service_account_key_and_says_what_is_missing_otherwise(settings, tmp_path):
    settings.FCM_CREDENTIALS_PATH = ""
    assert push.fcm_problem() == "not configured (FCM_CREDENTIALS_PATH unset)" and push.fcm_ready() is False
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path = tmp_path / "service-account.json"
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "p",
                "private_key_id": "k1",
                "client_email": "push@p.example",
                "client_id": "1",
                "token_uri": "https://oauth2.example/token",
                "private_key": key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                ).decode(),
            }
        )
    )
    settings.FCM_CREDENTIALS_PATH = str(path)
    assert push.fcm_problem() == "" and push.fcm_ready() is True


def test_a_push_service_whose_host_turned_private_is_not_posted_to_and_the_error_says_so(settings):
    """The endpoint was public when the browser subscribed; at the send its host is looked up
    again, and an address inside the network is refused, in the words of a push endpoint."""
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = VAPID["VAPID_PRIVATE_KEY"], VAPID["VAPID_PUBLIC_KEY"]
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    target = push.WebTarget(1, "http://169.254.169.254/latest", GOOD.p256dh, GOOD.auth)
    outcome = push.send_web(target, push.message(notice("your_turn"), []))
    assert (outcome.ok, outcome.status_code) == (False, None)
    assert outcome.error == "the push endpoint points at a non-public address"


def test_a_phone_whose_send_failed_before_any_answer_is_kept():
    # The worker records a send that raised, or ran out of time, as an answer without `gone`.
    assert push.is_gone(PHONE, Outcome(ok=False, status_code=None, error="boom", duration_ms=0)) is False


# ---------------------------------------------------------------------------------------------
# Quiet hours, as stored
# ---------------------------------------------------------------------------------------------
def test_quiet_hours_with_one_end_unset_are_no_quiet_hours():
    from datetime import datetime, time, timezone

    now = datetime(2026, 1, 5, 23, 0, tzinfo=timezone.utc)
    assert push.quiet_until(None, time(7), "UTC", now) is None
    assert push.quiet_until(time(22), None, "UTC", now) is None


def test_quiet_hours_in_a_zone_the_server_no_longer_knows_are_kept_in_utc():
    from datetime import datetime, time, timezone

    now = datetime(2026, 1, 5, 23, 0, tzinfo=timezone.utc)
    assert push.quiet_until(time(22), time(7), "Nowhere/Atlantis", now) == datetime(
        2026, 1, 6, 7, 0, tzinfo=timezone.utc
    )
