"""A mail server trickling its greeting a byte a second: tests/faults/scenario.py."""

from __future__ import annotations

from collections import Counter

from games.models import Delivery
from tests.conftest import start_game
from tests.faults import figures
from tests.faults.scenario import (
    CLOCKED,
    MARKS,
    PLAYS,
    SCALE,
    all_over,
    assert_written_once,
)
from tests.faults.stack.procfile import Stack, stack_env
from tests.faults.stack.receivers import MailTarpit
from tests.worker import wait_for

pytestmark = MARKS
# Connections the mail server trickles before it answers: fewer than WEBHOOK_MAX_ATTEMPTS (3 in
# the tests), so every email is sent in the end, some only after an attempt was cut.
TRICKLED = 2


def test_a_mail_server_trickling_its_greeting_delays_no_clock_and_doubles_no_email(make_player):
    """Players told of everything by email at once; the mail server's first connections get its
    greeting a byte a second. Those attempts hold outbound slots until EMAIL_DEADLINE_SECONDS cuts
    them, each inside its lease, so nothing sends them again meanwhile; they are retried with
    backoff. Every clock fires once all the same, and every email arrives exactly once."""
    server = MailTarpit(*["trickle"] * TRICKLED, "accept")
    stack = Stack(
        stack_env(
            TEST_WORKER_EMAIL_BACKEND="accounts.mail.SMTPBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(server.port),
            EMAIL_DEADLINE_SECONDS="2",
        )
    )
    try:
        players = [make_player() for _ in range(4 * SCALE)]
        for player in players:
            answer = player.client.put("/api/v1/accounts/preferences/", {"email_digest_minutes": 0}, format="json")
            assert answer.status_code == 200, answer.content
        stack.start()
        games = [start_game(players[i], [players[i + 1]], options=CLOCKED) for i in range(0, len(players), 2)]
        assert wait_for(lambda: all_over(games), timeout=120), stack.logs()
        emails = Delivery.objects.filter(notification__user__in=[p.user for p in players], channel="email")
        assert wait_for(lambda: not emails.filter(status=Delivery.Status.PENDING).exists(), timeout=120), stack.logs()
        assert stack.dead() == [], stack.logs()
        assert_written_once(games)
        # None lost: every email sent, some of them after an attempt cut at its deadline.
        assert set(emails.values_list("status", flat=True)) == {Delivery.Status.SENT}
        retried = emails.filter(attempts__gt=1)
        assert retried.exists() and set(retried.values_list("last_error", flat=True)) == {
            "no answer within the 2 s deadline"
        }
        # None doubled: the server took one message per send recorded (a digest's notices share
        # theirs), to its player, and no connection besides the trickled ones and those.
        sends = Counter(
            f"{user}@example.com"
            for user, _ in emails.values_list("notification__user__username", "sent_at").distinct()
        )
        assert Counter(to for recipients, _ in server.messages for to in recipients) == sends
        assert server.connections == TRICKLED + sum(sends.values())
        figures.record(
            "a mail server trickling its greeting",
            games,
            clocks=PLAYS,
            note=f"{sum(sends.values())} emails, {retried.count()} notices sent after a cut attempt",
        )
    finally:
        stack.stop()
        server.close()
