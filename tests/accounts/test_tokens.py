"""Tokens: one per device, stored hashed, expiring, listed and revoked by their owner; logout; the
DRF tokens of before keep working once migrated; logins throttled per account."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import AuthToken

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


def login(username, device=None, **extra):
    body = {"username": username, "password": PASSWORD, **({"device": device} if device else {})}
    return APIClient().post("/api/v1/accounts/token/", body, format="json", **extra)


def client_with(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_each_device_gets_its_own_token_stored_only_as_a_digest(alice):
    phone = login("alice", "phone").json()
    laptop = login("alice", "laptop").json()
    assert phone["token"] != laptop["token"] and phone["expires_at"]
    for key in (phone["token"], laptop["token"], alice.token):
        assert client_with(key).get("/api/v1/accounts/me/").status_code == 200
        row = AuthToken.objects.get(digest=tokens.digest(key))
        assert key not in (row.digest, row.prefix) and row.prefix == key[:8]
    listed = client_with(phone["token"]).get("/api/v1/accounts/tokens/").json()
    assert sorted(t["device"] for t in listed) == ["", "laptop", "phone"]
    assert [t["device"] for t in listed if t["current"]] == ["phone"]
    assert all("token" not in t and len(t["prefix"]) == 8 for t in listed)


def test_logging_in_again_on_a_device_replaces_its_token(alice):
    first = login("alice", "phone").json()["token"]
    second = login("alice", "phone").json()["token"]
    assert client_with(first).get("/api/v1/accounts/me/").status_code == 401
    assert client_with(second).get("/api/v1/accounts/me/").status_code == 200
    assert AuthToken.objects.filter(user=alice.user, device="phone").count() == 1


def test_the_device_defaults_to_the_user_agent(alice):
    login("alice", HTTP_USER_AGENT="DarkroomApp/2.1")
    assert AuthToken.objects.filter(user=alice.user, device="DarkroomApp/2.1").exists()


def test_a_revoked_token_is_refused_and_only_its_owner_can_revoke_it(alice, bob):
    phone = login("alice", "phone").json()
    assert bob.client.delete(f"/api/v1/accounts/tokens/{phone['id']}/").status_code == 404  # not bob's
    assert client_with(phone["token"]).get("/api/v1/accounts/me/").status_code == 200
    assert alice.client.delete(f"/api/v1/accounts/tokens/{phone['id']}/").status_code == 204
    refused = client_with(phone["token"]).get("/api/v1/accounts/me/")
    assert (refused.status_code, refused.json()["code"]) == (401, "authentication_failed")
    assert alice.client.delete(f"/api/v1/accounts/tokens/{phone['id']}/").json()["code"] == "not_found"


def test_logout_revokes_the_token_of_the_request_only(alice):
    phone = login("alice", "phone").json()["token"]
    assert client_with(phone).post("/api/v1/accounts/logout/").status_code == 204
    assert client_with(phone).get("/api/v1/accounts/me/").status_code == 401
    assert alice.get("/api/v1/accounts/me/").status_code == 200
    assert APIClient().post("/api/v1/accounts/logout/").status_code == 401


def test_an_expired_token_is_refused_and_use_moves_the_expiry_on(alice):
    row = AuthToken.objects.get(digest=tokens.digest(alice.token))
    AuthToken.objects.filter(pk=row.pk).update(last_used_at=timezone.now() - timedelta(hours=1))
    assert alice.get("/api/v1/accounts/me/").status_code == 200
    moved = AuthToken.objects.get(pk=row.pk)
    assert moved.expires_at > row.expires_at and moved.last_used_at > row.last_used_at
    AuthToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert alice.get("/api/v1/accounts/me/").status_code == 401


@override_settings(TOKENS_PER_USER=2)
def test_a_user_keeps_at_most_tokens_per_user_the_least_recently_used_go(alice):
    first = login("alice", "one").json()["token"]
    login("alice", "two")
    assert AuthToken.objects.filter(user=alice.user).count() == 2
    assert client_with(first).get("/api/v1/accounts/me/").status_code == 200  # the newest two stay
    assert client_with(alice.token).get("/api/v1/accounts/me/").status_code == 401


def test_tokens_of_before_are_hashed_by_the_migration_and_keep_working(alice):
    from rest_framework.authtoken.models import Token

    legacy = Token.objects.create(user=alice.user)
    migration = importlib.import_module("accounts.migrations.0004_ratings_and_tokens")
    migration.hash_legacy_tokens(apps, None)
    assert not Token.objects.exists()  # no plain key is kept
    me = client_with(legacy.key).get("/api/v1/accounts/me/")
    assert me.status_code == 200 and me.json()["username"] == "alice"


@pytest.mark.parametrize(
    "body", [{}, {"username": "alice"}, {"username": "alice", "password": PASSWORD, "device": "x" * 101}]
)
def test_bad_login_bodies_are_400_and_issue_nothing(alice, body):
    before = AuthToken.objects.count()
    response = APIClient().post("/api/v1/accounts/token/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert AuthToken.objects.count() == before


def test_wrong_logins_are_throttled_per_account_whatever_the_address(alice, bob):
    cache.clear()
    try:
        with override_settings(THROTTLE_LOGIN_ACCOUNT="3/min"):
            codes = [
                APIClient()
                .post(
                    "/api/v1/accounts/token/",
                    {"username": "alice", "password": "guess"},
                    format="json",
                    REMOTE_ADDR=f"10.0.0.{n}",
                )
                .status_code
                for n in range(3)
            ]
            assert codes == [400, 400, 400]
            throttled = login("ALICE", REMOTE_ADDR="10.0.0.9")
            assert (throttled.status_code, throttled.json()["code"]) == (429, "throttled")
            assert int(throttled["Retry-After"]) >= 1
            assert login("bob", REMOTE_ADDR="10.0.0.9").status_code == 200  # another account is not
    finally:
        cache.clear()


def test_the_token_list_needs_a_login(anonymous):
    assert anonymous.get("/api/v1/accounts/tokens/").status_code == 401
    assert anonymous.delete("/api/v1/accounts/tokens/1/").status_code == 401
