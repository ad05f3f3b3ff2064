"""Webhook delivery: a signed JSON POST to a URL the user registered.

The signature lets the receiver trust the message: `X-Darkroom-Signature: sha256=<hex>` is the
HMAC-SHA256, keyed with the webhook's secret, of `<X-Darkroom-Timestamp>.<body>`. URLs that point
at loopback, private, link-local or other reserved addresses are refused (checked when the hook is
registered and again at every delivery, since DNS can change) so the server cannot be turned
against its own network; settings.WEBHOOKS_ALLOW_PRIVATE lifts that for development and tests.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from games.errors import Invalid

TIMEOUT_SECONDS = 5


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def check_url(url: str) -> None:
    """Raise Invalid unless `url` is an http(s) URL whose host resolves only to public addresses."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise Invalid("a webhook URL must be http:// or https:// with a host")
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80),
                                   proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise Invalid(f"the webhook host {parts.hostname} does not resolve") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global or address.is_multicast:
            raise Invalid(f"the webhook host resolves to {address}, a non-public address")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # A redirect could lead to an address check_url never saw: treat it as the answer.
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirects)


@dataclass
class Outcome:
    ok: bool
    status_code: int | None
    error: str
    duration_ms: int


def post(url: str, secret: str, delivery_id: int, payload: dict) -> Outcome:
    body = json.dumps(payload, sort_keys=True, default=str).encode()
    timestamp = str(int(time.time()))
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json",
        "User-Agent": "Darkroom-Webhooks/1",
        "X-Darkroom-Delivery": str(delivery_id),
        "X-Darkroom-Timestamp": timestamp,
        "X-Darkroom-Signature": sign(secret, timestamp, body),
    })
    started = time.monotonic()
    try:
        check_url(url)
        with _opener.open(request, timeout=TIMEOUT_SECONDS) as response:
            code = response.status
        ok, error = 200 <= code < 300, "" if 200 <= code < 300 else f"HTTP {code}"
    except urllib.error.HTTPError as exc:
        code, ok, error = exc.code, False, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, Invalid) as exc:
        code, ok, error = None, False, str(getattr(exc, "reason", None) or getattr(exc, "detail", None) or exc)
    return Outcome(ok, code, error[:500], int((time.monotonic() - started) * 1000))
