"""The ASGI entry point (the Procfile serves it with gunicorn's uvicorn workers): Django's own
handler, with the ASGI lifespan protocol answered around it.

REST views are sync: Django runs them on the request's thread. Streams and long-polls are async
views (games/api/streams/) that wait on the event loop and read the database on a few threads of
their own (games.realtime.threads.run_sync), so a waiting client holds no database connection.
"""

import asyncio
import os
import weakref
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application

from config.gcfreeze import freeze_web_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from games.realtime import hub, threads  # noqa: E402  (once Django is set up)

threads.no_thread_at_request_start()


class Executors:
    """Single-thread executors lent to requests, each to one request at a time.

    Django's handler gives each request a thread-sensitive context of its own. The request's first
    thread-sensitive call (every response's `close()`, a DRF response's `render()`) then starts a
    thread, and the end of the request starts one more to join it: two threads for each long-poll,
    which is a new request for every move it hears. asgiref documents an outer context given an
    executor by its caller, "for example in a pool" (`ThreadSensitiveContext(executor=...)`), and
    Django's own context inside it then reuses it. An executor makes its thread on first use and is
    lent to one request at a time, as asgiref asks. At most `keep` wait here between requests; a
    stream holds its executor while it is open, so more may be out."""

    def __init__(self, keep: int):
        self.keep, self.idle = keep, []

    def borrow(self) -> ThreadPoolExecutor:
        return self.idle.pop() if self.idle else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)


executors = Executors(keep=32)


class Openings:
    """At most `most` streams of an event loop between their request's start and their answer's
    first message: the rest wait before Django makes their request.

    An opening stream holds Django's request and the frames of every middleware around its view
    until the view has answered, and the views answer a few at a time (they read the database on
    the LIVE_DB_THREADS threads). 10,000 streams opened at once, all of them opening together, left
    the `live` processes 10 KiB a stream larger than the same streams opened a hundred at a time:
    what they allocate while opening is freed, but the memory stays with the process. Streams open
    as fast either way; long-polls, which answer only when they have news, are not counted."""

    def __init__(self, most: int):
        self.most = most
        self.gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    async def serve(self, scope, receive, send):
        loop = asyncio.get_running_loop()
        gate = self.gates.get(loop)
        if gate is None:
            gate = self.gates[loop] = asyncio.Semaphore(self.most)
        await gate.acquire()
        opening = True

        async def answer(message):
            nonlocal opening
            if opening:
                opening = False
                gate.release()
            await send(message)

        try:
            return await django_application(scope, receive, answer)
        finally:
            if opening:
                gate.release()


openings = Openings(most=64)


async def application(scope, receive, send):
    """Django's application, and the lifespan messages it does not take (ASGI's lifespan protocol).

    At start, subscribe to live updates: streams find the hub ready, and REST requests may trust
    remembered tokens since revocations are heard (games.api.auth.TokenAuthentication: the token
    lookup was 8% of the web server's time under the move benchmark). Redis down at start delays
    it two seconds at most; the hub keeps trying on its own."""
    if scope["type"] == "http" and threads.WAITING_PATHS.match(scope.get("path", "")):
        # A stream or a long-poll: Django's own context, whose thread starts only at its end (for
        # its response's close()), rather than a lent one whose thread would wait with it.
        if scope["path"].endswith("/stream/"):
            return await openings.serve(scope, receive, send)
        return await django_application(scope, receive, send)
    if scope["type"] != "lifespan":
        executor = executors.borrow()  # on the event loop's thread only: no lock
        try:
            async with ThreadSensitiveContext(executor=executor):
                return await django_application(scope, receive, send)
        finally:
            executors.give_back(executor)
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await hub.hub()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


freeze_web_heap()
