"""The ASGI entry point (the Procfile serves it with gunicorn's uvicorn workers).

Django gives every request a thread of its own for sync code ("thread-sensitive context") and
keeps it until the response ends. For a stream or a long-poll that is one idle thread per waiting
client, so those paths go without: their views are async and run their database reads on the few
threads of games.live.run_sync. Middleware hooks run inline (config/middleware.py,
config/builtin_middleware.py): none goes to a thread, but for a session save.
"""
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
get_asgi_application()  # django.setup()

WAITING_SUFFIXES = ("/stream/", "/events/")
SPARE_THREADS = 64


class Threads:
    """The one-thread executors that run the sync part of requests, lent to one request at a time.

    Django gives each request a thread-sensitive context of its own, and asgiref makes a new
    one-thread executor (a new OS thread) for each: profiled under the move benchmark, starting
    threads was 7% of the web server's time. A request still has a thread to itself; the threads
    are kept for the next requests, as a threaded WSGI server keeps its own."""

    def __init__(self):
        self.spare: list[ThreadPoolExecutor] = []

    def lend(self) -> ThreadPoolExecutor:
        return self.spare.pop() if self.spare else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def take_back(self, executor: ThreadPoolExecutor, clean: bool) -> None:
        # A request cut short (the client went away) may still be running on its thread: that
        # thread is not lent again.
        if clean and len(self.spare) < SPARE_THREADS:
            self.spare.append(executor)
        else:
            executor.shutdown(wait=False)


class Handler(ASGIHandler):
    def load_middleware(self, is_async=False):
        # Django's own middlewares, as named in MIDDLEWARE, with their hooks inline
        # (config/builtin_middleware.py) rather than two thread hops each per request.
        from django.conf import settings

        from config.builtin_middleware import INSTEAD

        named = settings.MIDDLEWARE
        settings.MIDDLEWARE = [INSTEAD.get(path, path) for path in named]
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = named

    threads = Threads()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].endswith(WAITING_SUFFIXES):
            await self.handle(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] != "http":
            await super().__call__(scope, receive, send)  # Django refuses it, with its own message
        else:
            executor, clean = self.threads.lend(), False
            try:
                async with ThreadSensitiveContext(executor=executor):
                    await self.handle(scope, receive, send)
                clean = True
            finally:
                self.threads.take_back(executor, clean)


    async def lifespan(self, receive, send):
        """At start, subscribe to live updates: streams find the hub ready, and REST requests may
        trust remembered tokens since revocations are heard (games.api.streams.TokenAuthentication).
        Redis down at start delays it two seconds at most; the hub keeps trying on its own."""
        from games import live

        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await live.hub()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


application = Handler()
