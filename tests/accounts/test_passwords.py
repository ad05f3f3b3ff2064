"""Password change and reset by email (Django's token generator)."""
from __future__ import annotations

import re

import pytest
from django.core import mail
from rest_framework.test import APIClient

from accounts.models import AuthToken, User

pytestmark = pytest.mark.django_db
OLD, NEW = "correct horse battery", "a brand new passphrase"


def login(username, password):
    return APIClient().post("/api/v1/accounts/token/", {"username": username, "password": password},
                            format="json")


def test_a_password_change_keeps_this_token_and_revokes_the_others(alice):
    other = login("alice", OLD).json()["token"]
    answer = alice.post("/api/v1/accounts/password/", {"old_password": OLD, "new_password": NEW})
    assert answer.status_code == 204
    assert alice.get("/api/v1/accounts/me/").status_code == 200
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {other}")
    assert stale.get("/api/v1/accounts/me/").status_code == 401
    assert login("alice", OLD).status_code == 400 and login("alice", NEW).status_code == 200


@pytest.mark.parametrize("body, code", [
    ({"old_password": "wrong one", "new_password": NEW}, "bad_credentials"),
    ({"old_password": OLD, "new_password": "short"}, "invalid"),
    ({"old_password": OLD, "new_password": "password123"}, "invalid"),
    ({"old_password": OLD}, "invalid"),
    ({"old_password": OLD, "new_password": 7}, "invalid"),
])
def test_a_bad_password_change_is_400_and_changes_nothing(alice, body, code):
    tokens = AuthToken.objects.count()
    answer = alice.post("/api/v1/accounts/password/", body)
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert login("alice", OLD).status_code == 200
    assert AuthToken.objects.count() == tokens + 1  # only the login just made


def test_a_password_change_needs_a_login(anonymous):
    answer = anonymous.post("/api/v1/accounts/password/", {"old_password": OLD, "new_password": NEW}, format="json")
    assert answer.status_code == 401


def reset_link(email):
    body = mail.outbox[-1].body
    assert mail.outbox[-1].to == [email]
    return re.search(r"uid (\S+), token (\S+)\)", body).groups()


def test_a_reset_by_email_sets_the_password_and_revokes_every_token(alice, anonymous):
    answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "ALICE@example.com"}, format="json")
    assert answer.status_code == 202 and len(mail.outbox) == 1
    uid, token = reset_link("alice@example.com")
    done = anonymous.post("/api/v1/accounts/password-reset/confirm/",
                          {"uid": uid, "token": token, "new_password": NEW}, format="json")
    assert done.status_code == 204
    assert alice.get("/api/v1/accounts/me/").status_code == 401  # whoever had the password is out
    assert login("alice", NEW).status_code == 200
    again = anonymous.post("/api/v1/accounts/password-reset/confirm/",
                           {"uid": uid, "token": token, "new_password": "yet another passphrase"}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "invalid_reset_link")  # used once


def test_a_reset_request_answers_the_same_for_an_unknown_address(anonymous, alice):
    known = anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
    unknown = anonymous.post("/api/v1/accounts/password-reset/", {"email": "nobody@example.com"}, format="json")
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


@pytest.mark.parametrize("body, code", [
    ({"uid": "MQ", "token": "nope", "new_password": NEW}, "invalid_reset_link"),
    ({"uid": "!!!", "token": "nope", "new_password": NEW}, "invalid_reset_link"),
    ({"uid": "OTk5OTk5", "token": "nope", "new_password": NEW}, "invalid_reset_link"),
    ({"uid": "MQ"}, "invalid"),
])
def test_a_bad_reset_link_is_400_and_changes_nothing(alice, anonymous, body, code):
    answer = anonymous.post("/api/v1/accounts/password-reset/confirm/", body, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, code)
    assert login("alice", OLD).status_code == 200


def test_a_weak_new_password_keeps_the_link_usable(alice, anonymous):
    anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
    uid, token = reset_link("alice@example.com")
    weak = anonymous.post("/api/v1/accounts/password-reset/confirm/",
                          {"uid": uid, "token": token, "new_password": "123"}, format="json")
    assert (weak.status_code, weak.json()["code"]) == (400, "invalid")
    assert User.objects.get(pk=alice.user.pk).check_password(OLD)
    strong = anonymous.post("/api/v1/accounts/password-reset/confirm/",
                            {"uid": uid, "token": token, "new_password": NEW}, format="json")
    assert strong.status_code == 204


def test_a_reset_request_needs_an_email(anonymous):
    answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "not an email"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid")
