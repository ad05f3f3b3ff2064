"""What a phone is sent, through APNs and FCM on 127.0.0.1 (standins.py): the notice's title and
link, never its data nor a card its player cannot see, once per device, and to the platforms that
have credentials."""

import json

from accounts.models import PushDevice
from games.tasks import deliver_push
from tests.conftest import start_game
from tests.games.test_hidden_information import secrets_hidden_from
from tests.games.test_push import VAPID, PushService, play_until_pushed, pushes, subscribe
from tests.games.push_mobile.standins import IPHONE, register


def test_an_iphone_gets_your_turn_in_photograph_with_ann_through_apns(make_player, apns, caplog):
    ann, bob = make_player("ann"), make_player("bob")
    register(bob, "apns", IPHONE)
    game = start_game(ann, [bob], kind="photograph")
    play_until_pushed({0: ann, 1: bob}, game, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert apns.refused == []
    ((device, headers, payload),) = apns.received
    assert device == IPHONE
    # Exactly the keys docs/time-and-notifications.md lists: never the notice's data.
    assert payload == {
        "aps": {
            "alert": {"title": "Your turn in Photograph with ann", "body": "It is your move."},
            "sound": "default",
            "thread-id": f"your_turn:{game}",
        },
        "url": f"/#/games/{game}",
        "tag": f"your_turn:{game}",
        "id": delivery.notification_id,
    }
    assert headers["apns-collapse-id"] == f"your_turn:{game}"
    # Shown at once (priority 10, an alert's), and its body is JSON.
    assert (headers["apns-priority"], headers["content-type"]) == ("10", "application/json")
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 1)
    attempt = delivery.attempt_log.get()
    assert (attempt.ok, attempt.status_code, attempt.error) == (True, 200, "") and 0 < attempt.duration_ms < 30_000
    assert IPHONE not in caplog.text  # the request's URL holds the token: not logged


def test_an_android_phone_gets_your_turn_in_photograph_with_ann_through_fcm(make_player, fcm, settings):
    ann, bob = make_player("ann"), make_player("bob")
    register(bob, "fcm", "fcm-token:APA91b_x")
    game = start_game(ann, [bob], kind="photograph")
    play_until_pushed({0: ann, 1: bob}, game, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert fcm.refused == [] and fcm.issued == ["ya29.local-1"]
    (message,) = fcm.received
    # Exactly the fields docs/time-and-notifications.md lists (`data` all strings): never the
    # notice's data.
    assert message == {
        "token": "fcm-token:APA91b_x",
        "notification": {"title": "Your turn in Photograph with ann", "body": "It is your move."},
        "data": {"url": f"/#/games/{game}", "tag": f"your_turn:{game}", "id": str(delivery.notification_id)},
        "android": {
            "collapse_key": f"your_turn:{game}",
            "ttl": f"{settings.PUSH_TTL_SECONDS}s",
            "notification": {"tag": f"your_turn:{game}"},
        },
    }
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 1)
    attempt = delivery.attempt_log.get()
    assert (attempt.ok, attempt.status_code, attempt.error) == (True, 200, "") and 0 < attempt.duration_ms < 30_000


def test_a_browser_an_iphone_and_an_android_phone_each_get_it_once(alice, bob, duel, apns, fcm, settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = VAPID["VAPID_PRIVATE_KEY"], VAPID["VAPID_PUBLIC_KEY"]
    web = PushService()
    try:
        browser, _ = subscribe(bob, web.endpoint("bob"))
        register(bob, "apns", IPHONE)
        register(bob, "fcm", "android-1")
        play_until_pushed({0: alice, 1: bob}, duel, bob.user)
        delivery = pushes(bob.user).get()
        deliver_push(delivery.pk)
        deliver_push(delivery.pk)  # a duplicated task finds it sent
    finally:
        web.close()
    title = "Your turn in Duel (test game) with alice"
    assert [browser.decrypt(body)["title"] for _, _, body in web.messages] == [title]
    assert [p["aps"]["alert"]["title"] for _, _, p in apns.received] == [title]
    assert [m["notification"]["title"] for m in fcm.received] == [title]
    assert delivery.attempt_log.count() == 3


def test_endpoints_set_with_a_trailing_slash_reach_the_same_services(alice, bob, duel, apns, fcm, settings):
    settings.APNS_ENDPOINT, settings.FCM_ENDPOINT = settings.APNS_ENDPOINT + "/", settings.FCM_ENDPOINT + "/"
    register(bob, "apns", IPHONE)
    register(bob, "fcm", "android-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    assert apns.refused == [] and [device for device, _, _ in apns.received] == [IPHONE]
    assert [message["token"] for message in fcm.received] == ["android-1"]


def test_a_platform_without_credentials_is_skipped_and_the_other_still_gets_it(alice, bob, duel, apns, settings):
    settings.FCM_CREDENTIALS_PATH = ""
    register(bob, "apns", IPHONE)
    register(bob, "fcm", "android-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and delivery.attempt_log.count() == 1
    assert len(apns.received) == 1 and PushDevice.objects.count() == 2  # the Android phone is kept


# Secrecy: a phone sees the inbox's title, never a card.
def test_no_phone_push_shows_a_card_the_player_cannot_see(alice, bob, duel, apns, fcm):
    register(alice, "apns", IPHONE)
    register(bob, "fcm", "android-bob")
    players, users = {0: alice, 1: bob}, {0: alice.user, 1: bob.user}
    seen_apns = seen_fcm = 0
    while alice.game(duel)["status"] == "active":
        seat = alice.game(duel)["active_seats"][0]
        moves = players[seat].get(f"/api/v1/games/{duel}/legal-moves/").json()
        players[seat].move(duel, moves["moves"][0], moves["version"])
        for other in (0, 1):
            for delivery in pushes(users[other]).filter(status="pending"):
                deliver_push(delivery.pk)
        version = alice.game(duel)["version"]
        for _, _, payload in apns.received[seen_apns:]:
            text = json.dumps(payload)
            for card in secrets_hidden_from(duel, 0, version):
                assert f'"{card}"' not in text and f" {card}" not in text, (card, text)
        for message in fcm.received[seen_fcm:]:
            text = json.dumps(message)
            for card in secrets_hidden_from(duel, 1, version):
                assert f'"{card}"' not in text and f" {card}" not in text, (card, text)
        seen_apns, seen_fcm = len(apns.received), len(fcm.received)
    assert seen_apns >= 1 and seen_fcm >= 1
