"""Open channels re-check access (issue 33 #10; docs/social.md, "Open channels"): a private
game's stream ends once its viewer may no longer see the game, before the next news reaches
them; a long-poll answers 401, not its news, once its token is revoked, and 404 once its caller
may no longer see the game. Against a real server process."""
from __future__ import annotations

import threading

import pytest
from django_redis import get_redis_connection

from accounts import tokens
from accounts.models import AuthToken
from games.models import Invitation
from games.realtime import live
from tests.live_server import game_stream, long_poll
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


def test_a_long_poll_opened_before_logout_delivers_nothing_after_it(server, alice, bob, duel):
    version = bob.game(duel)["version"]
    answers = []
    waiting = long_poll(server, bob, duel, after=version, wait=20, into=answers)
    AuthToken.objects.filter(digest=tokens.digest(bob.token)).delete()  # a logout elsewhere
    moves = alice.get(f"/api/v1/games/{duel}/legal-moves/").json()["moves"]
    assert alice.move(duel, moves[0]).status_code == 201
    waiting.join(30)
    (answer,) = answers
    assert (answer.status_code, answer.json()["code"]) == (401, "authentication_failed"), answer.text
    assert "events" not in answer.json()


def parked_long_poll(server, player, game_id, after, answers: list) -> threading.Thread:
    """A long-poll of `player` on the game, returned once the server waits on the game's news
    (its hub subscribed to the game's channel, which no one else here listens to)."""
    waiting = long_poll(server, player, game_id, after=after, wait=25, into=answers)
    redis = get_redis_connection("default")
    name = live.channel(game_id).encode()
    assert wait_for(lambda: name in redis.pubsub_channels(name) or answers, timeout=20), server.output()[-3000:]
    assert answers == [], answers[0].text  # answered at once: it never waited
    return waiting


def assert_gone(answers: list) -> None:
    (answer,) = answers
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found"), answer.text
    assert "events" not in answer.json()


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
