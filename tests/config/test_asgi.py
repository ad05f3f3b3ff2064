"""The operational middleware works under ASGI too (async, without forcing views into threads)."""
import asyncio
import os
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient


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


def test_the_asgi_app_runs_no_middleware_hook_on_a_thread():
    """Django's MiddlewareMixin sends each hook, in the async path, to the one shared sync thread;
    the ASGI app loads inline versions of every such middleware in MIDDLEWARE."""
    from django.conf import settings
    from django.utils.deprecation import MiddlewareMixin
    from django.utils.module_loading import import_string

    from config.builtin_middleware import INSTEAD

    loaded = [import_string(INSTEAD.get(path, path)) for path in settings.MIDDLEWARE]
    hopping = [c for c in loaded if issubclass(c, MiddlewareMixin) and c.__acall__ is MiddlewareMixin.__acall__]
    assert hopping == []
    assert all(issubclass(import_string(INSTEAD[path]), import_string(path)) for path in INSTEAD)


@pytest.mark.django_db(transaction=True)
def test_a_session_login_through_the_inline_middlewares_of_the_asgi_server(django_db_blocker):
    """The admin's login form through the real ASGI server: the CSRF cookie and check, the session
    saved (the one hook that goes to a thread), then the session authenticates the next request."""
    import re

    import httpx

    from accounts.models import User
    from tests.live_server import Server

    User.objects.create_superuser("root", "root@example.com", "correct horse battery")
    web = Server().start()
    try:
        with httpx.Client(base_url=web.url, timeout=30) as http:
            form = http.get("/admin/login/")
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
            refused = http.post("/admin/login/", data={"username": "root", "password": "correct horse battery"})
            assert refused.status_code == 403  # no CSRF token: the inline check still refuses
            logged = http.post("/admin/login/", data={"username": "root", "password": "correct horse battery",
                                                      "csrfmiddlewaretoken": token, "next": "/admin/"})
            assert logged.status_code == 302 and "sessionid" in http.cookies
            assert logged.headers["X-Frame-Options"] == "DENY"
            assert http.get("/admin/").status_code == 200
            assert http.get("/api/v1/games/", headers={"Accept": "application/json"}).status_code == 200
    finally:
        web.stop()


def test_request_threads_are_kept_for_the_next_requests_but_not_after_a_request_cut_short():
    from config.asgi import Threads

    threads = Threads()
    first = threads.lend()
    assert threads.lend() is not first  # lent to one request at a time
    threads.take_back(first, clean=True)
    assert threads.lend() is first  # kept: no new thread for the next request
    threads.take_back(first, clean=False)  # its request was cancelled: it may still be running
    assert first._shutdown and threads.lend() is not first


class CountingExecutor(ThreadPoolExecutor):
    def __init__(self):
        super().__init__(max_workers=1, thread_name_prefix="counted")
        self.trips = 0

    def submit(self, fn, /, *args, **kwargs):
        self.trips += 1
        return super().submit(fn, *args, **kwargs)


async def answer(path: str, method: str = "GET", body: bytes = b"", headers=()) -> tuple[int, bytes]:
    """One HTTP request through the ASGI application, as uvicorn makes it: (status, body)."""
    from config.asgi import application

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"accept", b"application/json"), *headers],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    sent, incoming = [], [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)  # the client stays: no disconnect

    async def send(message):
        sent.append(message)

    await application(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def asgi_call(path: str, method: str = "GET", body: bytes = b"", headers=()):
    return async_to_sync(answer)(path, method, body, headers)


@pytest.mark.django_db(transaction=True)
def test_a_rest_request_runs_its_sync_part_in_one_trip_to_its_thread(monkeypatch):
    """Django's handler sends a sync view's request to its thread four times (request_started, the
    view, the render, the close); the application sends it once, signals and all."""
    from django.core import signals

    from config.asgi import Handler

    executor = CountingExecutor()
    monkeypatch.setattr(Handler.threads, "lend", lambda: executor)
    monkeypatch.setattr(Handler.threads, "take_back", lambda used, clean: None)
    fired = []
    started = lambda **kw: fired.append(("started", threading.current_thread().name))  # noqa: E731
    finished = lambda **kw: fired.append(("finished", threading.current_thread().name))  # noqa: E731
    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        status, body = asgi_call("/api/v1/kinds/")
        assert status == 200 and {k["kind"] for k in json.loads(body)} >= {"pickpic", "photograph"}
        assert executor.trips == 1
        assert [name for name, _ in fired] == ["started", "finished"]
        assert {thread for _, thread in fired} == {"counted_0"}

        status, body = asgi_call("/api/v1/accounts/token/", "POST", b'{"username": "nobody", "password": "x"}',
                                 [(b"content-type", b"application/json")])
        assert status == 400 and json.loads(body)["code"]
        assert executor.trips == 2
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
        executor.shutdown()


def test_web_and_worker_processes_have_the_collector_skip_their_start_up_heap():
    """config/gcfreeze.py: a web worker freezes its heap once the app and every view are loaded;
    each Celery worker process does when it starts."""
    import subprocess
    import sys

    from celery.signals import worker_process_init

    import config.celery

    probe = ("import gc, sys; import config.asgi; "
             "sys.stdout.write(f\"{gc.get_freeze_count()} {'games.api.views' in sys.modules}\")")
    frozen, views = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                                   env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}).stdout.split()
    assert int(frozen) > 10_000 and views == "True"
    assert config.celery._freeze in [receiver() for _, receiver in worker_process_init.receivers]


def on_own_loop(coroutine):
    # asyncio.run on a thread of its own: an earlier test may leave an event loop running on the
    # main thread, where neither it nor async_to_sync may start another.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def concurrent_calls(path: str, count: int):
    """`count` requests through the ASGI application at once, on one event loop."""
    async def run():
        return [status for status, _ in await asyncio.gather(*(answer(path) for _ in range(count)))]

    return on_own_loop(run())


@pytest.mark.parametrize("bound", [2, 0])
def test_no_more_requests_run_their_sync_part_at_once_than_the_bound(monkeypatch, settings, bound):
    import time

    from config.asgi import Handler

    settings.WEB_REQUEST_CONCURRENCY = bound
    lock, running, most = threading.Lock(), [0], [0]
    respond = Handler._respond

    def counted(self, scope, body_file):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            time.sleep(0.1)  # long enough for every other request to have arrived
            return respond(self, scope, body_file)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(Handler, "_respond", counted)
    assert concurrent_calls("/api/v1/kinds/", 6) == [200] * 6
    assert most[0] == (2 if bound else 6)


def test_a_waiting_move_runs_before_reads_that_came_first(monkeypatch, settings):
    """One slot: while a read holds it, three reads then a write arrive; the write goes next (a
    move's clock runs while it waits)."""
    import time

    from config.asgi import Handler

    settings.WEB_REQUEST_CONCURRENCY = 1
    started = []
    respond = Handler._respond

    def noted(self, scope, body_file):
        started.append(scope["method"])
        if len(started) == 1:
            time.sleep(0.3)  # the first holds the slot while the others arrive
        return respond(self, scope, body_file)

    monkeypatch.setattr(Handler, "_respond", noted)

    async def run():
        calls = []
        for method in ["GET", "GET", "GET", "GET", "POST"]:
            # a POST to /kinds/ is refused (405), after its turn like any other request
            calls.append(asyncio.create_task(answer("/api/v1/kinds/", method)))
            await asyncio.sleep(0.02)  # arrival order
        return [status for status, _ in await asyncio.gather(*calls)]

    assert on_own_loop(run()) == [200, 200, 200, 200, 405]
    assert started == ["GET", "POST", "GET", "GET", "GET"]
