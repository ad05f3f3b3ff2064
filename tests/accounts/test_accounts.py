"""Accounts: register, token, me; Django's password validators; clear errors."""

import pytest

pytestmark = pytest.mark.django_db

from accounts.models import User


def test_register_returns_a_token_that_authenticates(anonymous):
    response = anonymous.post(
        "/api/v1/accounts/register/",
        {"username": "dora", "password": "a fine long passphrase", "email": "d@e.org"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "dora" and body["token"]
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = anonymous.get("/api/v1/accounts/me/").json()
    assert me["username"] == "dora" and me["email"] == "d@e.org" and me["id"] == body["id"]


def test_token_for_the_right_password_and_a_clear_error_otherwise(alice, anonymous):
    good = anonymous.post(
        "/api/v1/accounts/token/", {"username": "alice", "password": "correct horse battery"}, format="json"
    )
    # One token per device: logging in gives a new one, and the one from registering still works.
    assert good.status_code == 200 and good.json()["token"] != alice.token
    for token in (good.json()["token"], alice.token):
        anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert anonymous.get("/api/v1/accounts/me/").json()["username"] == "alice"
    anonymous.credentials()
    bad = anonymous.post("/api/v1/accounts/token/", {"username": "alice", "password": "nope"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "bad_credentials")


@pytest.mark.parametrize("password", ["short", "password123", "12345678901", "dorothea1"])
def test_weak_passwords_are_refused_by_djangos_validators(anonymous, password):
    response = anonymous.post(
        "/api/v1/accounts/register/", {"username": "dorothea", "password": password}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "password" in response.json()["detail"]
    assert not User.objects.filter(username="dorothea").exists()


def test_a_taken_username_is_409_whatever_its_case(alice, anonymous):
    response = anonymous.post(
        "/api/v1/accounts/register/", {"username": "ALICE", "password": "another fine passphrase"}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (409, "username_taken")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"username": "x y", "password": "a fine long passphrase"},
        {"username": "eve", "password": "a fine long passphrase", "email": "not-mail"},
    ],
)
def test_bad_registrations_are_400_invalid(anonymous, body):
    response = anonymous.post("/api/v1/accounts/register/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert User.objects.count() == 0


def test_a_wrong_token_is_401(anonymous):
    anonymous.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = anonymous.get("/api/v1/accounts/me/")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")


def test_the_user_model_is_our_own():
    from django.contrib.auth import get_user_model

    assert get_user_model() is User and User._meta.app_label == "accounts"
