"""The outbox's promises on the paths that fail: a crash after commit loses nothing (the sweeper
sends what is still pending), email to a user with no address or through a broken mail server,
and a webhook that answers with a redirect."""

import socket

from django.test import override_settings
from django.utils import timezone

from games import tasks
from games.models import Delivery
from tests.games.test_webhooks import Receiver, bob_gets_a_turn, register


def email_for_bob(alice, bob, duel):
    bob.client.put(
        "/api/v1/accounts/preferences/",
        {"email_digest_minutes": 0, "channels": {"your_turn": ["inbox", "email"]}},
        format="json",
    )
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    return Delivery.objects.get(channel="email", notification__user=bob.user)


def test_an_email_to_a_user_without_an_address_fails_once_and_is_not_retried(alice, bob, duel, mailoutbox):
    delivery = email_for_bob(alice, bob, duel)
    type(bob.user).objects.filter(pk=bob.user.pk).update(email="")
    tasks.deliver_email(bob.user.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("failed", "no email address")
    assert mailoutbox == []


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_mail_server_failure_is_retried_later_not_lost(alice, bob, duel):
    delivery = email_for_bob(alice, bob, duel)
    with override_settings(
        EMAIL_BACKEND="accounts.mail.SMTPBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=closed_port(), EMAIL_TIMEOUT=2
    ):
        tasks.deliver_email(bob.user.pk)
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.attempts == 1 and delivery.last_error
    assert delivery.next_attempt_at > timezone.now()


class Redirector(Receiver):
    """Answers every POST with 307 to `location` (307 keeps the method and body: a client that
    followed it would POST the notification to the target)."""

    def __init__(self, location):
        super().__init__(status=307)
        handler = self.server.RequestHandlerClass
        original = handler.end_headers

        def end_headers(request_handler):
            request_handler.send_header("Location", location)
            original(request_handler)

        handler.end_headers = end_headers


def test_a_webhook_redirect_is_an_answer_not_a_hop(alice, bob, duel):
    target = Receiver()
    redirector = Redirector(target.url)
    try:
        register(bob, redirector.url)
        delivery = bob_gets_a_turn(alice, duel)
        tasks.deliver_webhook(delivery.pk)
        delivery.refresh_from_db()
        assert len(redirector.requests) == 1 and target.requests == []
        assert delivery.status == "pending" and delivery.attempt_log.get().status_code == 307
    finally:
        target.close()
        redirector.close()


def test_the_webhook_signature_matches_a_vector_computed_elsewhere():
    """HMAC-SHA256("s3cret", '1700000000.{"a":1}'), computed with openssl dgst -sha256 -hmac."""
    from accounts.webhooks import sign

    assert (
        sign("s3cret", "1700000000", b'{"a":1}')
        == "sha256=1698a50bc74d1ff1db85c4e0a5297c2ad9fdba245d5737cdb789e4cc6e098940"
    )


def test_the_sweeper_puts_a_pending_delivery_back_on_the_queue(alice, bob, duel):
    """The same promise without a worker: what the sweeper enqueues is exactly the lost delivery."""
    from tests.worker import purge_queue

    receiver = Receiver()
    try:
        register(bob, receiver.url)
        purge_queue()
        bob_gets_a_turn(alice, duel)  # in this test's transaction: its after-commit enqueue never runs
        assert purge_queue() == 0
        tasks.sweep()
        assert purge_queue() == 1
    finally:
        receiver.close()
        purge_queue()
