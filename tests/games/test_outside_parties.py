"""Slow or hostile outside parties cannot hold a worker: one webhook attempt is over by
its deadline whatever the receiver does (hang, trickle, redirect, flood), and one email by its own
whatever the mail server does; no database lock or transaction is open while a receiver is waited
on, an attempt whose worker died is resent once its lease runs out (or given up if it was the
last) and never while it is live, and two sweeps never run at once."""

import socket
import ssl
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psycopg
import pytest
import trustme
from django.conf import settings
from django.core.mail import send_mail
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from accounts import webhooks
from games import tasks
from games.notifications import deliveries
from games.models import Delivery, DeliveryAttempt
from tests.faults.stack.receivers import MailTarpit, Tarpit
from tests.games.test_outbox_recovery import email_for_bob
from tests.games.test_tasks_behaviour import webhook_for_bob
from tests.games.test_webhooks import Receiver
from tests.worker import wait_for

pytestmark = pytest.mark.timeout(60)  # a backstop: each wait below is bounded and says why


def over_within(seconds: float, send, what: str):
    """`send()`'s result (or its exception), on a thread of its own that must be over within
    `seconds`: a party that hangs or trickles may hold an attempt until its deadline, not past it."""
    outcome = {}

    def run():
        try:
            outcome["value"] = send()
        except BaseException as exc:  # handed to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{what} still held {seconds:g} s on: nothing cut it at its deadline"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


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
        outcome = over_within(
            10,
            lambda: webhooks.post(tarpit[mode], "secret", 1, {}, deadline_seconds=1.5),
            f"a webhook attempt to a receiver that {mode}s",
        )
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
        self.send_header("Content-Length", str(10 * 2**20))
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
            outcome = webhooks.post(
                f"http://127.0.0.1:{server.server_address[1]}/", "secret", 1, {}, deadline_seconds=5
            )
    finally:
        server.shutdown()
        server.server_close()
    assert (outcome.ok, outcome.status_code, outcome.error) == (True, 200, "")
    assert BigBody.sent < 10 * 2**20  # the connection was closed under it


# ---------------------------------------------------------------------------------------------
# The mail server: one email within EMAIL_DEADLINE_SECONDS
# ---------------------------------------------------------------------------------------------
def through(port: int, **extra):
    """Mail through the project's SMTP backend to a server of the test's on 127.0.0.1."""
    return override_settings(
        EMAIL_BACKEND="accounts.mail.SMTPBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=port,
        **{"EMAIL_TIMEOUT": 5, **extra},
    )


@pytest.mark.parametrize("mode", ["trickle", "hang"])
def test_a_mail_server_that_trickles_or_hangs_is_cut_at_the_email_s_deadline(mode):
    """A greeting trickled a byte a second: every read succeeds within EMAIL_TIMEOUT, so only a
    deadline on the whole message ends it."""
    server = MailTarpit(mode)
    try:
        with through(server.port, EMAIL_DEADLINE_SECONDS=1.5), pytest.raises(TimeoutError) as cut:
            over_within(
                10,
                lambda: send_mail("subject", "body", None, ["bob@example.com"]),
                f"an email to a mail server that {mode}s",
            )
    finally:
        server.close()
    assert str(cut.value) == "no answer within the 1.5 s deadline"
    assert server.messages == []


def test_a_mail_server_that_answers_sends_the_message_through_the_same_backend():
    server = MailTarpit("accept")
    try:
        with through(server.port, EMAIL_DEADLINE_SECONDS=5):
            assert send_mail("subject", "body", None, ["bob@example.com"]) == 1
    finally:
        server.close()
    assert [(to, b"Subject: subject" in body) for to, body in server.messages] == [(["bob@example.com"], True)]


def test_a_mail_server_trickling_once_the_connection_is_tls_is_cut_at_the_deadline_too(monkeypatch, tmp_path):
    """STARTTLS replaces the socket smtplib reads from: the deadline still ends the connection."""
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))  # OpenSSL's own: trust the test's CA
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = listener.accept()
        lines = conn.makefile("rb")
        conn.sendall(b"220 hello\r\n")
        for answer in (b"250-hello\r\n250 STARTTLS\r\n", b"220 go ahead\r\n"):  # to EHLO, STARTTLS
            lines.readline()
            conn.sendall(answer)
        tls = context.wrap_socket(conn, server_side=True)
        tls.makefile("rb").readline()  # EHLO again, now over TLS: answered a byte a second
        for byte in b"250 hello again\r\n" * 10:
            time.sleep(1)
            try:
                tls.sendall(bytes([byte]))
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    try:
        with (
            through(listener.getsockname()[1], EMAIL_USE_TLS=True, EMAIL_DEADLINE_SECONDS=2.5),
            pytest.raises(TimeoutError) as cut,
        ):
            over_within(
                12,
                lambda: send_mail("subject", "body", None, ["bob@example.com"]),
                "an email to a mail server trickling over TLS",
            )
    finally:
        listener.close()
    assert str(cut.value) == "no answer within the 2.5 s deadline"


def test_each_outside_party_s_deadline_is_under_its_queue_s_time_limits_and_its_lease():
    for queue, deadline in (
        ("webhooks", settings.WEBHOOK_DEADLINE_SECONDS),
        ("email", settings.EMAIL_DEADLINE_SECONDS),
    ):
        limits = settings.TASK_QUEUES[queue]
        assert deadline < limits["soft"] < limits["hard"], queue
        assert deliveries.lease(deadline) > timedelta(seconds=deadline), queue


@pytest.mark.django_db(transaction=True)
def test_an_email_cut_at_its_deadline_is_retried_with_backoff_and_sent_once(alice, bob, duel, queue):
    """The first connection trickles its greeting, the next one takes the message. While the first
    attempt is held, its lease keeps the sweeper and any other task from sending it again; cut at
    its deadline, it is retried after the backoff, and the message arrives once."""
    server = MailTarpit("trickle", "accept")
    delivery = email_for_bob(alice, bob, duel)
    queue()

    def deliver():
        try:
            tasks.deliver_email(bob.user.pk)
        finally:
            connection.close()

    try:
        with through(server.port, EMAIL_DEADLINE_SECONDS=2):
            started = timezone.now()
            first = threading.Thread(target=deliver)
            first.start()
            assert wait_for(lambda: server.connections == 1, timeout=10)
            assert tasks._sweep()["deliveries"] == 0  # leased: not resent while it is live
            tasks.deliver_email(bob.user.pk)  # a stray task for the same user sends nothing either
            first.join(12)
            assert not first.is_alive(), "the first attempt still held 12 s on: nothing cut it at its 2 s deadline"
            ended = timezone.now()
            delivery.refresh_from_db()
            assert (delivery.status, delivery.attempts, delivery.last_error) == (
                "pending",
                1,
                "no answer within the 2 s deadline",
            )
            backoff = timedelta(seconds=settings.WEBHOOK_RETRY_BASE_SECONDS)
            assert started + backoff <= delivery.next_attempt_at <= ended + backoff
            assert queue() == [("games.tasks.deliver_email", [bob.user.pk], delivery.next_attempt_at)]
            assert wait_for(lambda: timezone.now() >= delivery.next_attempt_at, timeout=10)
            tasks.deliver_email(bob.user.pk)  # the retry
    finally:
        server.close()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    assert DeliveryAttempt.objects.filter(delivery=delivery, ok=True).count() == 1
    assert [to for to, _ in server.messages] == [["bob@example.com"]]
    assert server.connections == 2


# ---------------------------------------------------------------------------------------------
# No lock or transaction across the network; leases
# ---------------------------------------------------------------------------------------------
def _plain_url() -> str:
    db = connection.settings_dict
    return f"postgresql://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    settings.DATABASE_PGBOUNCER,
    reason="it follows its connection's backend by pid, which a pooler in "
    "transaction mode changes between transactions",
)
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
                seen["state"] = other.execute(
                    "SELECT state FROM pg_stat_activity WHERE pid = %s", [seen["pid"]]
                ).fetchone()[0]
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
        Delivery.objects.filter(pk=delivery.pk).update(
            attempts=settings.WEBHOOK_MAX_ATTEMPTS, next_attempt_at=timezone.now()
        )
        tasks.deliver_webhook(delivery.pk)
    finally:
        receiver.close()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == (
        "failed",
        settings.WEBHOOK_MAX_ATTEMPTS,
        "the last attempt never finished",
    )
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
