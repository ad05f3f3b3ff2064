"""Accounts under abuse (docs/accounts.md): what a deleted account leaves, look-alike
usernames, what a device is, and the login limits."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import AuthToken, User
from tests.accounts.test_ratings import play_out
from tests.api.test_errors import error_of
from tests.conftest import start_game

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


def register(name: str):
    return Client().post(
        "/api/v1/accounts/register/", {"username": name, "password": PASSWORD}, content_type="application/json"
    )


# ---------------------------------------------------------------------------------------------
# What a deleted account leaves (#1)
# ---------------------------------------------------------------------------------------------
def test_a_deleted_account_reads_deleted_n_in_old_events_and_its_name_rests(alice, bob):
    game_id = start_game(alice, [bob], options={"hand_size": 1})
    said = bob.post(f"/api/v1/games/{game_id}/chat/", {"channel": "players", "text": "good luck"})
    assert said.status_code == 201
    play_out(game_id, [alice, bob])
    assert [n["title"] for n in alice.get("/api/v1/notifications/").json()["results"] if n["type"] == "chat"] == [
        "bob wrote in Duel (test game)"
    ]
    assert bob.post("/api/v1/accounts/me/delete/", {"password": PASSWORD}).status_code == 204

    events = alice.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    joined = [e["data"] for e in events if e["type"] == "PlayerJoined"]
    started = next(e["data"] for e in events if e["type"] == "GameStarted")
    gone = f"deleted-{bob.user.pk}"
    assert {d["user"]: d["username"] for d in joined} == {alice.user.pk: "alice", bob.user.pk: gone}
    assert {p["user"]: p["username"] for p in started["players"]} == {alice.user.pk: "alice", bob.user.pk: gone}
    assert "bob" not in str(alice.get(f"/api/v1/games/{game_id}/events/").content)
    assert [p["username"] for p in alice.game(game_id)["players"]] == ["alice", gone]
    notices = alice.get("/api/v1/notifications/").json()["results"]
    assert [n["title"] for n in notices if n["type"] == "chat"] == [f"{gone} wrote in Duel (test game)"]
    assert "bob" not in str(alice.get("/api/v1/notifications/").content)

    for name in ("bob", "Bob", "ｂob"):  # the old name, and its look-alikes, cannot be taken
        error_of(register(name), 409, "username_taken")
    assert not User.objects.filter(username__iexact="bob").exists()


def test_a_retired_name_is_free_again_after_username_retired_days(alice, bob, settings):
    assert bob.post("/api/v1/accounts/me/delete/", {"password": PASSWORD}).status_code == 204
    error_of(register("bob"), 409, "username_taken")
    from accounts.models import RetiredUsername

    from django.utils import timezone

    RetiredUsername.objects.update(until=timezone.now())
    assert register("bob").status_code == 201


# ---------------------------------------------------------------------------------------------
# Look-alike usernames (#13)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name",
    ["\u0430lice", "\uff41lice", "ALICE", "Alice", "\u0430l\u0456ce"],
    ids=["cyrillic a", "fullwidth a (NFKC)", "upper case", "capital", "two cyrillic"],
)
def test_a_look_alike_of_a_taken_name_is_refused(alice, name):
    error_of(register(name), 409, "username_taken")
    assert User.objects.count() == 1


def test_rn_looks_like_m(make_player):
    make_player("marty")
    error_of(register("rnarty"), 409, "username_taken")


@pytest.mark.parametrize(
    "taken, look_alike",
    [("bob", "b0b"), ("alicer1", "aIicer1"), ("paul", "paui"), ("will", "wiii"), ("b0b", "BOB"), ("wiii", "WILL")],
)
def test_case_and_look_alikes_are_one_relation(make_player, taken, look_alike):
    """A name is refused if it looks like a taken one in either case: `paui` is `PAUI`, whose
    capital I looks like l, and so is `paul`."""
    make_player(taken)
    error_of(register(look_alike), 409, "username_taken")


def test_names_that_do_not_look_alike_are_free(alice):
    assert register("alicia").status_code == 201
    assert register("\u0430\u0431\u0432").status_code == 201  # Cyrillic, like nobody's


# ---------------------------------------------------------------------------------------------
# What a device is (#5)
# ---------------------------------------------------------------------------------------------
def login(device=None, agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0", name="alice"):
    body = {"username": name, "password": PASSWORD, **({"device": device} if device else {})}
    return APIClient().post("/api/v1/accounts/token/", body, format="json", HTTP_USER_AGENT=agent)


def test_two_logins_without_a_device_id_are_two_devices(alice):
    first, second = login().json()["token"], login().json()["token"]
    for token in (first, second):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert client.get("/api/v1/accounts/me/").status_code == 200
    listed = alice.get("/api/v1/accounts/tokens/").json()
    assert len(listed) == 3  # registration's, and one per login
    assert sum("Firefox" in t["device"] for t in listed) == 2  # named after the browser, still two


def test_a_login_with_the_same_device_id_replaces_that_devices_token(alice):
    first = login("laptop-7f3a").json()["token"]
    login("laptop-7f3a")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    error_of(client.get("/api/v1/accounts/me/"), 401, "authentication_failed")
    assert AuthToken.objects.filter(user=alice.user, device="laptop-7f3a").count() == 1


def test_tokens_beyond_tokens_per_user_go_least_recently_used_first(alice, settings):
    settings.TOKENS_PER_USER = 3
    keys = [login().json()["token"] for _ in range(4)]
    assert AuthToken.objects.filter(user=alice.user).count() == 3
    oldest = APIClient()
    oldest.credentials(HTTP_AUTHORIZATION=f"Token {keys[0]}")
    assert oldest.get("/api/v1/accounts/me/").status_code == 401


# ---------------------------------------------------------------------------------------------
# Login limits (#14)
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def clean_counts():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def guess(name, address, password="not the password"):
    return APIClient().post(
        "/api/v1/accounts/token/", {"username": name, "password": password}, format="json", REMOTE_ADDR=address
    )


@pytest.mark.django_db(transaction=True)
def test_concurrent_wrong_logins_never_pass_the_limit(make_player, settings, clean_counts):
    from tests.games.test_concurrency import race

    settings.THROTTLE_LOGIN_ACCOUNT_ADDRESS = "10/hour"
    name = make_player().user.username
    codes = race(25, lambda i: guess(name, "192.0.2.1").status_code)
    assert sorted(codes) == [400] * 10 + [429] * 15


def test_guesses_from_elsewhere_do_not_lock_the_owner_out(make_player, settings, clean_counts):
    settings.THROTTLE_LOGIN_ACCOUNT_ADDRESS = "10/hour"
    name = make_player().user.username
    assert [guess(name, "198.51.100.7").status_code for _ in range(11)] == [400] * 10 + [429]
    assert guess(name, "192.0.2.1", PASSWORD).status_code == 200  # the owner, from home
    assert guess(name, "192.0.2.1").status_code == 400  # and their own typo is theirs to count


def test_a_good_login_gives_its_count_back(make_player, settings, clean_counts):
    settings.THROTTLE_LOGIN_ACCOUNT_ADDRESS = "3/hour"
    name = make_player().user.username
    assert [guess(name, "192.0.2.1", PASSWORD).status_code for _ in range(5)] == [200] * 5
    assert [guess(name, "192.0.2.1").status_code for _ in range(4)] == [400] * 3 + [429]


def test_a_ceiling_per_account_stops_guessing_spread_over_addresses(make_player, settings, clean_counts):
    settings.THROTTLE_LOGIN_ACCOUNT_ADDRESS, settings.THROTTLE_LOGIN_ACCOUNT = "10/hour", "25/hour"
    name = make_player().user.username
    codes = [guess(name, f"203.0.113.{n % 5}").status_code for n in range(30)]
    assert codes == [400] * 25 + [429] * 5
    error_of(guess(name, "192.0.2.99", PASSWORD), 429, "throttled")
