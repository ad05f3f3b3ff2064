"""The routes answered on the event loop (a game's log and its long-poll, games.api.streams) speak
the account's language as the others do, in their body and in Content-Language: the view
authenticates its caller on a thread, and the language it chose there comes back to the loop."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_games_log_on_the_loop_answers_in_the_accounts_language_and_says_so(server):
    anonymous = server.client()
    token = anonymous.post(
        "/accounts/register/", json={"username": "zed", "password": "correct horse battery", "email": "zed@example.com"}
    ).json()["token"]
    zed = server.client(token)
    assert zed.put("/accounts/preferences/", json={"language": "de"}).status_code == 200
    game = zed.post("/games/", json={"kind": "duel", "seats": 2, "options": {}}).json()
    for wait in ("", "&wait=1"):
        answer = zed.get(f"/games/{game['id']}/events/?after=0{wait}", headers={"Accept-Language": "fr"})
        assert answer.status_code == 200 and answer.headers["Content-Language"] == "de", wait
    refused = zed.get(f"/games/{game['id']}/events/?after=x", headers={"Accept-Language": "fr"})
    assert refused.status_code == 400 and refused.headers["Content-Language"] == "de"
    assert refused.json()["code"] == "invalid" and "after" in refused.json()["detail"]
