"""Open channels have limits, counted across processes (games.realtime.limits): streams per user
and per address, long-polls per user and per user and game; past one, 429 with Retry-After, and
a place comes back when its channel closes. Against a real server process with small limits."""

import json
import time

import pytest

from games.realtime import channels

from tests.conftest import start_game
from tests.live_server import Server, long_poll, user_stream
from tests.worker import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


# The module's streams come from an address of their own, as a proxy names it, so that no other
# test's streams on the loopback address count against (or linger in) its limits.
CLIENT = "198.51.100.7"
ADDRESS = channels.key("streams", "address", CLIENT)


def open_stream(server, token):
    return user_stream(server, token, **{"X-Forwarded-For": CLIENT})


@pytest.fixture(scope="module")
def small(django_db_setup, django_db_blocker):
    channels.client().delete(ADDRESS)  # an earlier run's, left to run out with their lease
    with django_db_blocker.unblock():
        server = Server(
            DJANGO_TRUSTED_PROXIES="1",
            LIVE_STREAMS_PER_USER="2",
            LIVE_STREAMS_PER_ADDRESS="3",
            LIVE_POLLS_PER_USER="2",
            LIVE_POLLS_PER_USER_GAME="1",
        ).start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def places_given_back(small):
    """The server takes back a closed stream's place at its next heartbeat: each test starts once
    the tests before it have their address's places back, whatever order they ran in."""
    yield
    assert wait_for(lambda: channels.client().zcount(ADDRESS, time.time(), "+inf") == 0, timeout=30), (
        "a closed stream kept its place"
    )


def refused(answer, most: int) -> None:
    assert answer.status == 429, answer.body
    assert (json.loads(answer.body)["code"], json.loads(answer.body)["most"]) == ("throttled", most)


def test_a_user_holds_at_most_their_streams_and_a_closed_one_gives_its_place_back(small, alice):
    opened = [open_stream(small, alice.token) for _ in range(2)]
    assert [s.status for s in opened] == [200, 200]
    third = open_stream(small, alice.token)
    refused(third, 2)
    with small.client(alice.token) as http:
        answer = http.get("/stream/")
    assert answer.status_code == 429 and 1 <= int(answer.headers["Retry-After"]) <= 60
    opened[0].close()
    opened[0].messages.get(timeout=5)  # its `ready`; the server sees it go at its next heartbeat
    assert wait_for(
        lambda: (s := open_stream(small, alice.token)).status == 200 and (opened.append(s) or True), timeout=20
    )
    for stream in opened:
        stream.close()


def test_an_address_holds_at_most_its_streams_whoever_opens_them(small, bob, carol, make_player):
    dave = make_player("dave")
    opened = [open_stream(small, who.token) for who in (bob, bob, carol)]
    assert [s.status for s in opened] == [200] * 3
    assert channels.client().zcard(ADDRESS) == 3  # counted against the address the proxy named
    refused(open_stream(small, dave.token), 3)  # dave has none, but the address is full
    for stream in opened:
        stream.close()


def test_long_polls_per_user_and_per_user_and_game(small, alice, bob, carol):
    first, second = start_game(alice, [bob]), start_game(alice, [carol])
    answers = []
    waiting = long_poll(small, bob, first, after=4, wait=20, into=answers)
    assert wait_for(
        lambda: channels.client().zcard(channels.key("polls", f"user:{bob.user.pk}", "game", first)) == 1, timeout=10
    )  # parked
    with small.client(bob.token) as http:
        again = http.get(f"/games/{first}/events/", params={"after": 4, "wait": 5})
        assert (
            again.json()["code"] == "throttled" and again.json()["most"] == 1 and int(again.headers["Retry-After"]) >= 1
        )
        assert http.get(f"/games/{first}/events/", params={"after": 0}).status_code == 200  # no wait: no place taken
    with small.client(carol.token) as http:  # another user: places of their own
        assert http.get(f"/games/{second}/events/", params={"after": 4, "wait": 1}).status_code == 200
    second_poll = long_poll(small, bob, second, after=4, wait=20, into=answers)  # another game: a place of its own
    assert wait_for(lambda: channels.client().zcard(channels.key("polls", f"user:{bob.user.pk}")) == 2, timeout=10)
    with small.client(bob.token) as http:  # a third game: past the user's own limit (2)
        third = http.get(f"/games/{start_game(alice, [bob])}/events/", params={"after": 4, "wait": 5})
        assert (third.status_code, third.json()["most"]) == (429, 2)
    second_poll.join(30)
    waiting.join(30)
    assert [a.status_code for a in answers] == [200, 200]
    with small.client(bob.token) as http:  # its place came back with its answer
        assert http.get(f"/games/{first}/events/", params={"after": 4, "wait": 1}).status_code == 200
