"""Slow or hostile outside parties cannot hold a worker (issue 30): one webhook attempt is over by
its deadline whatever the receiver does (hang, trickle, redirect, flood), no database lock or
transaction is open while a receiver is waited on, an attempt whose worker died is resent once
its lease runs out (or given up if it was the last), and two sweeps never run at once."""
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from accounts import webhooks
from games import tasks
from games.models import Delivery
from tests.faults.stack import Tarpit
from tests.games.test_tasks_behaviour import webhook_for_bob
from tests.games.test_webhooks import Receiver

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def tarpit():
    t = Tarpit(4)
    yield dict(zip(Tarpit.MODES, t.urls))
    t.close()


@pytest.mark.parametrize("mode", ["hang", "trickle"])
def test_a_receiver_that_hangs_or_trickles_is_cut_at_the_delivery_s_deadline(tarpit, mode):
    """A trickle sends a byte a second: every read succeeds, so only a deadline on the whole
    attempt ends it."""
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(tarpit[mode], "secret", 1, {}, deadline_seconds=1.5)
    assert (outcome.ok, outcome.status_code) == (False, None)
    assert outcome.error == "no answer within the 1.5 s deadline"


def test_a_redirect_is_a_failed_attempt_and_is_not_followed(tarpit):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(tarpit["redirect"], "secret", 1, {}, deadline_seconds=5)
    assert (outcome.ok, outcome.status_code, outcome.error) == (False, 302, "HTTP 302")


def test_a_flood_of_headers_is_refused_not_read(tarpit):
    with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
        outcome = webhooks.post(tarpit["flood"], "secret", 1, {}, deadline_seconds=5)
    assert (outcome.ok, outcome.status_code) == (False, None)
    assert "header line" in outcome.error or "deadline" in outcome.error


class BigBody(BaseHTTPRequestHandler):
    """Answers 200 with a 10 MB body (and counts how much of it went out)."""

    sent = 0

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Length", str(10 * 2 ** 20))
        self.end_headers()
        try:
            for _ in range(160):
                self.wfile.write(b"x" * 65536)
                type(self).sent += 65536
        except OSError:
            pass

    def log_message(self, *args):
        pass


def test_a_ten_megabyte_answer_counts_by_its_status_and_its_body_is_never_read():
    server = ThreadingHTTPServer(("127.0.0.1", 0), BigBody)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with override_settings(WEBHOOKS_ALLOW_PRIVATE=True):
            outcome = webhooks.post(f"http://127.0.0.1:{server.server_address[1]}/", "secret", 1, {},
                                    deadline_seconds=5)
    finally:
        server.shutdown()
        server.server_close()
    assert (outcome.ok, outcome.status_code, outcome.error) == (True, 200, "")
    assert BigBody.sent < 10 * 2 ** 20  # the connection was closed under it


# ---------------------------------------------------------------------------------------------
# No lock or transaction across the network; leases
# ---------------------------------------------------------------------------------------------
def _plain_url() -> str:
    db = connection.settings_dict
    return f"postgresql://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_no_row_lock_or_transaction_is_held_while_a_receiver_is_waited_on(alice, bob):
    seen = {}

    class Probe(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            with psycopg.connect(_plain_url(), autocommit=True) as other:
                # Another worker could take the row this very moment, without waiting.
                other.execute("SET lock_timeout = '1s'")
                try:
                    other.execute("SELECT 1 FROM games_delivery WHERE id = %s FOR UPDATE NOWAIT", [seen["id"]])
                    seen["lockable"] = True
                except psycopg.errors.LockNotAvailable:
                    seen["lockable"] = False
                seen["state"] = other.execute("SELECT state FROM pg_stat_activity WHERE pid = %s",
                                              [seen["pid"]]).fetchone()[0]
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Probe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        _, _, delivery = webhook_for_bob(alice, bob, f"http://127.0.0.1:{server.server_address[1]}/")
        seen["id"] = delivery.pk
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            seen["pid"] = cursor.fetchone()[0]
        tasks.deliver_webhook(delivery.pk)
    finally:
        server.shutdown()
        server.server_close()
    assert seen["lockable"] is True
    assert seen["state"] == "idle"  # not "idle in transaction"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 1)


@pytest.mark.django_db
def test_an_attempt_whose_worker_died_is_resent_after_its_lease_and_not_before(alice, bob, queue):
    receiver = Receiver()
    try:
        _, _, delivery = webhook_for_bob(alice, bob, receiver.url)
        # A worker claimed it and died mid-POST: counted, leased, never recorded.
        leased = timezone.now() + timedelta(seconds=settings.WEBHOOK_DEADLINE_SECONDS + 5)
        Delivery.objects.filter(pk=delivery.pk).update(attempts=1, next_attempt_at=leased)
        queue()
        assert tasks._sweep()["deliveries"] == 0 and queue() == []
        tasks.deliver_webhook(delivery.pk)  # a stray task: still leased, nothing sent
        assert receiver.requests == []
        Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())  # the lease ran out
        assert tasks._sweep()["deliveries"] == 1
        tasks.deliver_webhook(delivery.pk)
    finally:
        receiver.close()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, len(receiver.requests)) == ("sent", 2, 1)


@pytest.mark.django_db
def test_a_last_attempt_whose_worker_died_is_given_up_not_tried_again(alice, bob):
    receiver = Receiver()
    try:
        _, _, delivery = webhook_for_bob(alice, bob, receiver.url)
        Delivery.objects.filter(pk=delivery.pk).update(attempts=settings.WEBHOOK_MAX_ATTEMPTS,
                                                       next_attempt_at=timezone.now())
        tasks.deliver_webhook(delivery.pk)
    finally:
        receiver.close()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == (
        "failed", settings.WEBHOOK_MAX_ATTEMPTS, "the last attempt never finished")
    assert receiver.requests == []


# ---------------------------------------------------------------------------------------------
# Two schedulers
# ---------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_sweep_that_finds_another_running_returns_at_once_and_the_next_one_runs():
    held, release = threading.Event(), threading.Event()

    def other_sweep():
        from games.play import scheduling

        try:
            with scheduling.exclusive("sweep") as ours:
                assert ours
                held.set()
                release.wait(20)
        finally:
            connection.close()

    running = threading.Thread(target=other_sweep)
    running.start()
    try:
        assert held.wait(10)
        assert tasks.sweep() == {"skipped": 1}
    finally:
        release.set()
        running.join(20)
    assert "skipped" not in tasks.sweep()
