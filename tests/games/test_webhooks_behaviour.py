"""Delivery promises mutation testing found unstated: an IPv6 receiver is reached over IPv6, and
an endpoint that accepts the connection and then says nothing costs a bounded wait, over plain
HTTP as over TLS, instead of holding the worker for ever."""

import socket
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import override_settings

from accounts import webhooks
from games.errors import Invalid
from tests.games.test_webhook_guard import fake_dns
from tests.games.test_webhooks import Receiver


class Receiver6(Receiver):
    """The same receiver, listening on the IPv6 loopback."""

    def __init__(self, status=200):
        super().__init__(status)
        self.server.shutdown()
        self.server.server_close()
        handler = self.server.RequestHandlerClass
        self.server = Server6(("::1", 0), handler)
        self.url = f"http://[::1]:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Server6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


def test_a_receiver_on_an_ipv6_address_gets_the_delivery():
    receiver = Receiver6()
    try:
        with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
            outcome = webhooks.post(receiver.url, "secret", 7, {"hello": "v6"})
        assert (outcome.ok, outcome.status_code, outcome.error) == (True, 200, "")
        ((headers, body),) = receiver.requests
        assert body == b'{"hello": "v6"}' and headers["X-Darkroom-Delivery"] == "7"
    finally:
        receiver.close()


@pytest.fixture
def silent():
    """A server that accepts connections and never says a word."""
    server = socket.create_server(("127.0.0.1", 0))
    held = []

    def accept():
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for conn in held:
        conn.close()


@pytest.mark.timeout(20)
@pytest.mark.parametrize("scheme", ["http", "https"])
def test_an_endpoint_that_never_answers_fails_the_attempt_after_the_timeout(silent, monkeypatch, scheme):
    monkeypatch.setattr(webhooks, "TIMEOUT_SECONDS", 0.5)
    started = time.monotonic()
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(f"{scheme}://127.0.0.1:{silent}/hook", "secret", 1, {})
    assert not outcome.ok and outcome.status_code is None
    assert "timed out" in outcome.error
    assert time.monotonic() - started < 10
    assert 400 <= outcome.duration_ms < 10_000  # the half second waited, in milliseconds


class Recorder:
    """A receiver that records each request's path, headers and body, answering `status`."""

    def __init__(self, status=200):
        self.status, self.requests = status, []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                recorder.requests.append((self.path, dict(self.headers), body))
                self.send_response(recorder.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def recorder():
    r = Recorder()
    yield r
    r.close()


def test_a_delivery_is_canonical_json_to_the_url_s_path_with_the_promised_headers(recorder):
    when = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(f"http://127.0.0.1:{recorder.port}/hook/in?token=x", "secret", 42, {"b": 1, "a": when})
    assert (outcome.ok, outcome.status_code, outcome.error) == (True, 200, "")
    ((path, headers, body),) = recorder.requests
    assert path == "/hook/in?token=x"
    assert body == b'{"a": "2026-12-01 03:00:00+00:00", "b": 1}'  # sorted keys, other values as text
    assert headers["Content-Type"] == "application/json"
    assert headers["User-Agent"] == "Darkroom-Webhooks/1"
    assert headers["X-Darkroom-Delivery"] == "42"
    assert abs(int(headers["X-Darkroom-Timestamp"]) - time.time()) < 30


@pytest.mark.parametrize("status, ok", [(200, True), (204, True), (299, True), (300, False), (304, False)])
def test_only_a_2xx_answer_is_a_success(recorder, status, ok):
    recorder.status = status
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(f"http://127.0.0.1:{recorder.port}/", "secret", 1, {})
    assert (outcome.ok, outcome.status_code, outcome.error) == (ok, status, "" if ok else f"HTTP {status}")


def test_an_address_that_refuses_the_connection_gives_way_to_the_next(recorder, monkeypatch):
    # 127.0.0.2 is loopback too, but nothing listens there on this port: refused at once.
    fake_dns(monkeypatch, [["127.0.0.2", "127.0.0.1"]])
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(f"http://hooks.example.test:{recorder.port}/", "secret", 1, {})
    assert (outcome.ok, outcome.status_code) == (True, 200) and len(recorder.requests) == 1
    assert recorder.requests[0][1]["Host"] == f"hooks.example.test:{recorder.port}"


@pytest.mark.parametrize("url", ["ftp://example.org/hook", "http:///hook", "gopher://example.org/"])
def test_only_http_or_https_with_a_host_is_a_webhook_url(url):
    with pytest.raises(Invalid) as refused:
        webhooks.resolve(url)
    assert refused.value.detail == "a webhook URL must be http:// or https:// with a host"


def test_the_refusals_say_what_is_wrong_and_nothing_more(monkeypatch):
    with pytest.raises(Invalid) as refused:
        webhooks.resolve("http://example.org:99999/")
    assert refused.value.detail == "the webhook URL has an invalid port"
    fake_dns(monkeypatch, [["10.0.0.1"]])
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False), pytest.raises(Invalid) as refused:
        webhooks.resolve("http://hooks.example.test/")
    assert refused.value.detail == "the webhook URL points at a non-public address"
    fake_dns(monkeypatch, [[]])
    with pytest.raises(Invalid) as refused:
        webhooks.resolve("http://hooks.example.test/")
    assert refused.value.detail == "the webhook host does not resolve"


@pytest.mark.parametrize(
    "url, port",
    [
        ("http://hooks.example.test/", 80),
        ("https://hooks.example.test/", 443),
        ("https://hooks.example.test:8443/", 8443),
    ],
)
def test_the_port_is_the_scheme_s_unless_the_url_names_one(monkeypatch, url, port):
    fake_dns(monkeypatch, [["8.8.8.8"]])
    assert webhooks.resolve(url).port == port


def test_each_address_is_kept_once_and_without_its_scope(monkeypatch):
    fake_dns(monkeypatch, [["127.0.0.1", "fe80::1%2", "127.0.0.1"]])
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        assert webhooks.resolve("http://hooks.example.test/").addresses == ("127.0.0.1", "fe80::1")


@pytest.mark.parametrize("error, said", [(OSError(), "OSError"), (OSError("x" * 600), "x" * 500)])
def test_a_failed_attempt_says_what_failed_in_at_most_500_characters(monkeypatch, error, said):
    def fails(*_args):
        raise error

    monkeypatch.setattr(webhooks, "_send", fails)
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post("http://127.0.0.1:9/", "secret", 1, {})
    assert (outcome.ok, outcome.status_code, outcome.error) == (False, None, said)


@pytest.mark.parametrize(
    "url, path",
    [
        ("http://hooks.example.test", "/"),
        ("http://hooks.example.test/in", "/in"),
        ("http://hooks.example.test/in?a=1", "/in?a=1"),
    ],
)
def test_the_path_posted_to_is_the_url_s_with_its_query_and_at_least_a_slash(monkeypatch, url, path):
    fake_dns(monkeypatch, [["8.8.8.8"]])
    assert webhooks.resolve(url).path == path


def test_a_name_that_does_not_resolve_is_said_so():
    with pytest.raises(Invalid) as refused:
        webhooks.resolve("http://no-such-host.invalid/")
    assert refused.value.detail == "the webhook host does not resolve"
