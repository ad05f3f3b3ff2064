"""The ASGI entry point (the Procfile serves it with gunicorn's uvicorn workers).

Django gives every request a thread of its own for sync code ("thread-sensitive context") and
keeps it until the response ends. For a stream or a long-poll that is one idle thread per waiting
client, so those paths go without: their views are async and run their database reads on the few
threads of games.realtime.live.run_sync. Middleware hooks run inline (config/middleware.py,
config/builtin_middleware.py): none goes to a thread, but for a session save.
"""
import asyncio
import os
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.core.exceptions import RequestAborted
from django.urls import get_resolver, set_script_prefix

from config.gcfreeze import freeze_startup_heap

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


# Writes let in past waiting reads before one read goes (so reads are never starved).
WRITES_AHEAD = 4
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class Gate:
    """`size` slots. A request that finds none waits on the event loop, and a waiting write (a
    move, any unsafe method) is let in before waiting reads, at most WRITES_AHEAD in a row.

    A move's clock runs while the move waits: behind a queue of reads, a player's time would pay
    for the server's backlog, and a Photoshoot round's hourglass does not wait for it either. The
    reads pay in waiting (under the move benchmark's full load their p99 rose by about a third),
    and what they show is the same a few milliseconds later."""

    def __init__(self, size: int):
        self.free = size
        self.waiting: tuple[deque, deque] = (deque(), deque())  # reads, writes
        self.writes_in_a_row = 0

    async def acquire(self, write: bool) -> None:
        reads, writes = self.waiting
        if self.free > 0 and not reads and not writes:
            self.free -= 1
            return
        future = asyncio.get_running_loop().create_future()
        queue = self.waiting[write]
        queue.append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # handed a slot as it was cancelled: the next one takes it
            elif future in queue:
                queue.remove(future)
            raise

    def release(self) -> None:
        reads, writes = self.waiting
        while reads or writes:
            if writes and (not reads or self.writes_in_a_row < WRITES_AHEAD):
                future = writes.popleft()
                self.writes_in_a_row = self.writes_in_a_row + 1 if reads else 0
            else:
                future = reads.popleft()
                self.writes_in_a_row = 0
            if not future.done():  # a waiter gone meanwhile left a cancelled future
                future.set_result(None)
                return
        self.free += 1


class Slots:
    """How many requests of this process may run their sync part at once (per event loop).

    Python runs one thread at a time: eight request threads of a process taking turns at the
    interpreter cost more CPU than the same work done two or three at a time (each hand-over, each
    cold cache). Measured under the move benchmark, 16 clients against 2 processes: unbounded,
    6.1 ms of web CPU per move loop and POST p99 76-85 ms; three at a time, 5.6-5.9 ms and 49-55 ms,
    10% more loops per second. The others wait on the event loop, which costs nothing, writes
    first (`Gate`). Streams and long-polls are not counted: their waits hold no slot.
    WEB_REQUEST_CONCURRENCY (0: unbounded)."""

    def __init__(self):
        self.by_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Gate]" = weakref.WeakKeyDictionary()

    def get(self) -> Gate | None:
        size = settings.WEB_REQUEST_CONCURRENCY
        if size <= 0:
            return None
        loop = asyncio.get_running_loop()
        gate = self.by_loop.get(loop)
        if gate is None:
            gate = self.by_loop[loop] = Gate(size)
        return gate


class InlineBuiltins:
    """Load MIDDLEWARE with Django's own middlewares replaced by their inline versions."""

    def load_middleware(self, is_async=False):
        # Django's own middlewares, as named in MIDDLEWARE, with their hooks inline
        # (config/builtin_middleware.py) rather than two thread hops each per request.
        from config.builtin_middleware import INSTEAD

        named = settings.MIDDLEWARE
        settings.MIDDLEWARE = [INSTEAD.get(path, path) for path in named]
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = named


class SyncChain(InlineBuiltins, BaseHandler):
    """The middleware chain and the view, all sync: what a threaded WSGI server runs."""


class Handler(InlineBuiltins, ASGIHandler):
    threads = Threads()
    slots = Slots()

    def __init__(self):
        super().__init__()
        self.sync_chain = SyncChain()
        self.sync_chain.load_middleware(is_async=False)

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
                    await self.handle_in_one_hop(scope, receive, send)
                clean = True
            finally:
                self.threads.take_back(executor, clean)

    async def handle_in_one_hop(self, scope, receive, send):
        """A REST request: its sync part (the request_started signal, the middleware chain, the
        view, rendering, and closing the response, which hands the database connection back to
        the pool) in one trip to its thread, then the bytes sent from the loop.

        Django's own handler makes four trips for a sync view (request_started, the view, the
        render, the close), each a hand-over of the interpreter between the loop's thread and
        the request's: profiled under the move benchmark (py-spy --gil), submitting them was 15%
        of the web server's samples. A sync view cannot be cancelled on its thread anyway, so
        nothing is lost by not racing it against the client's disconnect."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            slots = self.slots.get()
            if slots is None:
                response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            else:
                await slots.acquire(scope["method"] not in SAFE_METHODS)
                try:
                    response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
                finally:
                    slots.release()  # before the bytes go: sending is the loop's work
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass  # the client went away while we sent
            if response.streaming:  # its body was read while sending: closed only now
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def _respond(self, scope, body_file):
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response = error_response if request is None else self.sync_chain.get_response(request)
        if not response.streaming:
            response.close()  # request_finished: before the bytes go, which are all in memory
        return response


    async def lifespan(self, receive, send):
        """At start, subscribe to live updates: streams find the hub ready, and REST requests may
        trust remembered tokens since revocations are heard (games.api.streams.TokenAuthentication).
        Redis down at start delays it two seconds at most; the hub keeps trying on its own."""
        from games.realtime import live

        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await live.hub()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


application = Handler()

# The URLconf imports every view: load it now, then have the collector skip all that is loaded.
get_resolver().url_patterns
freeze_startup_heap()
