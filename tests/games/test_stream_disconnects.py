"""A client that hangs up while a long-poll or a stream waits, against a real server process
(uvicorn, Django's ASGI handler): the server cancels the wait quietly (no 500, no traceback in
its log) and goes on answering. Waits are bounded; nothing here is timed."""

import time

import httpx
import pytest

from tests.live_server import Server, game_stream, procfile_stack, user_stream
from tests.worker import wait_for
from tests.loopback import TLS

pytestmark = pytest.mark.django_db(transaction=True)

TROUBLE = ("Traceback", "Internal Server Error", "RuntimeError", "ThreadSensitiveContext", " 500")


@pytest.fixture(params=["uvicorn", "procfile"])
def web(request, django_db_blocker):
    """uvicorn alone, and the Procfile's proxy, web and live (a hang-up then reaches `live`
    through nginx)."""
    server = Server()
    if request.param == "procfile":
        server.command = procfile_stack(server.port)
    with django_db_blocker.unblock():
        server.start()
    yield server
    server.stop()


def trouble(log: str) -> list[str]:
    return [line for line in log.splitlines() if any(mark in line for mark in TROUBLE)]


def hang_up_during_long_poll(web: Server, token: str, game_id, after: int) -> None:
    """Open the long-poll and close the connection while the server waits (the client gives up
    reading after a second of a 20-second wait)."""
    with httpx.Client(
        base_url=f"{web.url}/api/v1",
        headers={"Authorization": f"Token {token}"},
        timeout=httpx.Timeout(10, read=1),
        verify=TLS,
    ) as http:
        with pytest.raises(httpx.ReadTimeout):
            http.get(f"/games/{game_id}/events/", params={"after": after, "wait": 20})


def disconnect_handled(web: Server) -> bool:
    """Whether the server has finished with the hung-up request: Django sends the
    request_finished signal then, which closes the request's connections; we wait until the log
    has stopped growing for a moment, bounded."""
    seen = [web.output()]

    def quiet():
        time.sleep(0.5)
        now = web.output()
        same = now == seen[0]
        seen[0] = now
        return same

    return wait_for(quiet, timeout=10)


def test_hanging_up_on_a_long_poll_logs_no_error_and_the_server_still_answers(web, alice, bob, duel):
    before = web.output()
    for _ in range(3):  # a few times: the handler's threads are reused between requests
        hang_up_during_long_poll(web, bob.token, duel, after=4)
    assert disconnect_handled(web)
    log = web.output()[len(before) :]
    assert trouble(log) == [], log[-3000:]
    with web.client(bob.token) as http:
        idle = http.get(f"/games/{duel}/events/", params={"after": 4, "wait": 1})
        assert (idle.status_code, idle.json()["events"]) == (200, [])
        assert http.get(f"/games/{duel}/").status_code == 200
    assert trouble(web.output()) == [], web.output()[-3000:]


def test_hanging_up_on_streams_logs_no_error_and_the_server_still_answers(web, alice, bob, duel):
    before = web.output()
    for _ in range(2):
        game = game_stream(web, bob.token, duel)
        assert game.next().event == "ready"
        mine = user_stream(web, alice.token)
        assert mine.next().event == "ready"
        game.close()
        mine.close()
        # close() stops the reader at its next line: the heartbeat (every second here) ends it
        assert game.closed.wait(20) and mine.closed.wait(20)
    assert disconnect_handled(web)
    log = web.output()[len(before) :]
    assert trouble(log) == [], log[-3000:]
    with web.client(bob.token) as http:
        idle = http.get(f"/games/{duel}/events/", params={"after": 4, "wait": 1})
        assert (idle.status_code, idle.json()["events"]) == (200, [])
