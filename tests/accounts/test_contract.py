"""The accounts endpoints answer as the OpenAPI document says, good answers and errors alike."""

from __future__ import annotations

import pytest

from accounts import services

from tests.accounts.test_ratings import play_out
from tests.api.openapi import Contract, fetch_document
from tests.conftest import start_game

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def contract(django_db_blocker):
    with django_db_blocker.unblock():
        return Contract(fetch_document())


def check(contract, client, method, path, body=None, status=None):
    call = getattr(client, method)
    response = call(path, body, format="json") if body is not None or method in ("post", "delete") else call(path)
    contract.check_response(method, path, response)
    if status is not None:
        assert response.status_code == status, response.content
    return response


def test_ratings_profiles_and_leaderboards_answer_as_documented(contract, alice, bob):
    game_id = start_game(alice, [bob], options={"hand_size": 1})
    play_out(game_id, [alice, bob])
    detail = check(contract, alice.client, "get", f"/api/v1/games/{game_id}/", status=200).json()
    assert contract.component("Result").is_valid(detail["result"]) and detail["result"]["rating_changes"]
    check(contract, alice.client, "get", "/api/v1/players/bob/", status=200)
    check(contract, alice.client, "get", "/api/v1/players/nobody/", status=404)
    check(contract, alice.client, "get", "/api/v1/kinds/duel/leaderboard/", status=200)
    check(contract, alice.client, "get", "/api/v1/kinds/duel/leaderboard/?limit=0", status=400)
    check(contract, alice.client, "get", "/api/v1/kinds/chess/leaderboard/", status=404)


def test_tokens_passwords_and_leaving_answer_as_documented(contract, alice, bob, anonymous, queue):
    login = check(
        contract,
        anonymous,
        "post",
        "/api/v1/accounts/token/",
        {"username": "alice", "password": PASSWORD, "device": "phone"},
        status=200,
    ).json()
    check(contract, anonymous, "post", "/api/v1/accounts/token/", {"username": "alice", "password": "no"}, status=400)
    check(contract, alice.client, "get", "/api/v1/accounts/tokens/", status=200)
    check(contract, alice.client, "delete", f"/api/v1/accounts/tokens/{login['id']}/", status=204)
    check(contract, alice.client, "delete", f"/api/v1/accounts/tokens/{login['id']}/", status=404)
    check(
        contract,
        alice.client,
        "post",
        "/api/v1/accounts/password/",
        {"old_password": "no", "new_password": "a brand new passphrase"},
        status=400,
    )
    check(
        contract,
        alice.client,
        "post",
        "/api/v1/accounts/password/",
        {"old_password": PASSWORD, "new_password": "a brand new passphrase"},
        status=204,
    )
    check(contract, anonymous, "post", "/api/v1/accounts/password-reset/", {"email": "bob@example.com"}, status=202)
    assert queue() == [(services.RESET_MAIL_TASK, ["bob@example.com"], None)]  # the worker mails it
    check(
        contract,
        anonymous,
        "post",
        "/api/v1/accounts/password-reset/confirm/",
        {"uid": "x", "token": "y", "new_password": "whatever passphrase"},
        status=400,
    )
    check(contract, bob.client, "get", "/api/v1/accounts/me/export/", status=200)
    game_id = start_game(bob, [alice])
    check(contract, bob.client, "post", "/api/v1/accounts/me/delete/", {"password": PASSWORD}, status=409)
    check(contract, bob.client, "post", "/api/v1/accounts/me/delete/", {"password": "no"}, status=400)
    assert game_id
    check(contract, alice.client, "post", "/api/v1/accounts/logout/", status=204)
