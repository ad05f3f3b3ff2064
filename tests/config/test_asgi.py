"""The operational middleware works under ASGI too (async, without forcing views into threads)."""

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient
from tests.loopback import TLS


@pytest.mark.django_db(transaction=True)
def test_probes_metrics_and_request_ids_answer_under_asgi():
    async def scenario():
        client = AsyncClient()
        live = await client.get("/healthz")
        ready = await client.get("/readyz")
        kinds = await client.get("/api/v1/kinds/", headers={"X-Request-ID": "asgi-1"})
        scraped = await client.get("/metrics")
        return live, ready, kinds, scraped

    live, ready, kinds, scraped = async_to_sync(scenario)()
    assert live.json() == {"status": "ok"}
    assert ready.status_code == 200, ready.content
    assert kinds.status_code == 200 and kinds["X-Request-ID"] == "asgi-1"
    assert 'route="api/v1/kinds/"' in scraped.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_session_login_through_django_s_middlewares_under_the_asgi_server(django_db_blocker):
    """The admin's login form through the real ASGI server: the CSRF cookie and check, the session
    saved, then the session authenticates the next request (MIDDLEWARE, as Django runs it)."""
    import re

    import httpx

    from accounts.models import User
    from tests.live_server import Server

    User.objects.create_superuser("root", "root@example.com", "correct horse battery")
    web = Server().start()
    try:
        with httpx.Client(base_url=web.url, timeout=30, verify=TLS) as http:
            form = http.get("/admin/login/")
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
            refused = http.post("/admin/login/", data={"username": "root", "password": "correct horse battery"})
            assert refused.status_code == 403  # no CSRF token: refused
            logged = http.post(
                "/admin/login/",
                data={
                    "username": "root",
                    "password": "correct horse battery",
                    "csrfmiddlewaretoken": token,
                    "next": "/admin/",
                },
            )
            assert logged.status_code == 302 and "sessionid" in http.cookies
            assert logged.headers["X-Frame-Options"] == "DENY"
            assert http.get("/admin/").status_code == 200
            assert http.get("/api/v1/games/", headers={"Accept": "application/json"}).status_code == 200
    finally:
        web.stop()


def test_web_and_worker_processes_have_the_collector_skip_their_start_up_heap():
    """config/gcfreeze.py: a web worker freezes its heap once the app and every view are loaded;
    each Celery worker process does when it starts."""
    import subprocess
    import sys

    from celery.signals import worker_process_init

    import config.celery

    probe = (
        "import gc, sys; import config.asgi; "
        "sys.stdout.write(f\"{gc.get_freeze_count()} {'games.api.views' in sys.modules}\")"
    )
    frozen, views = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    ).stdout.split()
    assert int(frozen) > 10_000 and views == "True"
    assert config.celery._freeze in [receiver() for _, receiver in worker_process_init.receivers]


def on_own_loop(coroutine):
    # asyncio.run on a thread of its own: an earlier test may leave an event loop running on the
    # main thread, where neither it nor async_to_sync may start another.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_the_application_answers_the_lifespan_protocol_and_starts_hearing_revocations():
    """At start the web process subscribes to live updates (games.realtime.hub), so REST requests may trust
    remembered tokens: Django's handler takes HTTP only, the lifespan is answered around it."""
    from config.asgi import application
    from games.realtime import tokens

    async def scenario():
        incoming = asyncio.Queue()
        sent = []

        async def send(message):
            sent.append(message["type"])

        await incoming.put({"type": "lifespan.startup"})
        task = asyncio.create_task(application({"type": "lifespan"}, incoming.get, send))
        while not sent:
            await asyncio.sleep(0.01)
        hearing = tokens.hearing_revocations()
        await incoming.put({"type": "lifespan.shutdown"})
        await task
        return sent, hearing

    sent, hearing = on_own_loop(scenario())
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert hearing


@pytest.mark.django_db(transaction=True)
def test_every_middleware_in_settings_runs_on_an_asgi_request():
    """What MIDDLEWARE names is what runs: each leaves its mark on one answer."""
    status, headers = on_own_loop(
        answer_with_headers(
            "/api/v1/kinds/", [(b"x-request-id", b"asgi-mw"), (b"origin", b"https://elsewhere.example")]
        )
    )
    assert status == 200
    assert headers[b"x-request-id"] == b"asgi-mw"  # config.logs.RequestIdMiddleware
    assert headers[b"x-frame-options"] == b"DENY"  # XFrameOptionsMiddleware
    assert headers[b"x-content-type-options"] == b"nosniff"  # SecurityMiddleware
    assert b"cross-origin-opener-policy" in headers  # SecurityMiddleware


async def answer_with_headers(path: str, headers=()):
    from config.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"accept", b"application/json"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    sent, incoming = [], [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)

    async def send(message):
        sent.append(message)

    await application(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], {name.lower(): value for name, value in start["headers"]}


@pytest.mark.django_db(transaction=True)
def test_requests_under_asgi_run_their_thread_bound_work_on_a_kept_thread_one_request_at_a_time():
    """config/asgi.py lends each request a kept single-thread executor (asgiref's
    ThreadSensitiveContext(executor=...)): Django's thread-bound work of a request (its sync views,
    the response's close, which sends request_finished) runs on one thread, the same one for the
    requests that follow, rather than on a thread started for each; requests at the same time each
    have their own."""
    import threading

    from django.core.signals import request_finished

    seen = []

    def note(**_kwargs):
        seen.append(threading.current_thread())

    async def one_after_another():
        for _ in range(4):
            status, _headers = await answer_with_headers("/api/v1/kinds/")
            assert status == 200

    async def at_once():
        answers = await asyncio.gather(*(answer_with_headers("/api/v1/kinds/") for _ in range(3)))
        assert [status for status, _ in answers] == [200, 200, 200]

    request_finished.connect(note)
    try:
        on_own_loop(one_after_another())
        sequential = list(seen)
        seen.clear()
        on_own_loop(at_once())
        concurrent = list(seen)
    finally:
        request_finished.disconnect(note)
    assert len(sequential) == 4 and len(set(sequential)) == 1
    assert sequential[0].name.startswith("request")
    assert len(concurrent) == 3 and len(set(concurrent)) == 3


def test_the_kept_executors_are_bounded():
    from config.asgi import Executors

    executors = Executors(keep=2)
    lent = [executors.borrow() for _ in range(5)]
    assert len(set(lent)) == 5  # none lent twice at once
    for executor in lent:
        executors.give_back(executor)
    assert executors.idle == lent[:2]
    assert executors.borrow() is lent[1]  # a kept one before a new one
    with pytest.raises(RuntimeError):
        lent[4].submit(print)  # the others were shut down


async def status_through(app, path: str, gone: bool = False) -> int | None:
    """The status `app` answers a GET of `path` with (None: no answer), its client gone at once
    when `gone`."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"accept", b"text/event-stream")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    sent = []
    incoming = [{"type": "http.disconnect"} if gone else {"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return next((m["status"] for m in sent if m["type"] == "http.response.start"), None)


@pytest.mark.django_db(transaction=True)
def test_streams_past_the_opening_bound_wait_their_turn_and_a_client_gone_gives_its_turn_back():
    """config/asgi.py lets a few streams open at once (Openings): the others open after them, and
    one whose client left before its answer does not keep its turn."""
    from config.asgi import Openings

    async def scenario():
        openings = Openings(most=1)
        gone = await status_through(openings.serve, "/api/v1/stream/", gone=True)
        waiting = [status_through(openings.serve, "/api/v1/stream/") for _ in range(3)]
        return gone, await asyncio.wait_for(asyncio.gather(*waiting), 30)

    gone, answers = on_own_loop(scenario())
    assert gone is None
    assert answers == [401, 401, 401]  # no token: each answered in its turn
