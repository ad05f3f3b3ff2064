"""Password change and reset by email (Django's token generator)."""

from __future__ import annotations

import re
import socket
import threading

import pytest
from django.core import mail
from django.test import override_settings
from rest_framework.test import APIClient

from accounts import services, tasks
from accounts.models import AuthToken, User
from config import scheduling

pytestmark = pytest.mark.django_db
OLD, NEW = "correct horse battery", "a brand new passphrase"


def login(username, password):
    return APIClient().post("/api/v1/accounts/token/", {"username": username, "password": password}, format="json")


def test_a_password_change_keeps_this_token_and_revokes_the_others(alice):
    other = login("alice", OLD).json()["token"]
    answer = alice.post("/api/v1/accounts/password/", {"old_password": OLD, "new_password": NEW})
    assert answer.status_code == 204
    assert alice.get("/api/v1/accounts/me/").status_code == 200
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {other}")
    assert stale.get("/api/v1/accounts/me/").status_code == 401
    assert login("alice", OLD).status_code == 400 and login("alice", NEW).status_code == 200


@pytest.mark.parametrize(
    "body, code",
    [
        ({"old_password": "wrong one", "new_password": NEW}, "bad_credentials"),
        ({"old_password": OLD, "new_password": "short"}, "invalid"),
        ({"old_password": OLD, "new_password": "password123"}, "invalid"),
        ({"old_password": OLD}, "invalid"),
        ({"old_password": OLD, "new_password": 7}, "invalid"),
    ],
)
def test_a_bad_password_change_is_400_and_changes_nothing(alice, body, code):
    tokens = AuthToken.objects.count()
    answer = alice.post("/api/v1/accounts/password/", body)
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert login("alice", OLD).status_code == 200
    assert AuthToken.objects.count() == tokens + 1  # only the login just made


def test_a_password_change_needs_a_login(anonymous):
    answer = anonymous.post("/api/v1/accounts/password/", {"old_password": OLD, "new_password": NEW}, format="json")
    assert answer.status_code == 401


def mailed(queue):
    """Run the reset mails the requests queued, as the worker would (tests/accounts/
    test_reset_worker.py has a real one do it)."""
    for name, args, eta in queue():
        assert (name, eta) == (services.RESET_MAIL_TASK, None)
        tasks.mail_password_reset(*args)


def reset_link(email, queue):
    mailed(queue)
    body = mail.outbox[-1].body
    assert mail.outbox[-1].to == [email]
    return re.search(r"uid (\S+), token (\S+)\)", body).groups()


def test_a_reset_by_email_sets_the_password_and_revokes_every_token(alice, anonymous, queue):
    answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "ALICE@example.com"}, format="json")
    assert answer.status_code == 202
    uid, token = reset_link("alice@example.com", queue)
    assert len(mail.outbox) == 1
    done = anonymous.post(
        "/api/v1/accounts/password-reset/confirm/", {"uid": uid, "token": token, "new_password": NEW}, format="json"
    )
    assert done.status_code == 204
    assert alice.get("/api/v1/accounts/me/").status_code == 401  # whoever had the password is out
    assert login("alice", NEW).status_code == 200
    again = anonymous.post(
        "/api/v1/accounts/password-reset/confirm/",
        {"uid": uid, "token": token, "new_password": "yet another passphrase"},
        format="json",
    )
    assert (again.status_code, again.json()["code"]) == (400, "invalid_reset_link")  # used once


def test_a_reset_request_answers_the_same_for_an_unknown_address(anonymous, alice, queue):
    known = anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
    unknown = anonymous.post("/api/v1/accounts/password-reset/", {"email": "nobody@example.com"}, format="json")
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    mailed(queue)
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_a_reset_request_does_the_same_work_for_an_unknown_address(anonymous, alice, queue, django_assert_num_queries):
    # Not one query, nothing mailed: the answer's time cannot tell a known address from another.
    for email in ("alice@example.com", "nobody@example.com"):
        with django_assert_num_queries(0):
            answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": email}, format="json")
        assert answer.status_code == 202
    assert mail.outbox == []
    assert queue() == [
        (services.RESET_MAIL_TASK, ["alice@example.com"], None),
        (services.RESET_MAIL_TASK, ["nobody@example.com"], None),
    ]


def test_an_address_gets_one_reset_mail_per_interval_however_many_ask(anonymous, alice, queue, settings):
    settings.PASSWORD_RESET_MAIL_INTERVAL_SECONDS = 60
    answers = [
        anonymous.post("/api/v1/accounts/password-reset/", {"email": email}, format="json")
        for email in (
            "alice@example.com",
            "ALICE@example.com",
            "alice@example.com",
            "nobody@example.com",
            "nobody@example.com",
        )
    ]
    assert {(a.status_code, a.content) for a in answers} == {(202, answers[0].content)}  # all alike
    assert queue() == [
        (services.RESET_MAIL_TASK, ["alice@example.com"], None),
        (services.RESET_MAIL_TASK, ["nobody@example.com"], None),
    ]


def test_with_the_broker_away_the_reset_mail_goes_with_the_request(anonymous, alice, queue, monkeypatch):
    # scheduling.send's own failures (logged, False) are tested with real ones in
    # tests/games/test_scheduling_behaviour.py; here only what the reset does then.
    monkeypatch.setattr(scheduling, "send", lambda name, args, eta=None: False)
    answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
    assert answer.status_code == 202
    assert [m.to for m in mail.outbox] == [["alice@example.com"]] and queue() == []


def test_with_the_broker_and_the_mail_server_away_a_reset_request_still_answers(anonymous, alice, queue, monkeypatch):
    monkeypatch.setattr(scheduling, "send", lambda name, args, eta=None: False)
    with socket.socket() as nobody:  # a port nothing listens on: refused at once
        nobody.bind(("127.0.0.1", 0))
        port = nobody.getsockname()[1]
    with override_settings(
        EMAIL_BACKEND="accounts.mail.SMTPBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=port, EMAIL_TIMEOUT=2
    ):
        answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
    assert answer.status_code == 202


class HangingUp:
    """A mail server that takes each connection and hangs up at once, counting them."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port, self.connections = self.sock.getsockname()[1], 0
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()


def test_the_workers_reset_mail_is_tried_again_when_the_mail_server_fails(alice):
    server = HangingUp()
    try:
        with override_settings(
            EMAIL_BACKEND="accounts.mail.SMTPBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=server.port, EMAIL_TIMEOUT=2
        ):
            # Run as the worker runs it (eagerly here, so the retries' waits are skipped).
            result = tasks.mail_password_reset.apply(args=["alice@example.com"])
    finally:
        server.sock.close()
    assert result.failed() and mail.outbox == []
    assert server.connections == 1 + tasks.mail_password_reset.max_retries


@pytest.mark.parametrize(
    "body, code",
    [
        ({"uid": "MQ", "token": "nope", "new_password": NEW}, "invalid_reset_link"),
        ({"uid": "!!!", "token": "nope", "new_password": NEW}, "invalid_reset_link"),
        ({"uid": "OTk5OTk5", "token": "nope", "new_password": NEW}, "invalid_reset_link"),
        ({"uid": "MQ"}, "invalid"),
    ],
)
def test_a_bad_reset_link_is_400_and_changes_nothing(alice, anonymous, body, code):
    answer = anonymous.post("/api/v1/accounts/password-reset/confirm/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert login("alice", OLD).status_code == 200


def test_a_weak_new_password_keeps_the_link_usable(alice, anonymous, queue):
    anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
    uid, token = reset_link("alice@example.com", queue)
    weak = anonymous.post(
        "/api/v1/accounts/password-reset/confirm/", {"uid": uid, "token": token, "new_password": "123"}, format="json"
    )
    assert (weak.status_code, weak.json()["code"]) == (400, "invalid")
    assert User.objects.get(pk=alice.user.pk).check_password(OLD)
    strong = anonymous.post(
        "/api/v1/accounts/password-reset/confirm/", {"uid": uid, "token": token, "new_password": NEW}, format="json"
    )
    assert strong.status_code == 204


def test_a_reset_request_needs_an_email(anonymous):
    answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "not an email"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
