"""Push notifications: a push service written here, on 127.0.0.1, receives the
deliveries. It checks the VAPID JWT and its ES256 signature against the deployment's public key
(RFC 8292) and decrypts the aes128gcm payload (RFC 8291) with the private key of a subscription
the test made, as a browser would; what it decrypts is what the player would see. Also: the
registration API and its refusals, 404/410 removing a subscription, retries, quiet hours,
preferences and mutes, secrecy of hidden cards, export and deletion, the `check` messages, the
key command and the service worker's URL."""

import base64
import json
import threading
from datetime import datetime, time, timedelta, timezone as dt_timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from zoneinfo import ZoneInfo

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from accounts.models import PushDevice, PushSubscription
from games.models import Delivery, Notification
from games.notifications import push
from games.tasks import deliver_push
from tests.conftest import start_game
from tests.games.test_hidden_information import secrets_hidden_from


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_pair() -> dict:
    """The operator's keys, as `manage.py vapid_keys` prints them."""
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    pairs = dict(line.split("=", 1) for line in out.getvalue().split())
    return {"VAPID_PRIVATE_KEY": pairs["VAPID_PRIVATE_KEY"], "VAPID_PUBLIC_KEY": pairs["VAPID_PUBLIC_KEY"]}


VAPID = vapid_pair()


@pytest.fixture(autouse=True)
def keys(settings):
    settings.VAPID_PRIVATE_KEY = VAPID["VAPID_PRIVATE_KEY"]
    settings.VAPID_PUBLIC_KEY = VAPID["VAPID_PUBLIC_KEY"]
    settings.VAPID_SUBJECT = "mailto:ops@darkroom.test"


class Browser:
    """What a browser holds for one subscription: its P-256 key pair and auth secret."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.p256dh = b64url(
            self.private.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )
        self.auth = b64url(bytes(range(16)))

    def decrypt(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.private, auth_secret=unb64url(self.auth), version="aes128gcm")
        )


class PushService:
    """A push service on 127.0.0.1 (RFC 8030's role): it takes a message only with a valid VAPID
    token for its own origin, signed by the key the token names, and that key must be the
    deployment's. It answers `status` (201 by default, as real ones do)."""

    def __init__(self, status=201):
        self.status, self.messages, self.refused = status, [], []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                problem = service.verify(dict(self.headers))
                if problem:
                    service.refused.append(problem)
                    self.send_response(403)
                else:
                    service.messages.append((self.path, dict(self.headers), body))
                    self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def endpoint(self, name="sub") -> str:
        return f"{self.origin}/push/{name}"

    def verify(self, headers) -> str:
        """'' if the request carries a valid VAPID token (RFC 8292 section 2-3), else why not."""
        scheme, _, params = headers.get("Authorization", "").partition(" ")
        if scheme != "vapid":
            return "not a vapid Authorization"
        fields = dict(part.split("=", 1) for part in params.split(","))
        key = fields["k"]
        if key != VAPID["VAPID_PUBLIC_KEY"]:
            return "not the deployment's key"
        header, claims, signature = fields["t"].split(".")
        if json.loads(unb64url(header)) != {"typ": "JWT", "alg": "ES256"}:
            return "not an ES256 JWT"
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        try:
            public.verify(
                encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                f"{header}.{claims}".encode(),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            return "bad signature"
        body = json.loads(unb64url(claims))
        if body["aud"] != self.origin:
            return f"audience {body['aud']}"
        now = datetime.now().timestamp()
        if not now < body["exp"] <= now + 24 * 3600:
            return "expiry not within 24 hours"
        if not body["sub"].startswith(("mailto:", "https:")):
            return "no contact"
        if headers.get("Content-Encoding") != "aes128gcm" or not headers.get("TTL"):
            return "not an aes128gcm message with a TTL"
        return ""

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def service():
    s = PushService()
    yield s
    s.close()


def subscribe(player, endpoint, browser=None):
    browser = browser or Browser()
    answer = player.post(
        "/api/v1/push/subscriptions/",
        {"endpoint": endpoint, "keys": {"p256dh": browser.p256dh, "auth": browser.auth}, "expirationTime": None},
    )
    assert answer.status_code == 201, answer.content
    return browser, answer.json()


def pushes(user) -> Delivery:
    return Delivery.objects.filter(channel="push", notification__user=user).order_by("pk")


def play_until_pushed(players: dict, game_id: str, user, count=1):
    """Legal moves by whoever is to move until `user` has `count` push deliveries."""
    for _ in range(40):
        if pushes(user).count() >= count:
            return
        game = next(iter(players.values())).game(game_id)
        seat = game["active_seats"][0]
        mover = players[seat]
        moves = mover.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert mover.move(game_id, moves["moves"][0], moves["version"]).status_code in (200, 201)
    raise AssertionError("no push delivery")


# ---------------------------------------------------------------------------------------------
# The Done-when: "Your turn in Photograph with ann", through the push service, decrypted
# ---------------------------------------------------------------------------------------------
def test_a_player_whose_tab_is_closed_gets_your_turn_in_photograph_with_ann(make_player, service, settings):
    ann, bob = make_player("ann"), make_player("bob")
    browser, _ = subscribe(bob, service.endpoint("bob"))
    game = start_game(ann, [bob], kind="photograph")
    play_until_pushed({0: ann, 1: bob}, game, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert service.refused == []
    ((path, headers, body),) = service.messages
    assert path == "/push/bob"
    seen = browser.decrypt(body)
    # Exactly the keys docs/time-and-notifications.md lists: never the notice's data.
    assert seen == {
        "title": "Your turn in Photograph with ann",
        "body": "It is your move.",
        "url": f"/#/games/{game}",
        "tag": f"your_turn:{game}",
        "id": delivery.notification_id,
    }
    assert headers["Topic"] == push.topic(seen["tag"]) and len(headers["Topic"]) <= 32
    # The message as RFC 8030 and 8291 describe it, kept a day by the push service if need be.
    assert (headers["Content-Type"], headers["Content-Encoding"], headers["TTL"], headers["Urgency"]) == (
        "application/octet-stream",
        "aes128gcm",
        str(settings.PUSH_TTL_SECONDS),
        "normal",
    )
    # The sender names itself, as push services ask of anyone who posts to them.
    assert headers["User-Agent"] == "Darkroom-Push/1"
    # The VAPID token (RFC 8292) expires in 12 hours, well within the 24 the RFC allows.
    token = dict(part.split("=", 1) for part in headers["Authorization"].partition(" ")[2].split(","))["t"]
    claims = json.loads(unb64url(token.split(".")[1]))
    expected = datetime.now().timestamp() + 12 * 3600
    assert set(claims) == {"aud", "sub", "exp"} and expected - 120 <= claims["exp"] <= expected
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 1)
    assert delivery.attempt_log.get().status_code == 201


def test_a_vapid_key_given_as_a_pem_signs_the_same(alice, bob, duel, service, settings):
    """docs/time-and-notifications.md: the private key as printed by `vapid_keys`, or a PEM."""
    from py_vapid import Vapid02

    settings.VAPID_PRIVATE_KEY = Vapid02.from_string(VAPID["VAPID_PRIVATE_KEY"]).private_pem().decode()
    assert "BEGIN" in settings.VAPID_PRIVATE_KEY
    browser, _ = subscribe(bob, service.endpoint("bob"))
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    assert service.refused == []
    ((_, _, body),) = service.messages
    assert browser.decrypt(body)["title"] == "Your turn in Duel (test game) with alice"


def test_a_push_goes_to_every_browser_of_the_player_and_once(alice, bob, duel, service):
    first, _ = subscribe(bob, service.endpoint("one"))
    second, _ = subscribe(bob, service.endpoint("two"))
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    deliver_push(delivery.pk)  # a duplicated task finds it sent
    by_path = {path: body for path, _, body in service.messages}
    assert len(service.messages) == 2
    assert (
        first.decrypt(by_path["/push/one"])["title"]
        == second.decrypt(by_path["/push/two"])["title"]
        == "Your turn in Duel (test game) with alice"
    )


def test_a_browser_cannot_read_another_browser_s_push(alice, bob, duel, service):
    subscribe(bob, service.endpoint("bob"))
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    with pytest.raises(Exception):
        Browser().decrypt(service.messages[0][2])


# ---------------------------------------------------------------------------------------------
# The push service's answers
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_removed(alice, bob, duel, service, status):
    service.status = status
    subscribe(bob, service.endpoint("gone"))
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert not PushSubscription.objects.filter(user=bob.user).exists()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("sent", "every subscription was gone")
    assert delivery.attempt_log.get().status_code == status


def attempt_every_time(delivery) -> list[float]:
    """Attempt the delivery as often as it may be (WEBHOOK_MAX_ATTEMPTS is 3 in the tests; push
    shares webhooks' backoff), each retry brought forward to now; the delays it asked for."""
    delays = []
    for _ in range(3):
        deliver_push(delivery.pk)
        delivery.refresh_from_db()
        if delivery.status == "pending":
            delays.append((delivery.next_attempt_at - delivery.attempt_log.last().at).total_seconds())
            Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.attempt_log.last().at)
    return delays


def test_a_failing_push_service_is_retried_with_backoff_and_keeps_the_subscription(alice, bob, duel, service):
    service.status = 500
    subscribe(bob, service.endpoint("flaky"))
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    delays = attempt_every_time(delivery)
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("failed", 3, "HTTP 500")
    assert delays == pytest.approx([0.3, 0.6], abs=0.01)
    assert PushSubscription.objects.filter(user=bob.user).count() == 1


def test_a_push_service_that_never_answers_is_cut_at_the_deadline(alice, bob, duel, settings):
    from tests.faults.stack.receivers import Tarpit

    settings.PUSH_DEADLINE_SECONDS = 1
    tarpit = Tarpit(1)
    try:
        subscribe(bob, tarpit.urls[0])
        play_until_pushed({0: alice, 1: bob}, duel, bob.user)
        delivery = pushes(bob.user).get()
        deliver_push(delivery.pk)
    finally:
        tarpit.close()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 1)
    # The deadline's watchdog and the socket's own timeout (set to what is left of the deadline)
    # fire at the same moment: either may be the one that reports it.
    assert delivery.last_error in ("no answer within the 1 s deadline", "timed out")


def test_without_vapid_keys_web_push_is_skipped_cleanly(alice, bob, duel, service, settings):
    subscribe(bob, service.endpoint("bob"))
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert service.messages == []
    assert (delivery.status, delivery.attempts) == ("failed", 0)
    assert delivery.last_error.startswith("skipped:")
    assert bob.get("/api/v1/push/vapid-key/").json() == {"public_key": None}


def test_a_mobile_device_alone_is_skipped_cleanly_without_the_platform_s_credentials(alice, bob, duel):
    assert bob.post("/api/v1/push/devices/", {"platform": "fcm", "token": "t" * 40}).status_code == 201
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 0) and "FCM" in delivery.last_error


# ---------------------------------------------------------------------------------------------
# The inbox's rules: preferences, mutes, collapsing, read notices, quiet hours
# ---------------------------------------------------------------------------------------------
def test_no_push_delivery_without_a_subscription(alice, bob, duel):
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    assert Notification.objects.filter(user=bob.user, type="your_turn").exists()
    assert not pushes(bob.user).exists()


def test_a_player_who_turned_push_off_for_a_type_gets_none_of_it(alice, bob, duel, service):
    subscribe(bob, service.endpoint("bob"))
    answer = bob.client.put("/api/v1/accounts/preferences/", {"channels": {"your_turn": ["inbox"]}}, format="json")
    assert answer.status_code == 200
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    assert Notification.objects.filter(user=bob.user, type="your_turn").exists()
    assert not pushes(bob.user).exists()


def test_a_muted_game_pushes_nothing(alice, bob, duel, service):
    subscribe(bob, service.endpoint("bob"))
    assert bob.post(f"/api/v1/games/{duel}/mute/").status_code in (200, 201)
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    assert not pushes(bob.user).exists()


def test_unread_chat_collapses_into_one_push_per_game(alice, bob, duel, service):
    subscribe(bob, service.endpoint("bob"))
    for text in ["one", "two", "three"]:
        assert (
            alice.post(f"/api/v1/games/{duel}/chat/", {"channel": "players", "text": f"@bob {text}"}).status_code == 201
        )
    chats = Notification.objects.filter(user=bob.user, type="chat")
    assert chats.count() == 1 and chats.get().collapsed == 3
    assert pushes(bob.user).filter(notification__type="chat").count() == 1


def test_a_notice_read_before_its_push_was_due_is_not_pushed(alice, bob, duel, service):
    subscribe(bob, service.endpoint("bob"))
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    assert bob.post("/api/v1/notifications/read-all/").status_code == 200
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert service.messages == [] and delivery.last_error == "skipped: read before it was pushed"


def test_a_push_due_in_quiet_hours_waits_for_their_end(alice, bob, duel, service):
    subscribe(bob, service.endpoint("bob"))
    tz = ZoneInfo("Pacific/Auckland")
    local = timezone.now().astimezone(tz)
    start = (local - timedelta(hours=1)).time().replace(second=0, microsecond=0)
    end = (local + timedelta(hours=2)).time().replace(second=0, microsecond=0)
    answer = bob.client.put(
        "/api/v1/accounts/preferences/",
        {"quiet_hours": {"start": start.strftime("%H:%M"), "end": end.strftime("%H:%M"), "tz": "Pacific/Auckland"}},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["quiet_hours"] == {
        "start": start.strftime("%H:%M"),
        "end": end.strftime("%H:%M"),
        "tz": "Pacific/Auckland",
    }
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert service.messages == []
    assert (delivery.status, delivery.attempts) == ("pending", 0)
    assert delivery.next_attempt_at.astimezone(tz).time().replace(second=0) == end
    # Their end comes: the sweeper's resend (or the scheduled task) sends it.
    bob.client.put("/api/v1/accounts/preferences/", {"quiet_hours": None}, format="json")
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    deliver_push(delivery.pk)
    assert len(service.messages) == 1


UTC = dt_timezone.utc


@pytest.mark.parametrize(
    "start, end, now, until",
    [
        (time(22), time(7), datetime(2026, 3, 1, 22, 0, tzinfo=UTC), datetime(2026, 3, 2, 7, tzinfo=UTC)),
        (time(22), time(7), datetime(2026, 3, 1, 23, 30, tzinfo=UTC), datetime(2026, 3, 2, 7, tzinfo=UTC)),
        (time(22), time(7), datetime(2026, 3, 2, 6, 59, tzinfo=UTC), datetime(2026, 3, 2, 7, tzinfo=UTC)),
        (time(22), time(7), datetime(2026, 3, 2, 7, 0, tzinfo=UTC), None),
        (time(22), time(7), datetime(2026, 3, 2, 12, tzinfo=UTC), None),
        (time(9), time(17), datetime(2026, 3, 2, 9, tzinfo=UTC), datetime(2026, 3, 2, 17, tzinfo=UTC)),
        (time(9), time(17), datetime(2026, 3, 2, 17, tzinfo=UTC), None),
    ],
)
def test_quiet_hours_run_from_start_to_end_and_across_midnight(start, end, now, until):
    assert push.quiet_until(start, end, "UTC", now) == until


def test_equal_start_and_end_mean_no_quiet_time_and_an_offset_is_not_the_zone_s(bob):
    answer = bob.client.put(
        "/api/v1/accounts/preferences/",
        {"quiet_hours": {"start": "22:00:00+05:00", "end": "07:00Z", "tz": "Asia/Tokyo"}},
        format="json",
    )
    assert answer.json()["quiet_hours"] == {"start": "22:00", "end": "07:00", "tz": "Asia/Tokyo"}
    assert push.quiet_until(time(8), time(8), "UTC", datetime(2026, 3, 2, 8, tzinfo=UTC)) is None


def test_quiet_hours_are_the_player_s_wall_clock_across_a_dst_change():
    # Paris: 23:00 local on 28 March 2026 is 22:00 UTC; the clocks go forward that night, so
    # 07:00 local the next morning is 05:00 UTC (not 06:00).
    until = push.quiet_until(time(23), time(7), "Europe/Paris", datetime(2026, 3, 28, 22, 30, tzinfo=UTC))
    assert until == datetime(2026, 3, 29, 5, tzinfo=UTC)


def test_quiet_hours_ending_in_the_hour_read_twice_end_at_its_first_reading():
    # Paris, 25 October 2026: at 03:00 summer time the clocks go back to 02:00, so 02:30 is read
    # at 00:30 UTC and again at 01:30 UTC. Midnight there is 22:00 UTC the evening before.
    until = push.quiet_until(time(23), time(2, 30), "Europe/Paris", datetime(2026, 10, 24, 22, tzinfo=UTC))
    assert until == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


# ---------------------------------------------------------------------------------------------
# Secrecy: the payload is the inbox's title, never a card
# ---------------------------------------------------------------------------------------------
def test_no_push_shows_a_card_the_player_cannot_see(alice, bob, duel, service):
    browsers = {0: subscribe(alice, service.endpoint("alice"))[0], 1: subscribe(bob, service.endpoint("bob"))[0]}
    players, users = {0: alice, 1: bob}, {0: alice.user, 1: bob.user}
    seen = 0
    while alice.game(duel)["status"] == "active":
        game = alice.game(duel)
        seat = game["active_seats"][0]
        moves = players[seat].get(f"/api/v1/games/{duel}/legal-moves/").json()
        players[seat].move(duel, moves["moves"][0], moves["version"])
        for other in (0, 1):
            for delivery in pushes(users[other]).filter(status="pending"):
                deliver_push(delivery.pk)
            for path, _, body in service.messages[seen:]:
                if path == f"/push/{'alice' if other == 0 else 'bob'}":
                    text = json.dumps(browsers[other].decrypt(body))
                    for card in secrets_hidden_from(duel, other, alice.game(duel)["version"]):
                        assert f'"{card}"' not in text and f" {card}" not in text, (other, card, text)
        seen = len(service.messages)
    assert seen >= 2  # turns and the finish were pushed
    titles = [
        json.loads(
            http_ece.decrypt(
                b, private_key=browsers[0 if p.endswith("alice") else 1].private, auth_secret=unb64url(browsers[0].auth)
            )
        )["title"]
        for p, _, b in service.messages
    ]
    assert "Duel (test game) is over" in titles


# ---------------------------------------------------------------------------------------------
# The API
# ---------------------------------------------------------------------------------------------
def test_registering_again_is_idempotent_and_a_browser_can_unregister(bob, service):
    browser, created = subscribe(bob, service.endpoint("b"))
    again = bob.post(
        "/api/v1/push/subscriptions/",
        {"endpoint": service.endpoint("b"), "keys": {"p256dh": browser.p256dh, "auth": browser.auth}},
    )
    assert again.status_code == 200 and again.json()["id"] == created["id"]
    assert [s["endpoint"] for s in bob.get("/api/v1/push/subscriptions/").json()] == [service.endpoint("b")]
    gone = bob.post("/api/v1/push/subscriptions/unsubscribe/", {"endpoint": service.endpoint("b")})
    assert gone.status_code == 204 and not PushSubscription.objects.exists()
    again = bob.post("/api/v1/push/subscriptions/unsubscribe/", {"endpoint": service.endpoint("b")})
    assert (again.status_code, again.json()["code"]) == (404, "not_found")


def test_a_subscription_by_id_is_its_owner_s_alone(alice, bob, service):
    _, sub = subscribe(bob, service.endpoint("b"))
    assert alice.client.delete(f"/api/v1/push/subscriptions/{sub['id']}/").status_code == 404
    assert bob.client.delete(f"/api/v1/push/subscriptions/{sub['id']}/").status_code == 204


GOOD = Browser()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"endpoint": "http://127.0.0.1:9/x"},
        {"endpoint": "not a url", "keys": {"p256dh": GOOD.p256dh, "auth": GOOD.auth}},
        {"endpoint": "ftp://127.0.0.1/x", "keys": {"p256dh": GOOD.p256dh, "auth": GOOD.auth}},
        {"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": "AAAA", "auth": GOOD.auth}},
        {"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": GOOD.p256dh, "auth": "c2hvcnQ"}},
        {"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": "!!!", "auth": "%%%"}},
        {"endpoint": "http://127.0.0.1:9/x", "keys": {"p256dh": 5, "auth": GOOD.auth}},
        {"endpoint": "http://127.0.0.1:9/x", "keys": "both"},
        {"endpoint": ["http://127.0.0.1:9/x"], "keys": {"p256dh": GOOD.p256dh, "auth": GOOD.auth}},
    ],
)
def test_a_bad_subscription_is_refused_and_nothing_is_written(bob, body):
    answer = bob.post("/api/v1/push/subscriptions/", body)
    assert answer.status_code == 400, answer.content
    assert set(answer.json()) >= {"code", "detail"}
    assert not PushSubscription.objects.exists()


def test_a_push_service_on_a_private_address_is_refused_in_production(bob):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        answer = bob.post(
            "/api/v1/push/subscriptions/",
            {"endpoint": "http://169.254.169.254/latest", "keys": {"p256dh": GOOD.p256dh, "auth": GOOD.auth}},
        )
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
    assert not PushSubscription.objects.exists()


def test_a_mobile_client_registers_and_unregisters_its_device(alice, bob):
    made = bob.post("/api/v1/push/devices/", {"platform": "apns", "token": "abc123", "name": "bob's phone"})
    assert made.status_code == 201
    assert bob.post("/api/v1/push/devices/", {"platform": "apns", "token": "abc123"}).status_code == 200
    listed = bob.get("/api/v1/push/devices/").json()
    assert [(d["platform"], d["token"]) for d in listed] == [("apns", "abc123")]
    assert alice.client.delete(f"/api/v1/push/devices/{made.json()['id']}/").status_code == 404
    assert bob.client.delete(f"/api/v1/push/devices/{made.json()['id']}/").status_code == 204
    assert not PushDevice.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"platform": "blackberry", "token": "x"},
        {"platform": "fcm"},
        {"platform": "fcm", "token": ""},
        {"platform": "fcm", "token": 12},
        {"platform": "fcm", "token": "x" * 513},
        {"platform": ["fcm"], "token": "x"},
    ],
)
def test_a_bad_device_is_refused_and_nothing_is_written(bob, body):
    answer = bob.post("/api/v1/push/devices/", body)
    assert answer.status_code == 400 and set(answer.json()) >= {"code", "detail"}
    assert not PushDevice.objects.exists()


@pytest.mark.parametrize(
    "quiet",
    [
        {"start": "22:00", "end": "07:00", "tz": "Mars/Olympus"},
        {"start": "25:00", "end": "07:00", "tz": "UTC"},
        {"start": "22:00", "tz": "UTC"},
        {"start": 2200, "end": "07:00", "tz": "UTC"},
        "22-07",
    ],
)
def test_bad_quiet_hours_are_refused_and_nothing_is_written(bob, quiet):
    answer = bob.client.put(
        "/api/v1/accounts/preferences/", {"quiet_hours": quiet, "email_digest_minutes": 5}, format="json"
    )
    assert answer.status_code == 400 and set(answer.json()) >= {"code", "detail"}
    prefs = bob.get("/api/v1/accounts/preferences/").json()
    assert prefs["quiet_hours"] is None and prefs["email_digest_minutes"] == 60


def test_the_endpoints_are_typed_in_the_openapi_document(anonymous):
    doc = anonymous.get("/api/v1/schema/?format=json")
    assert doc.status_code == 200
    paths = json.loads(doc.content)["paths"]
    for path in [
        "/api/v1/push/subscriptions/",
        "/api/v1/push/subscriptions/{subscription_id}/",
        "/api/v1/push/devices/",
        "/api/v1/push/devices/{device_id}/",
        "/api/v1/push/vapid-key/",
        "/api/v1/push/subscriptions/unsubscribe/",
    ]:
        assert path in paths, path
    body = paths["/api/v1/push/subscriptions/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["$ref"].endswith("/SubscriptionInRequest")


# ---------------------------------------------------------------------------------------------
# Personal data
# ---------------------------------------------------------------------------------------------
def test_the_export_has_the_subscriptions_and_devices_and_deletion_removes_them(bob, service):
    subscribe(bob, service.endpoint("b"))
    bob.post("/api/v1/push/devices/", {"platform": "fcm", "token": "tok"})
    bob.client.put(
        "/api/v1/accounts/preferences/",
        {"quiet_hours": {"start": "22:00", "end": "07:00", "tz": "Europe/Paris"}},
        format="json",
    )
    export = bob.get("/api/v1/accounts/me/export/").json()["data"]
    assert [s["endpoint"] for s in export["push_subscriptions"]] == [service.endpoint("b")]
    assert [(d["platform"], d["token"]) for d in export["push_devices"]] == [("fcm", "tok")]
    assert export["notification_preferences"]["quiet_tz"] == "Europe/Paris"
    deleted = bob.post("/api/v1/accounts/me/delete/", {"password": "correct horse battery"})
    assert deleted.status_code in (200, 204), deleted.content
    assert not PushSubscription.objects.exists() and not PushDevice.objects.exists()


# ---------------------------------------------------------------------------------------------
# Operators: the key command, the check, the service worker's URL
# ---------------------------------------------------------------------------------------------
def test_the_key_command_prints_a_pair_that_signs_and_verifies():
    pair = vapid_pair()
    from py_vapid import Vapid02

    signer = Vapid02.from_string(pair["VAPID_PRIVATE_KEY"])
    raw = signer.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    assert b64url(raw) == pair["VAPID_PUBLIC_KEY"] and len(unb64url(pair["VAPID_PRIVATE_KEY"])) == 32
    assert Vapid02.verify(signer.sign({"aud": "https://push.example", "sub": "mailto:a@b.c"})["Authorization"])


def test_check_names_each_platform_that_cannot_be_pushed_to(settings):
    settings.PUSH_PLATFORMS = ["web", "apns", "fcm"]
    assert [m.id for m in push.check()] == ["darkroom.W102", "darkroom.W103"]  # keys set by the fixture
    settings.VAPID_PRIVATE_KEY = ""
    assert [m.id for m in push.check()] == ["darkroom.W101", "darkroom.W102", "darkroom.W103"]
    settings.PUSH_PLATFORMS = ["web"]
    assert [m.id for m in push.check()] == ["darkroom.W101"]
    settings.VAPID_PRIVATE_KEY = VAPID["VAPID_PRIVATE_KEY"]
    assert push.check() == []
    out = StringIO()
    settings.PUSH_PLATFORMS = ["fcm"]
    call_command("check", stdout=out, stderr=out)
    assert "darkroom.W103" in out.getvalue() and "FCM" in out.getvalue()


def test_check_s_warning_says_what_is_missing_how_to_make_it_and_where_to_read(settings):
    settings.PUSH_PLATFORMS, settings.VAPID_PRIVATE_KEY = ["web"], ""
    (warning,) = push.check()
    assert warning.msg == (
        "Web Push has no VAPID key pair (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY; "
        "`manage.py vapid_keys` makes one): browsers get no push"
    )
    assert warning.hint == (
        "docs/time-and-notifications.md, 'For operators'; leave the platform out of "
        "PUSH_PLATFORMS if you do not mean to push there"
    )


def test_the_service_worker_is_served_from_the_root_for_the_root_scope(anonymous):
    answer = anonymous.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    text = answer.content.decode()
    assert 'addEventListener("push"' in text and "notificationclick" in text and "openWindow" in text
