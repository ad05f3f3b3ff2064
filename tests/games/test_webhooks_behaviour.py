"""Delivery promises mutation testing found unstated: an IPv6 receiver is reached over IPv6, and
an endpoint that accepts the connection and then says nothing costs a bounded wait, over plain
HTTP as over TLS, instead of holding the worker for ever."""
import socket
import threading
import time
from http.server import ThreadingHTTPServer

import pytest
from django.test import override_settings

from games import webhooks
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
        (headers, body), = receiver.requests
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
