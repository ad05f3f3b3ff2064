"""Live updates across processes and through a Redis outage, with real server processes.

Several web processes: a reader on one hears moves made through another, because the news goes
through Redis, not through the process. Redis down: moves still commit, every endpoint answers,
streams fall back to polling the database; when Redis is back, the subscription returns by
itself. The Redis stopped here is a private one, never the shared one."""

import time

import httpx
import pytest

from games.models import Event, Game
from tests.live_server import PrivateRedis, Server, game_stream, long_poll
from tests.worker import wait_for
from tests.loopback import TLS

pytestmark = pytest.mark.django_db(transaction=True)


def play(server, player, game_id):
    with server.client(player.token) as http:
        listed = http.get(f"/games/{game_id}/legal-moves/").json()
        answer = http.post(
            f"/games/{game_id}/moves/", json={"move": listed["moves"][0], "expected_version": listed["version"]}
        )
    assert answer.status_code == 201, answer.text
    return answer.json()["version"]


def subscribed(redis: PrivateRedis) -> bool:
    """The web process's hub is subscribed on this Redis: to revocations, and to the game of the
    stream it serves."""
    try:
        reply = redis.command("PUBSUB", "CHANNELS", "*:live:*")
        return b":live:revoked" in reply and b":live:game:" in reply
    except OSError:
        return False


@pytest.fixture
def two_servers(django_db_blocker):
    servers = [Server(), Server()]
    try:
        for web in servers:
            web.start()
        yield servers
    finally:
        for web in servers:
            web.stop()


def test_readers_on_one_process_hear_moves_made_through_another(two_servers, alice, bob, carol, duel):
    here, there = two_servers
    stream = game_stream(there, carol.token, duel)
    assert stream.next().data["after"] == 4
    answers: list = []
    poll = long_poll(there, bob, duel, after=4, wait=25, into=answers)
    time.sleep(0.5)  # most likely the long-poll is asleep now; it answers the same either way
    version = play(here, alice, duel)
    news = stream.next(timeout=20)
    assert (news.id, news.data["event"]["type"]) == (str(version), "CardPlayed")
    poll.join(30)
    assert [e["seq"] for e in answers[0].json()["events"]] == [version]
    stream.close()


@pytest.fixture
def private_redis():
    redis = PrivateRedis().start()
    yield redis
    redis.stop()


def test_with_redis_down_moves_commit_every_endpoint_answers_and_streams_poll_then_resume(
    private_redis, alice, bob, duel
):
    web = Server(redis_url=private_redis.url).start()
    try:
        stream = game_stream(web, bob.token, duel)
        assert stream.next().event == "ready"
        assert wait_for(lambda: subscribed(private_redis), timeout=20)

        private_redis.stop()
        version = play(web, alice, duel)  # commits, and tells nobody through Redis
        assert Event.objects.filter(game_id=duel, seq=version).exists()
        with web.client(bob.token) as http:
            for _ in range(3):  # every endpoint answers; the outage is logged once, not per request
                assert http.get("/kinds/").status_code == 200
                assert http.get(f"/games/{duel}/").json()["version"] == version
                assert http.get(f"/games/{duel}/legal-moves/").status_code == 200
                assert http.get("/notifications/").status_code == 200
                assert len(http.get(f"/games/{duel}/events/", params={"after": 4, "wait": 5}).json()["events"]) == 1
            idle = http.get(f"/games/{duel}/events/", params={"after": version, "wait": 1})
            assert (idle.status_code, idle.json()["events"]) == (200, [])
            ticket = http.post("/stream-tickets/")
            assert (ticket.status_code, ticket.json()["code"]) == (503, "unavailable")
            unauthenticated = httpx.get(f"{web.url}/api/v1/games/{duel}/stream/?ticket=x", timeout=10, verify=TLS)
            assert unauthenticated.status_code == 401
        assert stream.next(timeout=20).id == str(version)  # the stream polled the database
        bob_moved = play(web, bob, duel)
        assert stream.next(timeout=20).id == str(bob_moved)
        log = web.output()
        assert log.count("redis unreachable for cache") == 1, log[-3000:]
        assert log.count("redis unreachable for live updates") == 1, log[-3000:]

        private_redis.start()  # same port: the hub finds it again by itself
        assert wait_for(lambda: subscribed(private_redis), timeout=30), web.output()[-3000:]
        later = play(web, {0: alice, 1: bob}[Game.objects.get(pk=duel).active_seats[0]], duel)
        assert stream.next(timeout=20).id == str(later)
        with web.client(bob.token) as http:
            assert http.post("/stream-tickets/").status_code == 201
        assert "redis reachable again for live updates" in web.output()
        stream.close()
    finally:
        web.stop()
