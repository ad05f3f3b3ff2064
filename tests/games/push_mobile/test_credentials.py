"""The phones' credentials and deadline (games.notifications.mobile) without a network: what
`check` and a failed send say about each key file, the APNs provider token Apple asks for (ES256,
kid, iss, iat, reused for 40 minutes, made again for a new key), the service account read once
per file, a deadline that cuts whatever runs past it, what a failed attempt says, and which of
FCM's answers mean a token is gone; and what `check` says with the settings a deployment sets
(the stand-ins' of conftest.py). End to end, through APNs and FCM services written for the tests:
the other files here (standins.py)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from django.core.management import call_command
from google.auth import exceptions as google_exceptions

from games.notifications import mobile, push


def pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


@pytest.fixture
def apns_settings(settings, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    path = tmp_path / "AuthKey.p8"
    path.write_bytes(pem(key))
    settings.APNS_AUTH_KEY_PATH, settings.APNS_KEY_ID = str(path), "KEY1234567"
    settings.APNS_TEAM_ID, settings.APNS_TOPIC = "TEAM123456", "net.darkroom.app"
    mobile._forget_apns_token()
    yield SimpleKey(path, key)
    mobile._forget_apns_token()


class SimpleKey:
    def __init__(self, path, key):
        self.path, self.key = path, key


# ---------------------------------------------------------------------------------------------
# APNs
# ---------------------------------------------------------------------------------------------
def unusable(call) -> str:
    with pytest.raises(mobile.Unusable) as raised:
        call()
    return str(raised.value)


@pytest.mark.parametrize("unset", ["APNS_AUTH_KEY_PATH", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"])
def test_apns_names_each_setting_left_unset(apns_settings, settings, unset):
    setattr(settings, unset, "")
    assert unusable(mobile.apns_key) == f"not configured ({unset} unset)"


def test_apns_names_every_setting_left_unset_at_once(apns_settings, settings):
    settings.APNS_KEY_ID = settings.APNS_TOPIC = ""
    assert unusable(mobile.apns_key) == "not configured (APNS_KEY_ID, APNS_TOPIC unset)"


def test_apns_says_why_its_key_file_cannot_be_used(apns_settings, settings, tmp_path):
    settings.APNS_AUTH_KEY_PATH = str(tmp_path / "missing.p8")
    assert unusable(mobile.apns_key) == "APNS_AUTH_KEY_PATH cannot be read (No such file or directory)"
    garbage = tmp_path / "garbage.p8"
    garbage.write_text("not a key")
    settings.APNS_AUTH_KEY_PATH = str(garbage)
    assert unusable(mobile.apns_key) == "APNS_AUTH_KEY_PATH is not a usable key (ValueError)"
    for other in (ec.generate_private_key(ec.SECP384R1()), rsa.generate_private_key(65537, 2048)):
        wrong = tmp_path / "wrong.p8"
        wrong.write_bytes(pem(other))
        settings.APNS_AUTH_KEY_PATH = str(wrong)
        assert unusable(mobile.apns_key) == "APNS_AUTH_KEY_PATH is not a P-256 key (APNs signs with ES256)"


def test_a_usable_apns_key_is_the_file_s_key(apns_settings):
    assert mobile.apns_key().private_numbers() == apns_settings.key.private_numbers()


def test_the_provider_token_is_what_apple_asks_for_and_is_reused(apns_settings):
    before = int(time.time())
    token = mobile.apns_provider_token()
    assert jwt.get_unverified_header(token) == {"alg": "ES256", "kid": "KEY1234567", "typ": "JWT"}
    claims = jwt.decode(token, apns_settings.key.public_key(), algorithms=["ES256"])
    assert claims["iss"] == "TEAM123456" and before <= claims["iat"] <= int(time.time())
    assert set(claims) == {"iss", "iat"}
    assert mobile.apns_provider_token() == token  # Apple refuses one renewed every few seconds


def test_a_new_key_or_key_id_gets_a_new_provider_token(apns_settings, settings):
    token = mobile.apns_provider_token()
    settings.APNS_KEY_ID = "KEY7654321"
    again = mobile.apns_provider_token()
    assert again != token and jwt.get_unverified_header(again)["kid"] == "KEY7654321"
    replacement = ec.generate_private_key(ec.SECP256R1())
    apns_settings.path.write_bytes(pem(replacement))
    stat = os.stat(apns_settings.path)
    os.utime(apns_settings.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a key replaced in place
    jwt.decode(mobile.apns_provider_token(), replacement.public_key(), algorithms=["ES256"])


# ---------------------------------------------------------------------------------------------
# FCM
# ---------------------------------------------------------------------------------------------
def service_account(path, project_id="darkroom-test"):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    path.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": project_id,
                "private_key_id": "k1",
                "client_email": "push@darkroom-test.iam.gserviceaccount.com",
                "client_id": "1",
                "token_uri": "https://oauth2.example/token",
                "private_key": pem(key).decode(),
            }
        )
    )
    return path


@pytest.fixture
def fcm_settings(settings):
    mobile._forget_fcm_token()
    yield settings
    mobile._forget_fcm_token()


def test_fcm_says_why_its_key_file_cannot_be_used(fcm_settings, tmp_path):
    fcm_settings.FCM_CREDENTIALS_PATH = ""
    assert unusable(mobile.fcm_credentials) == "not configured (FCM_CREDENTIALS_PATH unset)"
    fcm_settings.FCM_CREDENTIALS_PATH = str(tmp_path / "missing.json")
    assert unusable(mobile.fcm_credentials) == "FCM_CREDENTIALS_PATH cannot be read (No such file or directory)"
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"type": "authorized_user"}))
    fcm_settings.FCM_CREDENTIALS_PATH = str(other)
    assert unusable(mobile.fcm_credentials).startswith("FCM_CREDENTIALS_PATH is not a service-account key (")
    fcm_settings.FCM_CREDENTIALS_PATH = str(service_account(tmp_path / "nameless.json", project_id=""))
    assert unusable(mobile.fcm_credentials) == "FCM_CREDENTIALS_PATH names no project_id"


def test_the_service_account_is_read_once_per_key_file(fcm_settings, tmp_path):
    path = service_account(tmp_path / "service-account.json")
    fcm_settings.FCM_CREDENTIALS_PATH = str(path)
    first = mobile.fcm_credentials()
    assert first.project_id == "darkroom-test"
    assert first.requires_scopes is False and mobile.FCM_SCOPE in first.scopes
    assert mobile.fcm_credentials() is first
    service_account(path, project_id="another-project")
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert mobile.fcm_credentials().project_id == "another-project"


# ---------------------------------------------------------------------------------------------
# The deadline
# ---------------------------------------------------------------------------------------------
def test_a_deadline_returns_what_finishes_in_time():
    async def quick():
        return "answer"

    assert mobile.Deadline(5).run(quick) == "answer"
    assert 4 < mobile.Deadline(5).left() <= 5


def test_a_deadline_cuts_what_runs_past_it_and_says_so():
    async def forever():
        await asyncio.sleep(60)

    started = time.monotonic()
    with pytest.raises(TimeoutError, match=r"^no answer within the 0.2 s deadline$"):
        mobile.Deadline(0.2).run(forever)
    assert time.monotonic() - started < 5


def test_a_deadline_already_past_leaves_no_time():
    deadline = mobile.Deadline(0.05)
    time.sleep(0.1)
    with pytest.raises(TimeoutError, match=r"^no answer within the 0.05 s deadline$"):
        deadline.left()


def test_a_failure_once_the_deadline_has_run_out_is_the_deadline_whatever_the_network_said():
    answer = mobile._failure(OSError("connection reset by peer"), mobile.Deadline(0), time.monotonic())
    assert (answer.ok, answer.status_code, answer.gone) == (False, None, False)
    assert answer.error == "no answer within the 0 s deadline"


def test_a_failure_within_the_deadline_says_what_failed_in_at_most_500_characters():
    within = mobile.Deadline(60)
    assert mobile._failure(OSError("connection reset by peer"), within, time.monotonic()).error == (
        "connection reset by peer"
    )
    assert mobile._failure(ConnectionResetError(), within, time.monotonic()).error == "ConnectionResetError"
    assert mobile._failure(OSError("x" * 600), within, time.monotonic()).error == "x" * 500


def test_a_failure_counts_the_milliseconds_since_the_attempt_started():
    answer = mobile._failure(OSError("refused"), mobile.Deadline(60), time.monotonic() - 1.5)
    assert 1500 <= answer.duration_ms < 3000


def test_google_s_token_endpoint_is_asked_by_post_alone():
    with pytest.raises(google_exceptions.TransportError, match=r"^GET is not used here$"):
        mobile.Transport(mobile.Deadline(5))("https://oauth2.example/token")


def test_a_token_endpoint_that_refuses_the_connection_says_what_the_network_said():
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(google_exceptions.TransportError, match=r"^All connection attempts failed$"):
        mobile.Transport(mobile.Deadline(5))(f"http://127.0.0.1:{port}/token", method="POST", body=b"x")


@pytest.fixture
def token_endpoint():
    """An endpoint answering every POST with the status the test sets."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(Handler.status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Handler, f"http://127.0.0.1:{server.server_address[1]}/token"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("status", [500, 503, 429])
def test_a_token_endpoint_that_is_down_or_busy_fails_the_attempt_rather_than_being_waited_on(token_endpoint, status):
    """google-auth would sleep and ask again inside the worker: the delivery's backoff retries."""
    handler, url = token_endpoint
    handler.status = status
    with pytest.raises(google_exceptions.TransportError, match=rf"^the token endpoint answered HTTP {status}$"):
        mobile.Transport(mobile.Deadline(5))(url, method="POST", body=b"x")


@pytest.mark.parametrize("status", [400, 401, 499])
def test_a_token_endpoint_s_refusal_is_handed_to_google_auth_to_read(token_endpoint, status):
    handler, url = token_endpoint
    handler.status = status
    answer = mobile.Transport(mobile.Deadline(5))(url, method="POST", body=b"x")
    assert (answer.status, answer.data) == (status, b"{}")


@pytest.mark.parametrize("size", [10_000, 200_000])
def test_a_service_s_answer_is_read_whole_up_to_64_kib_and_no_further(size):
    """Written in pieces, as a network delivers it; a flood is cut, not read to its end."""
    body = bytes(i % 251 for i in range(size))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for start in range(0, len(body), 4096):
                    self.wfile.write(body[start : start + 4096])
                    self.wfile.flush()
            except OSError:
                pass  # the client stopped reading

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        status, answer = mobile.Deadline(10).run(lambda: mobile._post(url, b"x", {}, http2=False))
    finally:
        server.shutdown()
        server.server_close()
    assert (status, answer) == (200, body[: mobile.ANSWER_MAX])


@pytest.mark.parametrize("answer", [b"", b"not json", b'["Unregistered"]', b'"BadDeviceToken"', b"null"])
def test_an_answer_that_is_not_a_json_object_carries_no_reason(answer):
    assert mobile._json(answer) == {}


def test_only_an_invalid_argument_400_about_the_token_means_fcm_dropped_it():
    """The same words under another error are the request's problem or FCM's, not the device's."""
    about_the_token = {
        "message": "The registration token is not a valid FCM registration token",
        "details": [{"fieldViolations": [{"field": "message.token"}]}],
    }
    assert mobile._fcm_gone(400, {**about_the_token, "status": "INVALID_ARGUMENT"}) is True
    assert mobile._fcm_gone(400, {**about_the_token, "status": "FAILED_PRECONDITION"}) is False
    assert mobile._fcm_gone(500, {**about_the_token, "status": "INVALID_ARGUMENT"}) is False


def test_a_send_whose_key_file_went_missing_says_which_setting_to_fix(apns_settings, tmp_path, settings):
    """What the delivery's attempt log shows an operator: the setting, not just an errno."""
    settings.APNS_AUTH_KEY_PATH = str(tmp_path / "moved.p8")
    answer = mobile.send_apns("ab" * 32, {"title": "t", "body": "b", "url": "/#/inbox", "tag": "x:1", "id": 1}, "x:1")
    assert (answer.ok, answer.status_code, answer.gone, answer.duration_ms) == (False, None, False, 0)
    assert answer.error == "APNs credentials: APNS_AUTH_KEY_PATH cannot be read (No such file or directory)"


def test_an_fcm_send_whose_key_file_went_missing_says_which_setting_to_fix(fcm_settings, tmp_path):
    fcm_settings.FCM_CREDENTIALS_PATH = str(tmp_path / "moved.json")
    answer = mobile.send_fcm("android-1", {"title": "t", "body": "b", "url": "/#/inbox", "tag": "x:1", "id": 1}, "x:1")
    assert (answer.ok, answer.status_code, answer.gone, answer.duration_ms) == (False, None, False, 0)
    assert answer.error == "FCM credentials: FCM_CREDENTIALS_PATH cannot be read (No such file or directory)"


# ---------------------------------------------------------------------------------------------
# Operators: what `check` says of a deployment's settings
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
