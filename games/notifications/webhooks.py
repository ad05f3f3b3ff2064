"""Webhook delivery: a signed JSON POST to a URL the user registered.

The signature lets the receiver trust the message: `X-Darkroom-Signature: sha256=<hex>` is the
HMAC-SHA256, keyed with the webhook's secret, of `<X-Darkroom-Timestamp>.<body>`. URLs that point
at loopback, private, link-local or other reserved addresses are refused (checked when the hook is
registered and again at every delivery, since DNS can change) so the server cannot be turned
against its own network; settings.WEBHOOKS_ALLOW_PRIVATE lifts that for development and tests.
A delivery resolves the host once, checks every address, and connects to a checked address
(TLS still verifies the URL's host name), so no second lookup can slip another address in.
"""
from __future__ import annotations

import hashlib
import hmac
import http.client
import ipaddress
import json
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from games.errors import Invalid

TIMEOUT_SECONDS = 5


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


# IPv6 ranges that carry an IPv4 address.
NAT64 = ipaddress.ip_network("64:ff9b::/96")          # RFC 6052 well-known prefix
SIIT = ipaddress.ip_network("::ffff:0:0:0/96")        # RFC 2765 IPv4-translated
COMPATIBLE = ipaddress.ip_network("::/96")            # deprecated IPv4-compatible (::a.b.c.d)
GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
TEREDO = ipaddress.ip_network("2001::/32")             # the client's IPv4 is hidden: never


def _public_v4(address: ipaddress.IPv4Address) -> bool:
    return address.is_global and not address.is_multicast


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a webhook may be delivered to `address`.

    IPv4: globally routable unicast. IPv6: global unicast (2000::/3) that Python also calls
    global, or a form that carries an IPv4 address (IPv4-mapped, NAT64, 6to4) when that IPv4
    address is public itself. The obsolete IPv4-compatible and SIIT forms, site-local
    (fec0::/10), unique local, link-local, Teredo and everything else reserved are refused,
    whatever Python's tables say (its 3.11 tables call fec0::1 and ::127.0.0.1 global).
    """
    if isinstance(address, ipaddress.IPv4Address):
        return _public_v4(address)
    if address.ipv4_mapped is not None:
        return _public_v4(address.ipv4_mapped)
    embedded = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in SIIT or address in COMPATIBLE:
        # ::a.b.c.d and ::ffff:0:a.b.c.d are obsolete; nobody needs them for a webhook.
        return False
    if address in NAT64:
        return _public_v4(embedded)
    if address.sixtofour is not None:
        return _public_v4(address.sixtofour)
    if address in TEREDO:
        return False
    return (address in GLOBAL_UNICAST and address.is_global and not address.is_multicast
            and not address.is_site_local)


@dataclass(frozen=True)
class Target:
    """A webhook URL resolved once: deliveries connect to these addresses and no others, so DNS
    cannot answer one thing to the check and another to the connection."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


def resolve(url: str) -> Target:
    """Raise Invalid unless `url` is an http(s) URL whose host resolves only to public addresses.

    Every resolved address is checked, not just the first. The refusal never says what the name
    resolved to: that would turn the check into a way to probe internal DNS."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise Invalid("a webhook URL must be http:// or https:// with a host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Invalid("the webhook URL has an invalid port") from None
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError):
        raise Invalid("the webhook host does not resolve") from None
    addresses = []
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not settings.WEBHOOKS_ALLOW_PRIVATE and not is_public(address):
            raise Invalid("the webhook URL points at a non-public address")
        if str(address) not in addresses:
            addresses.append(str(address))
    if not addresses:
        raise Invalid("the webhook host does not resolve")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, tuple(addresses))


def check_url(url: str) -> None:
    resolve(url)


def _connect(address: str, port: int, timeout: float) -> socket.socket:
    """A TCP connection to an address literal, with no name lookup of any kind."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect((address, port))
    except OSError:
        sock.close()
        raise
    return sock


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to a checked address; the Host header still names the URL's host."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = _connect(self.address, self.port, self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As _PinnedHTTP, over TLS with SNI and certificate checks for the URL's host name."""

    def __init__(self, host: str, port: int, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self):
        sock = _connect(self.address, self.port, self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _send(target: Target, body: bytes, headers: dict[str, str]) -> int:
    """POST to the first checked address that accepts a connection; the HTTP status."""
    kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    last: OSError | None = None
    for address in target.addresses:
        connection = kind(target.host, target.port, address, TIMEOUT_SECONDS)
        try:
            try:
                connection.connect()
            except OSError as exc:  # nothing was sent: the next address may answer
                last = exc
                continue
            connection.request("POST", target.path, body=body, headers=headers)
            return connection.getresponse().status
        finally:
            connection.close()
    raise last or OSError("no address to connect to")


@dataclass
class Outcome:
    ok: bool
    status_code: int | None
    error: str
    duration_ms: int


def post(url: str, secret: str, delivery_id: int, payload: dict) -> Outcome:
    """One delivery attempt. Redirects are not followed (http.client never does): a redirect
    could lead to an address the check never saw, so a 3xx is a failed attempt."""
    body = json.dumps(payload, sort_keys=True, default=str).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Darkroom-Webhooks/1",
        "X-Darkroom-Delivery": str(delivery_id),
        "X-Darkroom-Timestamp": timestamp,
        "X-Darkroom-Signature": sign(secret, timestamp, body),
    }
    started = time.monotonic()
    try:
        code = _send(resolve(url), body, headers)
        ok, error = 200 <= code < 300, "" if 200 <= code < 300 else f"HTTP {code}"
    except Invalid as exc:
        code, ok, error = None, False, exc.detail
    except (OSError, http.client.HTTPException) as exc:
        code, ok, error = None, False, str(exc) or type(exc).__name__
    return Outcome(ok, code, error[:500], int((time.monotonic() - started) * 1000))
