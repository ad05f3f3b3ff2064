"""Export my data; delete my account: personal data erased through every registered holder, seats
kept under an anonymous name, events untouched."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import personal_data
from accounts.models import AuthToken, NotificationPreference, Rating, RatingChange, User, Vacation, Webhook
from games.models import Event, Notification, Seat
from tests.accounts.test_ratings import play_out
from tests.conftest import start_game

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


@pytest.fixture
def other_app(monkeypatch):
    """An app registering its own data (as chat does), seen by export and erase."""
    erased = []
    monkeypatch.setitem(
        personal_data._holders,
        "zz_other_app",
        personal_data.Holder(
            "zz_other_app", export=lambda user: [{"said": f"hello from {user.pk}"}], erase=erased.append
        ),
    )
    return erased


@pytest.fixture
def finished(alice, bob):
    game_id = start_game(alice, [bob], options={"hand_size": 1})
    play_out(game_id, [alice, bob])
    alice.post("/api/v1/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook"})
    alice.post("/api/v1/accounts/vacation/", {"days": 1})
    alice.client.put("/api/v1/accounts/preferences/", {"email_digest_minutes": 5}, format="json")
    return game_id


def test_export_holds_every_kind_of_data_and_what_other_apps_registered(alice, finished, other_app):
    answer = alice.get("/api/v1/accounts/me/export/")
    assert answer.status_code == 200
    data = answer.json()["data"]
    assert data["account"]["username"] == "alice" and data["account"]["email"] == "alice@example.com"
    assert [h["url"] for h in data["webhooks"]] == ["http://127.0.0.1:9/hook"]
    assert len(data["vacations"]) == 1 and data["notification_preferences"]["email_digest_minutes"] == 5
    assert data["tokens"] and all("digest" not in t for t in data["tokens"])
    assert data["ratings"]["ratings"][0]["kind"] == "duel" and data["ratings"]["history"][0]["game"] == finished
    assert [s["game"] for s in data["seats"]] == [finished]
    assert data["notifications"]
    assert data["zz_other_app"] == [{"said": f"hello from {alice.user.pk}"}]


def test_export_needs_a_login_and_shows_only_your_own(anonymous, alice, bob):
    assert anonymous.get("/api/v1/accounts/me/export/").status_code == 401
    assert bob.get("/api/v1/accounts/me/export/").json()["data"]["account"]["username"] == "bob"


def test_deleting_erases_the_person_and_keeps_the_games(alice, bob, finished, other_app):
    events = list(Event.objects.filter(game_id=finished).order_by("seq").values_list("seq", "type", "data"))
    answer = alice.post("/api/v1/accounts/me/delete/", {"password": PASSWORD})
    assert answer.status_code == 204
    user = User.objects.get(pk=alice.user.pk)
    assert user.username == f"deleted-{user.pk}" and user.email == "" and not user.is_active
    assert not user.has_usable_password()
    for model in (Webhook, Vacation, NotificationPreference, AuthToken, Rating, RatingChange, Notification):
        assert not model.objects.filter(user=user).exists(), model.__name__
    assert other_app == [user]
    assert Seat.objects.filter(user=user, game_id=finished).exists()
    assert list(Event.objects.filter(game_id=finished).order_by("seq").values_list("seq", "type", "data")) == events
    shown = bob.game(finished)
    assert {p["username"] for p in shown["players"]} == {"bob", f"deleted-{user.pk}"}
    assert shown["result"]["rating_changes"]  # the game's record stays whole
    assert alice.get("/api/v1/accounts/me/").status_code == 401
    relogin = APIClient().post("/api/v1/accounts/token/", {"username": "alice", "password": PASSWORD}, format="json")
    assert relogin.status_code == 400
    # The name rests for USERNAME_RETIRED_DAYS (someone else under it in old logs).
    again = APIClient().post("/api/v1/accounts/register/", {"username": "alice", "password": PASSWORD}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "username_taken")


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"password": "not it"}, 400, "bad_credentials"),
        ({}, 400, "invalid"),
        ({"password": ["x"]}, 400, "invalid"),
    ],
)
def test_a_bad_deletion_request_deletes_nothing(alice, body, status, code):
    answer = alice.post("/api/v1/accounts/me/delete/", body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert User.objects.get(pk=alice.user.pk).username == "alice"
    assert alice.get("/api/v1/accounts/me/").status_code == 200


def test_no_deletion_while_seated_in_a_game_in_progress(alice, bob, duel):
    answer = alice.post("/api/v1/accounts/me/delete/", {"password": PASSWORD})
    assert (answer.status_code, answer.json()["code"]) == (409, "games_in_progress")
    assert answer.json()["games"] == [duel]
    assert User.objects.get(pk=alice.user.pk).is_active


def test_deleting_needs_a_login(anonymous, alice):
    assert anonymous.post("/api/v1/accounts/me/delete/", {"password": PASSWORD}, format="json").status_code == 401
    assert User.objects.get(pk=alice.user.pk).is_active


def test_nobody_can_take_a_deleted_accounts_name_in_advance(anonymous):
    answer = anonymous.post(
        "/api/v1/accounts/register/", {"username": "Deleted-42", "password": PASSWORD}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "username_taken")
    assert not User.objects.filter(username__iexact="deleted-42").exists()


def test_a_deletion_still_works_when_the_anonymous_name_was_taken_before(alice):
    User.objects.create_user(username=f"deleted-{alice.user.pk}", password="x")  # from before the rule
    assert alice.post("/api/v1/accounts/me/delete/", {"password": PASSWORD}).status_code == 204
    assert User.objects.get(pk=alice.user.pk).username.startswith(f"deleted-{alice.user.pk}-")
