"""Strict types on every input (docs/api.md): a JSON string is not a number, a number is not a
string, 1.0 is not a whole number. One place decides it for the whole API: every request body's
serializer derives from games.api.serializers.StrictInput."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from accounts.models import User, Vacation
from games.api.serializers import StrictInput
from games.models import Event, Game
from tests.api.openapi import fetch_document, request_bodies
from tests.api.test_errors import error_of

pytestmark = pytest.mark.django_db


def test_a_string_for_expected_version_plays_no_move(alice, bob, duel):
    before = Event.objects.filter(game_id=duel).count()
    version = alice.game(duel)["version"]
    move = alice.get(f"/api/v1/games/{duel}/legal-moves/").json()["moves"][0]
    error_of(
        alice.post(f"/api/v1/games/{duel}/moves/", {"move": move, "expected_version": str(version)}), 400, "invalid"
    )
    error_of(
        alice.post(f"/api/v1/games/{duel}/moves/", {"move": move, "expected_version": float(version)}), 400, "invalid"
    )
    assert Event.objects.filter(game_id=duel).count() == before


def test_a_string_for_seats_creates_no_game(alice):
    error_of(alice.post("/api/v1/games/", {"kind": "duel", "seats": "2"}), 400, "invalid")
    assert not Game.objects.exists()


def test_a_string_for_vacation_days_starts_no_vacation(alice):
    error_of(alice.post("/api/v1/accounts/vacation/", {"days": "5"}), 400, "invalid")
    error_of(alice.post("/api/v1/accounts/vacation/", {"days": True}), 400, "invalid")
    assert not Vacation.objects.exists()
    assert alice.post("/api/v1/accounts/vacation/", {"days": 0.5}).status_code == 201  # a number is fine


@pytest.mark.parametrize("seat", ["1", 1.0, True], ids=["a string", "a float", "a boolean"])
def test_a_claimed_seat_must_be_a_json_whole_number(alice, bob, duel, seat):
    body = error_of(alice.post(f"/api/v1/games/{duel}/claim-forfeit/", {"seat": seat}), 400, "invalid")
    assert "seat" in body["fields"]


def test_strings_in_lists_are_strings(alice, make_player):
    make_player("12")
    error_of(alice.post("/api/v1/games/", {"kind": "duel", "invite": [12]}), 400, "invalid")
    assert not Game.objects.exists()


def test_numbers_where_strings_belong_are_refused(db):
    from django.test import Client

    error_of(
        Client().post(
            "/api/v1/accounts/register/",
            {"username": 1234, "password": "correct horse battery"},
            content_type="application/json",
        ),
        400,
        "invalid",
    )
    assert not User.objects.exists()


def _serializers(base=serializers.Serializer):
    for sub in base.__subclasses__():
        yield sub
        yield from _serializers(sub)


def test_every_request_body_of_the_document_is_a_strict_input(db):
    by_name = {cls.__name__: cls for cls in _serializers()}
    named = set()
    for _, _, _, schema in request_bodies(fetch_document()):
        named.add(schema["$ref"].rsplit("/", 1)[-1].removesuffix("Request"))
    assert named and {"MoveIn", "CreateGameIn", "VacationIn", "ClaimIn"} <= named
    loose = sorted(name for name in named if not issubclass(by_name[name], StrictInput))
    assert loose == []
