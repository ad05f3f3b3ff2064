"""Webhooks: signed POSTs to a server the test starts on loopback, retries, refusals of private
addresses."""

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import override_settings

from games.models import Delivery
from games.tasks import deliver_webhook
from accounts.webhooks import sign


class Receiver:
    """A local HTTP server that records what it is sent and answers with `status`."""

    def __init__(self, status=200):
        self.status, self.requests = status, []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                self.send_response(receiver.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def register(player, url):
    response = player.post("/api/v1/accounts/webhooks/", {"url": url})
    assert response.status_code == 201, response.content
    return response.json()


def bob_gets_a_turn(alice, duel):
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    return Delivery.objects.get(channel="webhook", notification__user__username="bob")


def test_a_notification_is_posted_as_signed_json(alice, bob, duel, receiver):
    hook = register(bob, receiver.url)
    assert len(hook["secret"]) == 64
    delivery = bob_gets_a_turn(alice, duel)
    deliver_webhook(delivery.pk)
    ((headers, body),) = receiver.requests
    expected = (
        "sha256="
        + hmac.new(
            hook["secret"].encode(), headers["X-Darkroom-Timestamp"].encode() + b"." + body, hashlib.sha256
        ).hexdigest()
    )
    assert headers["X-Darkroom-Signature"] == expected
    assert headers["X-Darkroom-Delivery"] == str(delivery.pk)
    payload = json.loads(body)
    assert payload["type"] == "your_turn" and payload["data"]["game"] == duel
    delivery.refresh_from_db()
    assert delivery.status == "sent" and delivery.attempt_log.get().status_code == 200


def test_a_delivery_is_sent_once_however_often_the_task_runs(alice, bob, duel, receiver):
    register(bob, receiver.url)
    delivery = bob_gets_a_turn(alice, duel)
    deliver_webhook(delivery.pk)
    deliver_webhook(delivery.pk)
    assert len(receiver.requests) == 1


def test_a_failing_endpoint_is_retried_with_backoff_then_marked_failed(alice, bob, duel, receiver):
    receiver.status = 500
    hook = register(bob, receiver.url)
    delivery = bob_gets_a_turn(alice, duel)
    delays = []
    for _ in range(3):  # WEBHOOK_MAX_ATTEMPTS is 3 in the tests
        deliver_webhook(delivery.pk)
        delivery.refresh_from_db()
        if delivery.status == "pending":
            delays.append((delivery.next_attempt_at - delivery.attempt_log.last().at).total_seconds())
            Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.attempt_log.last().at)
    assert delivery.status == "failed" and delivery.attempts == 3 and delivery.last_error == "HTTP 500"
    assert delays == pytest.approx([0.3, 0.6], abs=0.01)  # exponential: base, then twice the base
    log = bob.get(f"/api/v1/accounts/webhooks/{hook['id']}/deliveries/").json()
    assert log[0]["status"] == "failed" and [a["status_code"] for a in log[0]["attempt_log"]] == [500, 500, 500]


def test_an_unreachable_endpoint_is_recorded_as_an_error(alice, bob, duel):
    register(bob, "http://127.0.0.1:9/hook")
    delivery = bob_gets_a_turn(alice, duel)
    deliver_webhook(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.attempts == 1 and delivery.last_error


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/x",
        "http://localhost:8000/",
        "http://10.1.2.3/",
        "http://192.168.0.1/",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/",
        "http://0.0.0.0/",
        "ftp://example.org/",
    ],
)
def test_webhooks_may_not_point_at_loopback_private_or_odd_addresses(bob, url):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        response = bob.post("/api/v1/accounts/webhooks/", {"url": url})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_a_private_address_is_refused_again_at_delivery_time(alice, bob, duel, receiver):
    """DNS can change between registration and delivery: the check runs at every attempt."""
    register(bob, receiver.url)
    delivery = bob_gets_a_turn(alice, duel)
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=False):
        deliver_webhook(delivery.pk)
    assert receiver.requests == []
    delivery.refresh_from_db()
    assert "non-public" in delivery.last_error


def test_removing_a_webhook_stops_deliveries(alice, bob, duel, receiver):
    hook = register(bob, receiver.url)
    assert bob.client.delete(f"/api/v1/accounts/webhooks/{hook['id']}/").status_code == 204
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    assert not Delivery.objects.filter(channel="webhook").exists()
    assert bob.get("/api/v1/accounts/webhooks/").json() == []


def test_the_signature_helper_matches_a_known_vector():
    # printf '1700000000.{}' | openssl dgst -sha256 -hmac key: an independent computation.
    assert sign("key", "1700000000", b"{}") == "sha256=9d713ed406bb7076d4123f0dc2c39d2df5c654ed4b0cd56b52c8b4c940bd63ae"
