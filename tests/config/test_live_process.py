"""The Procfile's three web processes as `make run` and compose run them: the proxy sends the
requests that wait (streams, long-polls) to `live` (ASGI) and every other request to `web` (WSGI);
`live` serves those routes only, with the same answers, and `web` reached directly answers them
too. Waits are bounded; nothing here is timed."""

import os
import subprocess
import sys
import threading

import httpx
import pytest

from tests.conftest import start_game
from tests.live_server import Server, free_port, game_stream, procfile_stack
from tests.worker import ROOT
from tests.loopback import TLS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker):
    ports = {"web": free_port(), "live": free_port()}
    server = Server()
    server.command = procfile_stack(server.port, ports["web"], ports["live"])
    with django_db_blocker.unblock():
        server.start()
    server.ports = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
    yield server
    server.stop()


def get(base: str, path: str, token: str, **params) -> httpx.Response:
    return httpx.get(
        f"{base}/api/v1{path}", params=params, headers={"Authorization": f"Token {token}"}, timeout=30, verify=TLS
    )


def test_live_answers_a_long_poll_as_the_proxy_does_and_nothing_but_the_routes_that_wait(stack, alice, bob):
    game = start_game(alice, [bob])
    through_proxy = get(stack.url, f"/games/{game}/events/", alice.token, after=0)
    from_live = get(stack.ports["live"], f"/games/{game}/events/", alice.token, after=0)
    from_web = get(stack.ports["web"], f"/games/{game}/events/", alice.token, after=0)
    assert through_proxy.status_code == from_live.status_code == from_web.status_code == 200
    assert through_proxy.json() == from_live.json() == from_web.json() and len(from_live.json()["events"]) == 4

    for path in ("/kinds/", f"/games/{game}/", f"/games/{game}/legal-moves/", "/accounts/me/"):
        answer = get(stack.ports["live"], path, alice.token)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", path
        assert get(stack.url, path, alice.token).status_code == 200, path
    assert httpx.get(f"{stack.ports['live']}/admin/login/", verify=TLS).status_code == 404
    assert httpx.get(f"{stack.url}/admin/login/", verify=TLS).status_code == 200


def test_through_the_proxy_a_long_poll_and_a_stream_hear_a_move_made_on_web(stack, alice, bob):
    game = start_game(alice, [bob])
    stream = game_stream(stack, bob.token, game)
    assert stream.status == 200 and stream.next().event == "ready"
    answers = []
    waiting = threading.Thread(
        target=lambda: answers.append(get(stack.url, f"/games/{game}/events/", bob.token, after=4, wait=20))
    )
    waiting.start()
    with httpx.Client(
        base_url=f"{stack.url}/api/v1", headers={"Authorization": f"Token {alice.token}"}, timeout=30, verify=TLS
    ) as http:
        listed = http.get(f"/games/{game}/legal-moves/").json()
        moved = http.post(
            f"/games/{game}/moves/", json={"move": listed["moves"][0], "expected_version": listed["version"]}
        )
    assert moved.status_code == 201, moved.text
    waiting.join(30)
    assert answers and answers[0].status_code == 200
    assert [e["seq"] for e in answers[0].json()["events"]] == [5]
    assert stream.until(lambda m: m.id == "5", timeout=20)[-1].data["event"]["seq"] == 5
    stream.close()


def test_the_proxy_gives_the_answers_from_live_the_security_headers_web_gives(stack, alice, bob):
    game = start_game(alice, [bob])
    from_web = get(stack.url, f"/games/{game}/", alice.token).headers
    from_live = get(stack.url, f"/games/{game}/events/", alice.token).headers
    for header in ("x-content-type-options", "referrer-policy", "cross-origin-opener-policy"):
        assert from_live.get(header) == from_web.get(header) is not None, header


def test_the_live_settings_pass_django_s_checks():
    """No error: the admin's middleware checks are the only ones silenced (live serves no admin)."""
    checked = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.live_settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "x" * 60,
        },
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "ERRORS" not in checked.stderr


def test_web_reached_directly_answers_long_polls_when_moves_come(stack, alice, bob):
    """Without the proxy (a platform routing to one process), `web` serves the waiting routes
    too, each on one of its threads while it waits; one after another, as a client comes back."""
    game = start_game(alice, [bob])
    for seq in (5, 6):
        answers = []
        waiting = threading.Thread(
            target=lambda: answers.append(
                get(stack.ports["web"], f"/games/{game}/events/", bob.token, after=seq - 1, wait=20)
            )
        )
        waiting.start()
        for mover in (alice, bob):
            listed = get(stack.ports["web"], f"/games/{game}/legal-moves/", mover.token).json()
            if listed["moves"]:
                break
        moved = httpx.post(
            f"{stack.ports['web']}/api/v1/games/{game}/moves/",
            timeout=30,
            headers={"Authorization": f"Token {mover.token}"},
            json={"move": listed["moves"][0], "expected_version": listed["version"]},
            verify=TLS,
        )
        assert moved.status_code == 201, moved.text
        waiting.join(30)
        assert answers and answers[0].status_code == 200, answers and answers[0].text
        assert [e["seq"] for e in answers[0].json()["events"]] == [seq]


def test_web_s_workers_remember_a_token_while_they_hear_revocations_and_forget_it_when_one_comes(stack, alice):
    """`web` (WSGI, no hub) hears revocations on a thread of each worker (gunicorn.conf.py), so a
    REST request there takes the remembered token: a change no process can hear of (a bare
    UPDATE that expires it) goes unseen, while a revocation, which every worker hears, ends it."""
    from accounts import tokens
    from accounts.models import AuthToken
    from tests.live_server import token_remembered
    from tests.worker import wait_for

    mine = AuthToken.objects.filter(digest=tokens.digest(alice.token))
    token = mine.get()
    with httpx.Client(
        base_url=f"{stack.ports['web']}/api/v1",
        headers={"Authorization": f"Token {alice.token}"},
        timeout=30,
        verify=TLS,
    ) as http:  # one connection: one worker
        me = lambda: http.get("/accounts/me/").status_code  # noqa: E731
        assert wait_for(lambda: token_remembered(me, token), timeout=20)  # its thread subscribes as it starts
        mine.delete()  # a revocation: Django's signal, then Redis
        assert wait_for(lambda: me() == 401, timeout=5)
        assert all(me() == 401 for _ in range(5))


def test_web_reached_directly_refuses_streams_pointing_to_live_and_keeps_serving(stack, alice, bob):
    """`web` (WSGI) would give each open stream one of its few threads, and its pooled database
    connection, for as long as it stays open: it refuses them with an answer that names `live`,
    so 30 of them leave it serving everyone else."""
    import json

    from tests.live_server import Stream

    game = start_game(alice, [bob])
    headers = {"Authorization": f"Token {alice.token}", "Accept": "text/event-stream"}
    opened = [
        Stream(f"{stack.ports['web']}/api/v1/{path}", headers).open()
        for path in ["stream/"] * 15 + [f"games/{game}/stream/"] * 15
    ]
    assert [s.status for s in opened] == [421] * 30
    refusal = json.loads(opened[0].body)
    assert refusal["code"] == "streams_elsewhere" and "`live`" in refusal["detail"]
    answers = []
    asking = threading.Thread(target=lambda: answers.append(get(stack.ports["web"], "/accounts/me/", alice.token)))
    asking.start()
    asking.join(10)  # a generous bound: the answer must come, not wait on the streams
    assert answers and answers[0].status_code == 200 and answers[0].json()["username"] == alice.user.username
    # through the proxy, the same streams are served (by `live`)
    through_proxy = Stream(f"{stack.url}/api/v1/stream/", headers).open()
    assert through_proxy.status == 200 and through_proxy.next().event == "ready"
    through_proxy.close()


def live_threads(stack) -> int:
    """The threads of `live`'s processes now (its master and workers: the ASGI ones)."""
    listed = subprocess.run(["ps", "-eo", "pgid,nlwp,args"], capture_output=True, text=True).stdout.splitlines()[1:]
    return sum(
        int(line.split()[1])
        for line in listed
        if line.split()[0] == str(stack.process.pid) and "gunicorn" in line and "asgi" in line
    )


def test_live_holds_no_thread_for_a_waiting_stream(stack, alice, bob):
    """A stream waits on the event loop: 40 more open streams leave `live`'s thread count as it
    was with 10 (its few reading threads aside), where each used to keep a thread of its own."""
    from tests.live_server import game_stream

    game = start_game(alice, [bob])
    opened = []

    def open_more(count):
        more = [game_stream(stack, alice.token, game) for _ in range(count)]
        for stream in more:
            assert stream.next().event == "ready"
        opened.extend(more)

    open_more(10)
    with_ten = live_threads(stack)
    open_more(30)
    with_forty = live_threads(stack)
    for stream in opened:
        stream.close()
    assert with_forty <= with_ten + 4, (with_ten, with_forty)  # LIVE_DB_THREADS per worker, started on demand


def test_live_refuses_a_host_not_allowed_as_web_does(stack, alice, bob):
    game = start_game(alice, [bob])
    path = f"/api/v1/games/{game}/events/"
    for base in (stack.url, stack.ports["live"], stack.ports["web"]):
        answer = httpx.get(
            f"{base}{path}",
            params={"after": 0},
            timeout=30,
            verify=TLS,
            headers={"Authorization": f"Token {alice.token}", "Host": "evil.example"},
        )
        assert answer.status_code == 400, (base, answer.status_code, answer.text[:200])
    assert get(stack.ports["live"], f"/games/{game}/events/", alice.token, after=0).status_code == 200


def test_the_proxy_takes_a_body_past_its_buffer_and_refuses_one_past_the_limit_with_413(stack, alice):
    """nginx writes a body over its 16 KiB buffer to a temporary file its workers must be able to
    write (scripts/proxy.py); past the site's MAX_BODY_BYTES (64 KiB) the answer is 413."""

    def create(size: int) -> httpx.Response:
        body = '{"kind": "duel", "options": {}, "padding": "' + "x" * size + '"}'
        return httpx.post(
            f"{stack.url}/api/v1/games/",
            content=body,
            timeout=30,
            verify=TLS,
            headers={"Authorization": f"Token {alice.token}", "Content-Type": "application/json"},
        )

    taken = create(17 * 1024)
    assert taken.status_code == 201, taken.text[:300]
    refused = create(70 * 1024)
    assert refused.status_code == 413 and refused.json()["code"] == "too_large", refused.text[:300]
