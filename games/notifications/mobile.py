"""The phones' push services: Apple's APNs (HTTP/2, a provider token) and Google's FCM (HTTP v1,
an OAuth2 token from a service account). games.notifications.push decides what to send and to
whom; this module sends one notification to one device and says how it went.

Why a thin sender and not a client library: the kept clients (aioapns, pyfcm, firebase-admin,
django-push-notifications through them) hard-code Apple's and Google's hosts, and none takes
an endpoint through a documented parameter, so a deployment (or a test) could not point them
anywhere else without patching them. The hard parts stay with kept libraries: PyJWT signs the
APNs provider token (ES256), google-auth makes and exchanges FCM's service-account assertion,
httpx with h2 speaks HTTP/2. The endpoints are settings (APNS_ENDPOINT, FCM_ENDPOINT).

Every send is over within one deadline (settings.PUSH_DEADLINE_SECONDS) whatever the service
does: each network step runs under asyncio.wait_for with what is left of it, and cancelling an
httpx request closes its connection, so a service that trickles bytes or never answers costs the
deadline and no more. Only the first 64 KiB of an answer are read (the reason a device is gone).
"""

from __future__ import annotations

import asyncio
import json
import os
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import quote

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from django.conf import settings
from google.auth import exceptions as google_exceptions, transport as google_transport
from google.oauth2 import service_account

ANSWER_MAX = 64 * 1024
# Apple refuses a provider token older than an hour and one renewed more often than every
# 20 minutes; Google's access tokens last an hour and google-auth renews them a little before.
APNS_TOKEN_SECONDS = 40 * 60
FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
APNS_SETTINGS = ("APNS_AUTH_KEY_PATH", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC")


class Unusable(Exception):
    """The platform's credentials cannot be used (missing, unreadable, not a key)."""


@dataclass
class Answer:
    """What one device's push service said: `gone` when it says the token no longer exists."""

    ok: bool
    status_code: int | None
    error: str
    duration_ms: int
    gone: bool = False


class Deadline:
    def __init__(self, seconds: float):
        self.seconds, self.at = seconds, time.monotonic() + seconds

    def left(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no answer within the {self.seconds:g} s deadline")
        return left

    def run(self, make):
        """Run the coroutine `make()` makes, cut at the deadline (its connection closed)."""

        async def bounded():
            return await asyncio.wait_for(make(), timeout=self.left())

        try:
            return asyncio.run(bounded())
        except (asyncio.TimeoutError, TimeoutError):
            raise TimeoutError(f"no answer within the {self.seconds:g} s deadline") from None


def _tls() -> ssl.SSLContext:
    # The system's certificate authorities, or PUSH_CA_FILE's (a private CA: tests, a proxy).
    return ssl.create_default_context(cafile=settings.PUSH_CA_FILE or None)


async def _post(url: str, body: bytes, headers: dict[str, str], http2: bool) -> tuple[int, bytes]:
    """One POST; the status and at most ANSWER_MAX bytes of the answer. Never follows a redirect."""
    async with httpx.AsyncClient(
        http1=not http2, http2=http2, verify=_tls(), timeout=None, trust_env=False, follow_redirects=False
    ) as client:
        async with client.stream("POST", url, content=body, headers=headers) as response:
            answer = b""
            async for chunk in response.aiter_bytes():
                answer += chunk
                if len(answer) >= ANSWER_MAX:
                    break
            return response.status_code, answer[:ANSWER_MAX]


def _json(answer: bytes) -> dict:
    try:
        data = json.loads(answer or b"{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _failure(exc: BaseException, deadline: Deadline, started: float) -> Answer:
    past = time.monotonic() >= deadline.at
    error = (
        f"no answer within the {deadline.seconds:g} s deadline"
        if past or isinstance(exc, TimeoutError)
        else str(exc) or type(exc).__name__
    )
    return Answer(False, None, error[:500], int((time.monotonic() - started) * 1000))


# ---------------------------------------------------------------------------------------------
# APNs
# ---------------------------------------------------------------------------------------------
_apns_lock = threading.Lock()
_apns_token: dict = {}


def _file_key(path: str, setting: str) -> tuple[str, int]:
    """What a key file is known by in the caches: its path and when it was last written (a key
    replaced in place is read again)."""
    try:
        return path, os.stat(path).st_mtime_ns
    except OSError as exc:
        raise Unusable(f"{setting} cannot be read ({exc.strerror or exc})") from None


def apns_key():
    """The APNs signing key (the .p8 file Apple hands out: a P-256 key in PKCS #8 PEM)."""
    missing = [name for name in APNS_SETTINGS if not getattr(settings, name)]
    if missing:
        raise Unusable(f"not configured ({', '.join(missing)} unset)")
    path = settings.APNS_AUTH_KEY_PATH
    _file_key(path, "APNS_AUTH_KEY_PATH")
    try:
        with open(path, "rb") as key_file:
            key = load_pem_private_key(key_file.read(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise Unusable(f"APNS_AUTH_KEY_PATH is not a usable key ({type(exc).__name__})") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise Unusable("APNS_AUTH_KEY_PATH is not a P-256 key (APNs signs with ES256)")
    return key


def apns_provider_token() -> str:
    """The provider token (a JWT: ES256, kid = key id, iss = team id, iat), made once and reused
    for APNS_TOKEN_SECONDS as Apple asks."""

    which = (*_file_key(settings.APNS_AUTH_KEY_PATH, "APNS_AUTH_KEY_PATH"), settings.APNS_KEY_ID, settings.APNS_TEAM_ID)
    with _apns_lock:
        if _apns_token.get("which") == which and time.time() < _apns_token["until"]:
            return _apns_token["jwt"]
        now = int(time.time())
        token = jwt.encode(
            {"iss": settings.APNS_TEAM_ID, "iat": now},
            apns_key(),
            algorithm="ES256",
            headers={"kid": settings.APNS_KEY_ID},
        )
        _apns_token.update(which=which, jwt=token, until=now + APNS_TOKEN_SECONDS)
        return token


def _forget_apns_token() -> None:
    with _apns_lock:
        _apns_token.clear()


def apns_payload(message: dict) -> dict:
    """The inbox's notice as APNs shows it (`aps.alert`), with the game's address beside it."""
    return {
        "aps": {
            "alert": {"title": message["title"], "body": message["body"]},
            "sound": "default",
            "thread-id": message["tag"],
        },
        "url": message["url"],
        "tag": message["tag"],
        "id": message["id"],
    }


# APNs' reasons for a token that will never work again (besides 410 Unregistered).
APNS_GONE = {"BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic"}


def send_apns(token: str, message: dict, collapse_id: str) -> Answer:
    """POST /3/device/<token> to APNS_ENDPOINT over HTTP/2, within the deadline."""
    started, deadline = time.monotonic(), Deadline(settings.PUSH_DEADLINE_SECONDS)
    if not token or any(c not in "0123456789abcdefABCDEF" for c in token):
        # What APNs would answer: its tokens are hex. Never sent, so a token cannot reach
        # another path on the service either.
        return Answer(False, 400, "BadDeviceToken (an APNs token is hexadecimal)", 0, gone=True)
    try:
        headers = {
            "authorization": f"bearer {apns_provider_token()}",
            "apns-topic": settings.APNS_TOPIC,
            "apns-push-type": "alert",
            "apns-priority": "10",
            "apns-expiration": str(int(time.time()) + settings.PUSH_TTL_SECONDS),
            "apns-collapse-id": collapse_id,
            "content-type": "application/json",
        }
        body = json.dumps(apns_payload(message), separators=(",", ":")).encode()
        url = f"{settings.APNS_ENDPOINT.rstrip('/')}/3/device/{quote(token, safe='')}"
        status, answer = deadline.run(lambda: _post(url, body, headers, http2=True))
    except Unusable as exc:
        return Answer(False, None, f"APNs credentials: {exc}", 0)
    except Exception as exc:  # the network, TLS, the deadline: a failed attempt, retried
        return _failure(exc, deadline, started)
    took = int((time.monotonic() - started) * 1000)
    if status == 200:
        return Answer(True, status, "", took)
    reason = str(_json(answer).get("reason", ""))[:100]
    if status == 403 and reason in ("ExpiredProviderToken", "InvalidProviderToken"):
        _forget_apns_token()
    gone = status == 410 or (status == 400 and reason in APNS_GONE)
    return Answer(False, status, f"HTTP {status} {reason}".strip(), took, gone=gone)


# ---------------------------------------------------------------------------------------------
# FCM
# ---------------------------------------------------------------------------------------------
_fcm_lock = threading.Lock()
_fcm: dict = {}


class Transport(google_transport.Request):
    """google-auth's transport interface over httpx, within the delivery's deadline. A token
    endpoint's 5xx or 429 is raised rather than returned: google-auth would otherwise sleep and
    retry inside the worker; the delivery's own backoff retries it."""

    def __init__(self, deadline: Deadline):
        self.deadline = deadline

    def __call__(self, url, method="GET", body=None, headers=None, timeout=None, **kwargs):
        if method != "POST":
            raise google_exceptions.TransportError(f"{method} is not used here")
        try:
            status, answer = self.deadline.run(lambda: _post(url, body or b"", dict(headers or {}), http2=False))
        except Exception as exc:
            raise google_exceptions.TransportError(str(exc) or type(exc).__name__) from exc
        if status >= 500 or status == 429:
            raise google_exceptions.TransportError(f"the token endpoint answered HTTP {status}")
        return Response(status, answer)


class Response(google_transport.Response):
    def __init__(self, status: int, data: bytes):
        self._status, self._data = status, data

    @property
    def status(self):
        return self._status

    @property
    def headers(self):
        return {}

    @property
    def data(self):
        return self._data


def fcm_credentials():
    """The service account's credentials from FCM_CREDENTIALS_PATH (the JSON key Firebase hands
    out), made once per key file and kept with their token."""
    path = settings.FCM_CREDENTIALS_PATH
    if not path:
        raise Unusable("not configured (FCM_CREDENTIALS_PATH unset)")
    which = _file_key(path, "FCM_CREDENTIALS_PATH")
    with _fcm_lock:
        if _fcm.get("which") == which:
            return _fcm["credentials"]
        try:
            credentials = service_account.Credentials.from_service_account_file(path, scopes=[FCM_SCOPE])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise Unusable(f"FCM_CREDENTIALS_PATH is not a service-account key ({type(exc).__name__})") from None
        if not credentials.project_id:
            raise Unusable("FCM_CREDENTIALS_PATH names no project_id")
        _fcm.update(which=which, credentials=credentials)
        return credentials


def fcm_access_token(deadline: Deadline) -> str:
    """The OAuth2 access token, fetched from the key file's token_uri when the kept one is stale.
    One refresh at a time: the others wait for it, within their own deadlines."""
    credentials = fcm_credentials()
    if not _fcm_lock.acquire(timeout=deadline.left()):
        raise TimeoutError(f"no answer within the {deadline.seconds:g} s deadline")
    try:
        if not credentials.valid:
            credentials.refresh(Transport(deadline))
        return credentials.token
    finally:
        _fcm_lock.release()


def _forget_fcm_token() -> None:
    with _fcm_lock:
        _fcm.clear()


def fcm_body(token: str, message: dict, collapse_key: str) -> dict:
    """An FCM HTTP v1 message: the notice as the system shows it, the game's address as data,
    and the tag that makes a newer notice replace the older one on the device."""
    return {
        "message": {
            "token": token,
            "notification": {"title": message["title"], "body": message["body"]},
            "data": {"url": message["url"], "tag": message["tag"], "id": str(message["id"])},
            "android": {
                "collapse_key": collapse_key,
                "ttl": f"{settings.PUSH_TTL_SECONDS}s",
                "notification": {"tag": message["tag"]},
            },
        }
    }


def _fcm_gone(status: int, error: dict) -> bool:
    """FCM says the token is dead: 404 UNREGISTERED, or 400 INVALID_ARGUMENT about the token
    (not about some other field of the message, which would be our mistake, not the device's)."""
    details = error.get("details") if isinstance(error.get("details"), list) else []
    codes = {d.get("errorCode") for d in details if isinstance(d, dict)}
    if status == 404:
        return "UNREGISTERED" in codes or error.get("status") == "UNREGISTERED"
    if status == 400 and (error.get("status") == "INVALID_ARGUMENT" or "INVALID_ARGUMENT" in codes):
        fields = {
            v.get("field")
            for d in details
            if isinstance(d, dict)
            for v in (d.get("fieldViolations") or [])
            if isinstance(v, dict)
        }
        return "message.token" in fields or "registration token" in str(error.get("message", ""))
    return False


def send_fcm(token: str, message: dict, collapse_key: str) -> Answer:
    """POST FCM_ENDPOINT/v1/projects/<project>/messages:send, token and all within the deadline."""
    started, deadline = time.monotonic(), Deadline(settings.PUSH_DEADLINE_SECONDS)
    try:
        credentials = fcm_credentials()
        bearer = fcm_access_token(deadline)
        url = f"{settings.FCM_ENDPOINT.rstrip('/')}/v1/projects/{quote(credentials.project_id, safe='')}/messages:send"
        body = json.dumps(fcm_body(token, message, collapse_key), separators=(",", ":")).encode()
        headers = {"authorization": f"Bearer {bearer}", "content-type": "application/json; charset=utf-8"}
        status, answer = deadline.run(lambda: _post(url, body, headers, http2=False))
    except Unusable as exc:
        return Answer(False, None, f"FCM credentials: {exc}", 0)
    except Exception as exc:  # the network, the token endpoint, the deadline: retried
        return _failure(exc, deadline, started)
    took = int((time.monotonic() - started) * 1000)
    if 200 <= status < 300:
        return Answer(True, status, "", took)
    error = _json(answer).get("error")
    error = error if isinstance(error, dict) else {}
    if status == 401:
        _forget_fcm_token()
    label = str(error.get("status") or "")[:60]
    return Answer(False, status, f"HTTP {status} {label}".strip(), took, gone=_fcm_gone(status, error))
