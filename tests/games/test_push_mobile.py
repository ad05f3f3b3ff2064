"""Push to phones: APNs and FCM, each played by a service written here on 127.0.0.1,
reached through the settings a deployment sets (APNS_ENDPOINT, FCM_ENDPOINT, PUSH_CA_FILE).

- APNs is HTTP/2 over TLS only, so its stand-in is an h2 server behind a certificate from a CA
  made for the test (trustme). It takes a notification only with a provider token (JWT, ES256)
  whose signature verifies with the public half of the key the test wrote as the .p8 file, whose
  kid is APNS_KEY_ID and iss APNS_TEAM_ID, on POST /3/device/<token> with the apns-topic,
  apns-push-type and apns-expiration headers; it then reads `aps.alert` as the phone would.
- FCM's stand-in answers both the OAuth2 token endpoint (the service-account key the test wrote
  names it as token_uri: google-auth posts a signed JWT assertion there, checked against the
  key's public half) and HTTP v1's messages:send, which takes a message only with a token it
  issued.

Neither stand-in is Apple's or Google's service: they check what this deployment sends against
the published protocols, not that Apple or Google would accept the credentials."""

import base64
import json
import socket
import ssl
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO
from urllib.parse import parse_qs

import h2.config
import h2.connection
import h2.events
import pytest
import trustme
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core.management import call_command

from accounts.models import PushDevice
from games.models import Delivery
from games.notifications import push
from games.tasks import deliver_push
from tests.conftest import start_game
from tests.games.test_hidden_information import secrets_hidden_from
from tests.games.test_push import VAPID, PushService, attempt_every_time, play_until_pushed, pushes, subscribe

TEAM, KEY_ID, TOPIC, PROJECT = "TEAM123456", "KEY1234567", "net.darkroom.app", "darkroom-test"
IPHONE, IPAD = "a" * 64, "0123456789abcdef" * 4


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_parts(token: str) -> tuple[dict, dict, bytes, bytes]:
    header, claims, signature = token.split(".")
    return (
        json.loads(unb64url(header)),
        json.loads(unb64url(claims)),
        f"{header}.{claims}".encode(),
        unb64url(signature),
    )


@pytest.fixture(scope="module")
def ca():
    return trustme.CA()


@pytest.fixture
def ca_file(ca, tmp_path, settings):
    path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    settings.PUSH_CA_FILE = str(path)
    return path


# ---------------------------------------------------------------------------------------------
# APNs on 127.0.0.1
# ---------------------------------------------------------------------------------------------
class APNs:
    """Apple's provider API as published: HTTP/2 only, TLS, a provider token per request."""

    def __init__(self, ca, public_key):
        self.public_key = public_key
        self.received, self.refused, self.tokens = [], [], set()
        self.answers: dict[str, tuple[int, str]] = {}  # device token -> (status, reason)
        self.hang = False
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ca.issue_cert("127.0.0.1").configure_cert(self.context)
        self.context.set_alpn_protocols(["h2"])
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.origin = f"https://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                raw, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(raw,), daemon=True).start()

    def _serve(self, raw):
        try:
            tls = self.context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()
            return
        with tls:
            if tls.selected_alpn_protocol() != "h2":
                self.refused.append("not HTTP/2")
                return
            conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
            conn.initiate_connection()
            tls.sendall(conn.data_to_send())
            streams = {}
            while True:
                try:
                    data = tls.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = [dict(event.headers), b""]
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id][1] += event.data
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        headers, body = streams.pop(event.stream_id)
                        status, reason = self.handle(headers, body)
                        if status is None:
                            continue  # hanging: no answer ever
                        answer = json.dumps({"reason": reason}).encode() if reason else b""
                        conn.send_headers(
                            event.stream_id,
                            [
                                (":status", str(status)),
                                ("apns-id", str(uuid.uuid4())),
                                ("content-length", str(len(answer))),
                            ],
                            end_stream=not answer,
                        )
                        if answer:
                            conn.send_data(event.stream_id, answer, end_stream=True)
                try:
                    tls.sendall(conn.data_to_send())
                except OSError:
                    return

    def verify(self, headers: dict) -> str:
        """'' if the request is what APNs takes (provider token, path, headers), else why not."""
        if headers.get(":method") != "POST" or not headers.get(":path", "").startswith("/3/device/"):
            return f"{headers.get(':method')} {headers.get(':path')}"
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme != "bearer":
            return "no provider token"
        header, claims, signed, raw = jwt_parts(token)
        if header.get("alg") != "ES256" or header.get("kid") != KEY_ID:
            return f"token header {header}"
        try:
            self.public_key.verify(
                encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                signed,
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            return "bad signature"
        if claims.get("iss") != TEAM or not time.time() - 3600 < claims.get("iat", 0) <= time.time() + 60:
            return f"claims {claims}"
        self.tokens.add(token)
        if headers.get("apns-topic") != TOPIC or headers.get("apns-push-type") != "alert":
            return "topic or push type"
        if not int(headers.get("apns-expiration", "0")) > time.time():
            return "expiration"
        return ""

    def handle(self, headers: dict, body: bytes):
        problem = self.verify(headers)
        if problem:
            self.refused.append(problem)
            return 403, "InvalidProviderToken"
        device = headers[":path"].removeprefix("/3/device/")
        self.received.append((device, headers, json.loads(body)))
        if self.hang:
            return None, ""
        return self.answers.get(device, (200, ""))

    def close(self):
        self.listener.close()


def apns_service(ca, tmp_path) -> tuple[APNs, dict[str, str]]:
    """An APNs of the test's own behind `ca`'s certificate, and the settings that reach it (as a
    deployment's environment sets them; PUSH_CA_FILE aside, the CA's)."""
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / f"AuthKey_{KEY_ID}.p8"
    path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    service = APNs(ca, key.public_key())
    return service, {
        "APNS_AUTH_KEY_PATH": str(path),
        "APNS_KEY_ID": KEY_ID,
        "APNS_TEAM_ID": TEAM,
        "APNS_TOPIC": TOPIC,
        "APNS_ENDPOINT": service.origin,
    }


@pytest.fixture
def apns(ca, ca_file, tmp_path, settings):
    service, env = apns_service(ca, tmp_path)
    for name, value in env.items():
        setattr(settings, name, value)
    yield service
    service.close()


# ---------------------------------------------------------------------------------------------
# FCM (and Google's token endpoint) on 127.0.0.1
# ---------------------------------------------------------------------------------------------
class FCM:
    """HTTP v1's messages:send and the OAuth2 token endpoint a service-account key names."""

    def __init__(self, public_key, client_email):
        self.public_key, self.client_email = public_key, client_email
        self.received, self.refused, self.issued, self.revoked = [], [], [], set()
        self.answers: dict[str, tuple[int, dict]] = {}  # device token -> (status, JSON answer)
        self.token_hang = False
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if self.path == "/token":
                    status, answer = service.token(body, self.headers)
                else:  # the path as sent: http.server folds a leading "//" into "/"
                    status, answer = service.send(self.requestline.split()[1], self.headers, body)
                if status is None:
                    time.sleep(30)  # a token endpoint that never answers (the client leaves first)
                    return
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def token(self, body: bytes, headers):
        """RFC 7523's JWT bearer grant, as Google's endpoint takes it from a service account."""
        if headers.get("Content-Type") != "application/x-www-form-urlencoded":  # RFC 6749 section 4.1.3
            return 400, {"error": "invalid_request"}
        form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
        if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
            return 400, {"error": "unsupported_grant_type"}
        header, claims, signed, raw = jwt_parts(form["assertion"])
        try:
            self.public_key.verify(raw, signed, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            self.refused.append("assertion signature")
            return 400, {"error": "invalid_grant"}
        if (
            header.get("alg") != "RS256"
            or claims.get("iss") != self.client_email
            # google-auth names Google's token endpoint as the audience wherever token_uri
            # sends the assertion: that is what Google's endpoint checks.
            or claims.get("aud") != "https://oauth2.googleapis.com/token"
            or not time.time() - 60 <= claims.get("iat", 0) < claims.get("exp", 0) <= time.time() + 3660
            or "https://www.googleapis.com/auth/firebase.messaging" not in claims.get("scope", "").split()
        ):
            self.refused.append(f"assertion {header} {claims}")
            return 400, {"error": "invalid_grant"}
        if self.token_hang:
            return None, {}
        self.issued.append(f"ya29.local-{len(self.issued) + 1}")
        return 200, {"access_token": self.issued[-1], "expires_in": 3600, "token_type": "Bearer"}

    def send(self, path: str, headers, body: bytes):
        if path != f"/v1/projects/{PROJECT}/messages:send":
            return 404, {"error": {"code": 404, "status": "NOT_FOUND", "message": path}}
        if headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            return 400, {"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": "not JSON"}}
        scheme, _, bearer = headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer" or bearer not in self.issued or bearer in self.revoked:
            self.refused.append("no token of ours")
            return 401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}}
        message = json.loads(body)["message"]
        self.received.append(message)
        return self.answers.get(message["token"], (200, {"name": f"projects/{PROJECT}/messages/{len(self.received)}"}))

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fcm(tmp_path, settings):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    email = f"push@{PROJECT}.iam.gserviceaccount.com"
    service = FCM(key.public_key(), email)
    path = tmp_path / "service-account.json"
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": PROJECT,
                "private_key_id": "k1",
                "client_email": email,
                "client_id": "1",
                "token_uri": f"{service.origin}/token",
                "private_key": key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
                ).decode(),
            }
        )
    )
    settings.FCM_CREDENTIALS_PATH, settings.FCM_ENDPOINT = str(path), service.origin
    yield service
    service.close()


@pytest.fixture(autouse=True)
def no_web_push(settings):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""


def register(player, platform, token):
    answer = player.post("/api/v1/push/devices/", {"platform": platform, "token": token, "name": "phone"})
    assert answer.status_code == 201, answer.content
    return answer.json()


# ---------------------------------------------------------------------------------------------
# What the phone shows
# ---------------------------------------------------------------------------------------------
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


def test_the_fcm_token_is_fetched_once_and_reused(alice, bob, duel, fcm):
    register(bob, "fcm", "android-1")
    for count in (1, 2):
        play_until_pushed({0: alice, 1: bob}, duel, bob.user, count=count)
        deliver_push(pushes(bob.user).last().pk)
    assert len(fcm.received) == 2 and fcm.issued == ["ya29.local-1"]


@pytest.mark.parametrize(
    "reason, made_again", [("ExpiredProviderToken", True), ("InvalidProviderToken", True), ("Forbidden", False)]
)
def test_the_apns_provider_token_is_reused_until_apns_calls_it_expired_or_invalid(
    alice, bob, duel, apns, reason, made_again
):
    register(bob, "apns", IPHONE)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    apns.answers[IPHONE] = (403, reason)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user, count=2)
    delivery = pushes(bob.user).last()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("pending", f"HTTP 403 {reason}")
    assert len(apns.tokens) == 1  # both requests so far carried the same token
    del apns.answers[IPHONE]
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.attempt_log.last().at)
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and len(apns.tokens) == (2 if made_again else 1) and len(apns.received) == 3


def test_a_token_fcm_no_longer_takes_is_dropped_and_the_retry_fetches_another(alice, bob, duel, fcm):
    register(bob, "fcm", "android-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    fcm.revoked.add("ya29.local-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user, count=2)
    delivery = pushes(bob.user).last()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("pending", "HTTP 401 UNAUTHENTICATED")
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.attempt_log.last().at)
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and fcm.issued == ["ya29.local-1", "ya29.local-2"]
    assert len(fcm.received) == 2 and fcm.refused == ["no token of ours"]  # the second, once refused


# ---------------------------------------------------------------------------------------------
# The services' answers: gone tokens, failures, the deadline
# ---------------------------------------------------------------------------------------------
FCM_UNREGISTERED = {
    "error": {
        "code": 404,
        "message": "Requested entity was not found.",
        "status": "NOT_FOUND",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}],
    }
}
FCM_BAD_TOKEN = {
    "error": {
        "code": 400,
        "message": "The registration token is not a valid FCM registration token",
        "status": "INVALID_ARGUMENT",
        "details": [
            {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"},
            {
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "message.token", "description": "Invalid registration token"}],
            },
        ],
    }
}
# The same, said one way only: by the status and the field, or by FCM's own code and the words.
FCM_BAD_TOKEN_BY_STATUS = {
    "error": {
        "code": 400,
        "status": "INVALID_ARGUMENT",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": "message.token"}]}
        ],
    }
}
FCM_BAD_TOKEN_BY_CODE = {
    "error": {
        "code": 400,
        "message": "The registration token is not a valid FCM registration token",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}],
    }
}
FCM_BAD_FIELD = {
    "error": {
        "code": 400,
        "message": "Invalid value at 'message.android.ttl'",
        "status": "INVALID_ARGUMENT",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "message.android.ttl"}],
            }
        ],
    }
}


@pytest.mark.parametrize(
    "platform, status, answer",
    [
        ("apns", 410, "Unregistered"),
        ("apns", 400, "BadDeviceToken"),
        ("fcm", 404, FCM_UNREGISTERED),
        ("fcm", 404, {"error": {"code": 404, "status": "UNREGISTERED"}}),  # said in the status alone
        ("fcm", 400, FCM_BAD_TOKEN),
        ("fcm", 400, FCM_BAD_TOKEN_BY_STATUS),
        ("fcm", 400, FCM_BAD_TOKEN_BY_CODE),
    ],
)
def test_a_device_its_service_says_is_gone_is_removed(request, alice, bob, duel, platform, status, answer):
    service = request.getfixturevalue(platform)
    token = IPHONE if platform == "apns" else "android-gone"
    service.answers[token] = (status, answer)
    register(bob, platform, token)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert not PushDevice.objects.filter(user=bob.user).exists()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("sent", "every subscription was gone")
    assert delivery.attempt_log.get().status_code == status


@pytest.mark.parametrize(
    "platform, status, answer, error",
    [
        ("apns", 500, "InternalServerError", "HTTP 500 InternalServerError"),
        ("apns", 400, "BadTopic", "HTTP 400 BadTopic"),
        ("apns", 503, "", "HTTP 503"),  # no reason given
        ("apns", 500, "Internal" * 20, "HTTP 500 " + ("Internal" * 20)[:100]),  # a reason cut at 100 characters
        ("fcm", 503, {"error": {"code": 503, "status": "UNAVAILABLE"}}, "HTTP 503 UNAVAILABLE"),
        ("fcm", 400, FCM_BAD_FIELD, "HTTP 400 INVALID_ARGUMENT"),  # our message, not the device's token
        ("fcm", 404, {"error": {"code": 404, "status": "NOT_FOUND"}}, "HTTP 404 NOT_FOUND"),  # the project's
        ("fcm", 300, {"error": "Multiple Choices"}, "HTTP 300"),  # not a 2xx, and an error that is no object
    ],
)
def test_a_failure_that_is_not_the_device_s_is_retried_with_backoff_and_keeps_it(
    request, alice, bob, duel, platform, status, answer, error
):
    service = request.getfixturevalue(platform)
    token = IPHONE if platform == "apns" else "android-1"
    service.answers[token] = (status, answer)
    register(bob, platform, token)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    delays = attempt_every_time(delivery)
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("failed", 3, error)
    assert delays == pytest.approx([0.3, 0.6], abs=0.01)
    assert PushDevice.objects.filter(user=bob.user).count() == 1


@pytest.mark.parametrize("token", ["..", "0X" + IPAD])
def test_an_apns_token_that_is_not_hex_is_removed_without_being_sent(alice, bob, duel, apns, token):
    register(bob, "apns", token)  # the API takes it (FCM's tokens have dots); APNs never would
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert apns.received == [] and not PushDevice.objects.exists()
    # The attempt as APNs itself would have answered it.
    attempt = delivery.attempt_log.get()
    assert (attempt.ok, attempt.status_code, attempt.error, attempt.duration_ms) == (
        False,
        400,
        "BadDeviceToken (an APNs token is hexadecimal)",
        0,
    )


def test_an_apns_token_in_capitals_is_hexadecimal_too(alice, bob, duel, apns):
    register(bob, "apns", IPAD.upper())
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    assert [device for device, _, _ in apns.received] == [IPAD.upper()]
    assert PushDevice.objects.filter(user=bob.user).exists()


def test_an_apns_service_that_never_answers_is_cut_at_the_deadline(alice, bob, duel, apns, settings):
    settings.PUSH_DEADLINE_SECONDS = 2  # room for the TLS handshake on a busy machine
    apns.hang = True
    register(bob, "apns", IPHONE)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert len(apns.received) == 1  # it got there, and was never answered
    assert (delivery.status, delivery.attempts, delivery.last_error) == (
        "pending",
        1,
        "no answer within the 2 s deadline",
    )
    assert PushDevice.objects.count() == 1


@pytest.mark.parametrize("platform", ["apns", "fcm"])
def test_a_phone_service_that_refuses_the_connection_is_a_failed_attempt_that_says_so(
    request, alice, bob, duel, settings, platform
):
    """Not the deadline: the attempt failed at once, and its error says what the network said."""
    from tests.faults.stack import closed_port

    request.getfixturevalue(platform)
    setattr(settings, f"{platform.upper()}_ENDPOINT", f"https://127.0.0.1:{closed_port()}")
    register(bob, platform, IPHONE)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 1)
    assert delivery.last_error == "All connection attempts failed"  # httpx's word for a refusal
    assert PushDevice.objects.count() == 1


def test_a_token_endpoint_that_never_answers_is_within_the_same_deadline(alice, bob, duel, fcm, settings):
    settings.PUSH_DEADLINE_SECONDS = 1
    fcm.token_hang = True
    register(bob, "fcm", "android-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert fcm.received == []
    assert (delivery.status, delivery.attempts) == ("pending", 1)
    assert "no answer within the 1 s deadline" in delivery.last_error


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


# ---------------------------------------------------------------------------------------------
# Secrecy: a phone sees the inbox's title, never a card
# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# Operators: what `check` says
# ---------------------------------------------------------------------------------------------
def test_check_is_quiet_for_configured_platforms_and_names_what_is_wrong(apns, fcm, settings, tmp_path):
    settings.PUSH_PLATFORMS = ["apns", "fcm"]
    assert push.check() == []
    settings.APNS_KEY_ID = settings.APNS_TOPIC = ""
    bad = tmp_path / "not-a-key.json"
    bad.write_text("{}")
    settings.FCM_CREDENTIALS_PATH = str(bad)
    messages = {m.id: m.msg for m in push.check()}
    assert "APNS_KEY_ID, APNS_TOPIC unset" in messages["darkroom.W102"]
    assert "not a service-account key" in messages["darkroom.W103"]
    settings.APNS_KEY_ID = settings.APNS_TOPIC = "x"
    settings.APNS_AUTH_KEY_PATH = str(bad)
    assert "not a usable key" in push.check()[0].msg
    out = StringIO()
    call_command("check", stdout=out, stderr=out)
    assert "darkroom.W102" in out.getvalue() and "darkroom.W103" in out.getvalue()
