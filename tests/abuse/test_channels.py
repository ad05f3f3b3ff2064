"""Open channels re-check access (docs/social.md, "Open channels"): a private
game's stream ends once its viewer may no longer see the game, before the next news reaches
them; a long-poll answers 401, not its news, once its token is revoked, and 404 once its caller
may no longer see the game. Against a real server process."""

from __future__ import annotations

import queue
import threading

import pytest
from django_redis import get_redis_connection

from accounts import tokens
from accounts.models import AuthToken
from games.models import Invitation
from games.realtime import channels
from tests.live_server import Server, game_stream, long_poll
from tests.worker import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_invitees_stream_ends_when_they_decline_and_carries_no_news_after(server, alice, bob, carol):
    game = alice.post("/api/v1/games/", {"kind": "duel", "private": True, "invite": ["bob"]}).json()
    stream = game_stream(server, bob.token, game["id"])
    assert stream.status == 200 and stream.next().event == "ready"
    invitation = Invitation.objects.get(game_id=game["id"], invitee=bob.user)
    assert bob.post(f"/api/v1/invitations/{invitation.pk}/decline/").status_code == 200
    assert carol.post(f"/api/v1/join/{game['join_code']}/").status_code == 200  # news bob may not see
    try:
        seen = stream.until(lambda message: message.event == "end")
    except Exception:
        print(server.output()[-3000:])
        raise
    assert [m.event for m in seen] == ["end"], [(m.event, m.data) for m in seen]
    assert "no longer see" in seen[-1].data["reason"]
    assert stream.closed.wait(10)


def parked_long_poll(server, player, game_id, after, answers: list) -> threading.Thread:
    """A long-poll of `player` on the game, returned once the server waits on the game's news
    (its hub subscribed to the game's channel, which no one else here listens to)."""
    waiting = long_poll(server, player, game_id, after=after, wait=25, into=answers)
    redis = get_redis_connection("default")
    name = channels.channel(game_id).encode()
    assert wait_for(lambda: name in redis.pubsub_channels(name) or answers, timeout=20), server.output()[-3000:]
    assert answers == [], answers[0].text  # answered at once: it never waited
    return waiting


def assert_refused(answers: list) -> None:
    (answer,) = answers
    assert answer.status_code == 401, f"answered {answer.status_code} after the token ended: {answer.text[:300]}"
    assert answer.json()["code"] == "authentication_failed" and "events" not in answer.json(), answer.text


def duel_of(alice, bob, private: bool) -> str:
    game = alice.post("/api/v1/games/", {"kind": "duel", "private": private}).json()
    joining = f"/api/v1/join/{game['join_code']}/" if private else f"/api/v1/games/{game['id']}/join/"
    assert bob.post(joining).status_code == 200
    assert alice.post(f"/api/v1/games/{game['id']}/start/").status_code == 200
    return game["id"]


def alice_moves(alice, game_id) -> None:
    moves = alice.get(f"/api/v1/games/{game_id}/legal-moves/").json()
    assert alice.move(game_id, moves["moves"][0], moves["version"]).status_code == 201


def log_out(server, player) -> None:
    with server.client(player.token) as http:
        assert http.post("/accounts/logout/").status_code == 204


def revoke_elsewhere(server, player) -> None:
    """The token revoked by another process (an admin, a password reset): the server hears of it
    through Redis, a moment later; by its next refusal of the token, it has."""
    AuthToken.objects.filter(digest=tokens.digest(player.token)).delete()
    with server.client(player.token) as http:
        assert wait_for(lambda: http.get("/accounts/me/").status_code == 401, timeout=5)


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("end", [log_out, revoke_elsewhere])
def test_a_parked_long_poll_answers_401_not_the_news_once_its_token_is_revoked(server, alice, bob, private, end):
    """The long-poll was accepted with a good token and waits; the token ends; then news comes:
    the poll answers as a request with that token now would, never with the news."""
    game_id = duel_of(alice, bob, private)
    answers = []
    waiting = parked_long_poll(server, bob, game_id, bob.game(game_id)["version"], answers)
    end(server, bob)
    alice_moves(alice, game_id)
    waiting.join(20)
    assert not waiting.is_alive(), "the long-poll slept through the news"
    assert_refused(answers)


def assert_gone(answers: list) -> None:
    (answer,) = answers
    assert answer.status_code == 404, (
        f"answered {answer.status_code} once the game was no longer theirs: {answer.text[:300]}"
    )
    assert answer.json()["code"] == "not_found" and "events" not in answer.json(), answer.text


def test_an_invitees_long_poll_answers_404_not_the_news_once_they_decline(server, alice, bob, carol):
    game = alice.post("/api/v1/games/", {"kind": "duel", "private": True, "invite": ["bob"]}).json()
    answers = []
    waiting = parked_long_poll(server, bob, game["id"], bob.game(game["id"])["version"], answers)
    invitation = Invitation.objects.get(game_id=game["id"], invitee=bob.user)
    assert bob.post(f"/api/v1/invitations/{invitation.pk}/decline/").status_code == 200
    assert carol.post(f"/api/v1/join/{game['join_code']}/").status_code == 200  # news bob may not see
    waiting.join(30)
    assert_gone(answers)


def test_a_players_long_poll_answers_404_not_the_news_once_they_leave_a_private_game(server, alice, bob):
    game = alice.post("/api/v1/games/", {"kind": "duel", "private": True}).json()
    assert bob.post(f"/api/v1/join/{game['join_code']}/").status_code == 200
    answers = []
    waiting = parked_long_poll(server, bob, game["id"], bob.game(game["id"])["version"], answers)
    # His own leaving is the news that wakes the poll: a PlayerLeft he no longer may see.
    assert bob.post(f"/api/v1/games/{game['id']}/leave/").status_code == 200
    waiting.join(30)
    assert_gone(answers)


@pytest.fixture(scope="module")
def idle_server(django_db_setup, django_db_blocker):
    """A server whose idle streams ask their guard only once a minute (LIVE_HEARTBEAT_SECONDS): a
    stream that ends within seconds of news was ended by the check made before delivering it."""
    with django_db_blocker.unblock():
        web = Server(LIVE_HEARTBEAT_SECONDS="60").start()
    yield web
    web.stop()


@pytest.mark.parametrize("end", [log_out, revoke_elsewhere])
def test_a_private_game_s_stream_ends_before_its_next_news_once_its_token_is_revoked(idle_server, alice, bob, end):
    game_id = duel_of(alice, bob, private=True)
    stream = game_stream(idle_server, bob.token, game_id)
    assert stream.status == 200 and stream.next().event == "ready"
    end(idle_server, bob)
    alice_moves(alice, game_id)
    try:
        seen = stream.until(lambda message: message.event == "end", timeout=15)
    except queue.Empty:
        raise AssertionError("the stream neither delivered nor ended within 15 s of the news") from None
    assert [m.event for m in seen] == ["end"], [(m.event, m.data) for m in seen]
    assert "revoked" in seen[-1].data["reason"]
    assert stream.closed.wait(10), "the stream stayed open after its end"
