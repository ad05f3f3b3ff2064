"""Guests: one click on the front page makes an account with no name to choose and no password;
it plays like anyone, and registering it keeps its games. Guests one address may make are limited."""

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from accounts.models import User

GUEST = "/api/v1/accounts/guest/"


def guest():
    client = APIClient()
    made = client.post(GUEST, {"device": "front page"}, format="json")
    assert made.status_code == 201, made.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    return client, made.json()


@pytest.mark.django_db
def test_a_guest_plays_the_computer_at_once_and_keeps_the_game_when_it_registers():
    client, made = guest()
    me = client.get("/api/v1/accounts/me/").json()
    assert me["is_guest"] is True and me["username"] == made["username"] and me["username"].startswith("guest-")
    game = client.post("/api/v1/games/", {"kind": "duel", "seats": 2, "bots": [1]}, format="json").json()
    assert game["status"] == "active"
    kept = client.post(
        "/api/v1/accounts/guest/register/", {"username": "newcomer", "password": "correct horse battery"}, format="json"
    )
    assert kept.status_code == 200, kept.content
    assert kept.json()["username"] == "newcomer" and kept.json()["is_guest"] is False
    # The same account: the token still works, the game is still theirs, the password logs in.
    mine = client.get("/api/v1/games/?mine=true").json()["results"]
    assert [g["id"] for g in mine] == [game["id"]]
    assert User.objects.get(username="newcomer").pk == made["id"]
    login = APIClient().post(
        "/api/v1/accounts/token/", {"username": "newcomer", "password": "correct horse battery"}, format="json"
    )
    assert login.status_code == 200


@pytest.mark.django_db
def test_a_guest_has_no_password_to_guess():
    _, made = guest()
    login = APIClient().post("/api/v1/accounts/token/", {"username": made["username"], "password": ""}, format="json")
    assert login.status_code == 400
    assert not User.objects.get(pk=made["id"]).has_usable_password()


@pytest.mark.django_db
def test_registering_twice_or_as_a_registered_player_is_refused(alice):
    refused = alice.post("/api/v1/accounts/guest/register/", {"username": "other", "password": "correct horse battery"})
    assert refused.status_code == 409 and refused.json()["code"] == "not_a_guest"
    assert User.objects.get(pk=alice.user.pk).username == "alice"


@pytest.mark.django_db
def test_a_guest_registering_a_taken_or_guest_like_name_or_weak_password_keeps_its_guest_account(alice):
    client, made = guest()
    for body, code in [
        ({"username": "alice", "password": "correct horse battery"}, "username_taken"),
        ({"username": "Guest-abc", "password": "correct horse battery"}, "username_taken"),
        ({"username": "fresh", "password": "1"}, "invalid"),
    ]:
        refused = client.post("/api/v1/accounts/guest/register/", body, format="json")
        assert refused.json()["code"] == code, refused.content
    user = User.objects.get(pk=made["id"])
    assert user.is_guest and user.username == made["username"]


@pytest.mark.django_db
def test_nobody_registers_a_guest_name(anonymous):
    refused = anonymous.post(
        "/api/v1/accounts/register/", {"username": "guest-1234", "password": "correct horse battery"}, format="json"
    )
    assert refused.status_code == 409


@pytest.mark.django_db
def test_a_guest_is_held_to_the_per_user_limits(settings):
    client, _ = guest()
    game = client.post("/api/v1/games/", {"kind": "duel", "seats": 2, "bots": [1]}, format="json").json()
    settings.CHAT_RATE_COUNT = 2
    said = [
        client.post(
            f"/api/v1/games/{game['id']}/chat/", {"channel": "players", "text": f"hello {n}"}, format="json"
        ).status_code
        for n in range(3)
    ]
    assert said == [201, 201, 429]


@pytest.mark.django_db
def test_one_address_makes_a_limited_number_of_guests():
    with override_settings(THROTTLE_GUEST_ADDRESS="2/hour"):
        client = APIClient(REMOTE_ADDR="203.0.113.9")
        assert [client.post(GUEST, {}, format="json").status_code for _ in range(3)] == [201, 201, 429]
        refused = client.post(GUEST, {}, format="json")
        assert refused.json()["code"] == "throttled" and int(refused["Retry-After"]) > 0
        # Another address is not held back by that one.
        assert APIClient(REMOTE_ADDR="203.0.113.10").post(GUEST, {}, format="json").status_code == 201
    assert User.objects.filter(is_guest=True).count() == 3
