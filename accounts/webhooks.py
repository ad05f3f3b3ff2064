"""Webhook delivery: a signed JSON POST to a URL the user registered.

The signature lets the receiver trust the message: `X-Darkroom-Signature: sha256=<hex>` is the
HMAC-SHA256, keyed with the webhook's secret, of `<X-Darkroom-Timestamp>.<body>`. URLs that point
at loopback, private, link-local or other reserved addresses are refused (checked when the hook is
registered and again at every delivery, since DNS can change) so the server cannot be turned
against its own network; settings.WEBHOOKS_ALLOW_PRIVATE lifts that for development and tests.
A delivery resolves the host once, checks every address, and connects to a checked address
(TLS still verifies the URL's host name), so no second lookup can slip another address in.

A receiver cannot hold a delivery past settings.WEBHOOK_DEADLINE_SECONDS, however it answers:
the deadline covers the whole attempt (connect, TLS handshake, sending, the status line and the
headers) and a watchdog cuts the connection when it is up, since a per-read timeout alone lets a
receiver trickle one byte every few seconds for ever. Only the status line and headers are read
(http.client refuses a header line over 64 KiB or more than 100 headers); the body never is, so a
10 MB answer costs nothing. Redirects are not followed.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop
import hashlib
import hmac
import http.client
import ipaddress
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from config.errors import Invalid

# Each blocking step (connect, one read) at most this long, within the delivery's deadline.
TIMEOUT_SECONDS = 5


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


# IPv6 ranges that carry an IPv4 address.
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052 well-known prefix
SIIT = ipaddress.ip_network("::ffff:0:0:0/96")  # RFC 2765 IPv4-translated
COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated IPv4-compatible (::a.b.c.d)
GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
TEREDO = ipaddress.ip_network("2001::/32")  # the client's IPv4 is hidden: never


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
    return address in GLOBAL_UNICAST and address.is_global and not address.is_multicast and not address.is_site_local


@dataclass(frozen=True)
class Target:
    """A webhook URL resolved once: deliveries connect to these addresses and no others, so DNS
    cannot answer one thing to the check and another to the connection."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


@dataclass(frozen=True)
class Called:
    """What the refusals call the URL and its host: a webhook's, or a browser's push endpoint's
    (which is checked by the same rule but is no webhook to the person who reads the error)."""

    # Whole sentences, each translated as one (gettext at the refusal): the nouns' genders and
    # cases differ between languages.
    scheme: str
    port: str
    unresolved: str
    private: str


WEBHOOK = Called(
    gettext_noop("a webhook URL must be http:// or https:// with a host"),
    gettext_noop("the webhook URL has an invalid port"),
    gettext_noop("the webhook host does not resolve"),
    gettext_noop("the webhook URL points at a non-public address"),
)
PUSH_ENDPOINT = Called(
    gettext_noop("a push endpoint must be http:// or https:// with a host"),
    gettext_noop("the push endpoint has an invalid port"),
    gettext_noop("the push endpoint's host does not resolve"),
    gettext_noop("the push endpoint points at a non-public address"),
)


def resolve(url: str, called: Called = WEBHOOK) -> Target:
    """Raise Invalid unless `url` is an http(s) URL whose host resolves only to public addresses.

    Every resolved address is checked, not just the first. The refusal never says what the name
    resolved to: that would turn the check into a way to probe internal DNS."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise Invalid(gettext(called.scheme))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Invalid(gettext(called.port)) from None
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError):
        raise Invalid(gettext(called.unresolved)) from None
    addresses = []
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not settings.WEBHOOKS_ALLOW_PRIVATE and not is_public(address):
            raise Invalid(gettext(called.private))
        if str(address) not in addresses:
            addresses.append(str(address))
    if not addresses:
        raise Invalid(gettext(called.unresolved))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, tuple(addresses))


def check_url(url: str, called: Called = WEBHOOK) -> None:
    resolve(url, called)


class Deadline:
    """The whole of one delivery: `watch` the socket in use and, once `seconds` have passed, it is
    shut down under whatever read or write is blocked on it (which then fails at once). Each
    blocking step is given at most `step` seconds of what is left (accounts/mail.py bounds an
    email with it too)."""

    def __init__(self, seconds: float, step: float = TIMEOUT_SECONDS):
        self.seconds, self.step = seconds, step
        self.at = time.monotonic() + seconds
        self.expired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def remaining(self) -> float:
        left = self.at - time.monotonic()
        if left <= 0 or self.expired:
            raise TimeoutError(f"no answer within the {self.seconds:g} s deadline")
        return min(left, self.step)

    def passed(self) -> bool:
        """Whether it is over: the socket's own timeout (set to what was left) may fire a moment
        before the watchdog, and either way it is the deadline that ended the attempt."""
        return self.expired or time.monotonic() >= self.at

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock
            if self.expired:
                self._cut()

    def _cut(self) -> None:
        try:
            # socket.socket's own shutdown, also for a TLS socket: the TCP connection ends under
            # the blocked TLS read, without touching the TLS object another thread is using.
            socket.socket.shutdown(self._sock, socket.SHUT_RDWR)
        except OSError:
            pass

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            if self._sock is not None:
                self._cut()

    def cancel(self) -> None:
        self._timer.cancel()


def _connect(address: str, port: int, deadline: Deadline) -> socket.socket:
    """A TCP connection to an address literal, with no name lookup of any kind."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        deadline.watch(sock)
        sock.settimeout(deadline.remaining())
        sock.connect((address, port))
    except OSError:
        sock.close()
        raise
    return sock


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to a checked address; the Host header still names the URL's host."""

    def __init__(self, host: str, port: int, address: str, deadline: Deadline):
        super().__init__(host, port, timeout=TIMEOUT_SECONDS)
        self.address, self.deadline = address, deadline

    def connect(self):
        self.sock = _connect(self.address, self.port, self.deadline)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As _PinnedHTTP, over TLS with SNI and certificate checks for the URL's host name; the
    handshake is watched by the deadline too."""

    def __init__(self, host: str, port: int, address: str, deadline: Deadline):
        super().__init__(host, port, timeout=TIMEOUT_SECONDS, context=ssl.create_default_context())
        self.address, self.deadline = address, deadline

    def connect(self):
        sock = _connect(self.address, self.port, self.deadline)
        tls = self._context.wrap_socket(sock, server_hostname=self.host, do_handshake_on_connect=False)
        self.deadline.watch(tls)
        tls.settimeout(self.deadline.remaining())
        tls.do_handshake()
        self.sock = tls


def _send(target: Target, body: bytes, headers: dict[str, str], deadline: Deadline) -> int:
    """POST to the first checked address that accepts a connection; the HTTP status (the status
    line and headers read, the body never)."""
    kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    last: OSError | None = None
    for address in target.addresses:
        connection = kind(target.host, target.port, address, deadline)
        try:
            try:
                connection.connect()
            except OSError as exc:  # nothing was sent: the next address may answer
                if deadline.expired:
                    raise
                last = exc
                continue
            connection.sock.settimeout(deadline.remaining())
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


def post(url: str, secret: str, delivery_id: int, payload: dict, deadline_seconds: float | None = None) -> Outcome:
    """One delivery attempt, over within `deadline_seconds` (settings.WEBHOOK_DEADLINE_SECONDS)
    whatever the receiver does. Redirects are not followed (http.client never does): a redirect
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
    return post_bytes(url, body, headers, deadline_seconds or settings.WEBHOOK_DEADLINE_SECONDS)


def post_bytes(
    url: str, body: bytes, headers: dict[str, str], deadline_seconds: float, called: Called = WEBHOOK
) -> Outcome:
    """POST `body` to `url` within `deadline_seconds`, with the same address checks, pinning and
    deadline as a webhook (push deliveries use it for the push services: their URLs come from
    users too). Any status outside 2xx is a failed attempt, its code in the outcome."""
    started = time.monotonic()
    deadline = Deadline(deadline_seconds)
    try:
        code = _send(resolve(url, called), body, headers, deadline)
        ok, error = 200 <= code < 300, "" if 200 <= code < 300 else f"HTTP {code}"
    except Invalid as exc:
        code, ok, error = None, False, exc.detail
    except (OSError, http.client.HTTPException) as exc:
        code, ok = None, False
        error = (
            f"no answer within the {deadline.seconds:g} s deadline"
            if deadline.passed()
            else str(exc) or type(exc).__name__
        )
    finally:
        deadline.cancel()
    return Outcome(ok, code, error[:500], int((time.monotonic() - started) * 1000))
