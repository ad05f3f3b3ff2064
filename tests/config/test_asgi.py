"""The operational middleware works under ASGI too (async, without forcing views into threads)."""
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
