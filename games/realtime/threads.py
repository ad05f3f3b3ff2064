"""Blocking work for the waiters, off the event loop, and no thread for a waiting request.

Reads run on a few threads of our own (`run_sync`) and hand their pooled connection back at once,
so an idle waiter (games.realtime.hub) holds neither a thread nor a connection.
"""

from __future__ import annotations

import asyncio
import functools
import re
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Callable, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections, reset_queries

T = TypeVar("T")


# ---------------------------------------------------------------------------------------------
# Reads off the event loop
# ---------------------------------------------------------------------------------------------
_executor: ThreadPoolExecutor | None = None


def _closing(fn: Callable[..., T], *args) -> T:
    try:
        return fn(*args)
    finally:
        connections.close_all()  # back to the pool: a sleeping stream holds no connection


def _released(fn: Callable[..., T], *args) -> T:
    """`fn` on a sync caller's thread (a WSGI server's, or Django's test client's), its database
    connection handed back after unless the caller is inside a transaction (a test's): a long-poll
    that reached `web` directly waits without holding a pooled connection."""
    try:
        return fn(*args)
    finally:
        if not any(c.in_atomic_block for c in connections.all(initialized_only=True)):
            connections.close_all()


# Set by the async views (games.api.streams.views.WaitingView) for a request that a sync handler made:
# Django's test client, or a WSGI server. Django then runs the async view through async_to_sync
# while the caller's thread waits, and asgiref's documented thread-sensitive mode runs sync code on
# that thread. Under ASGI (our servers) it stays False: the request's own task, nobody waits.
sync_caller: ContextVar[bool] = ContextVar("darkroom_live_sync_caller", default=False)


async def run_sync(fn: Callable[..., T], *args) -> T:
    """Run blocking (database) work for an async view or stream.

    On the live threads (LIVE_DB_THREADS of them per process), handing the connection back after.
    When a sync caller is blocked on us (`sync_caller`: Django's test client), run on that
    caller's thread instead with `sync_to_async(thread_sensitive=True)`, as Django itself would,
    so its connection and transaction are the ones used.
    """
    if sync_caller.get():
        return await sync_to_async(_released, thread_sensitive=True)(fn, *args)
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(settings.LIVE_DB_THREADS, thread_name_prefix="live-db")
    return await asyncio.get_running_loop().run_in_executor(_executor, functools.partial(_closing, fn, *args))


# ---------------------------------------------------------------------------------------------
# No thread for a waiting request
# ---------------------------------------------------------------------------------------------
# The routes whose requests wait (games.api.urls.WAITING): a stream, a long-poll.
WAITING_PATHS = re.compile(r"^/api/v1/(stream|games/[^/]+/(stream|events))/$")


def _request_started(**kwargs) -> None:
    """What Django's own receivers of request_started do, without a thread: under ASGI each request
    has a thread-sensitive context of its own, whose thread, once started, stays with the request
    while it is open (a stream: for hours). Django sends request_started with `asend`, which runs a
    sync receiver on that thread; this one is a coroutine and touches no connection. Its thread is
    new, so it has no old connection to close; the queries' log is memory only (debug)."""
    reset_queries()


async def _request_started_async(**kwargs) -> None:
    _request_started(**kwargs)


def no_thread_at_request_start() -> None:
    """In an ASGI process: request_started's receivers made coroutines (Signal.disconnect and
    connect, Django's documented API), so a waiting request starts no thread before its end; its
    response's close() still sends request_finished on a thread, which closes what it opened."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(reset_queries)
    signals.request_started.disconnect(close_old_connections)
    signals.request_started.connect(_request_started_async, dispatch_uid="darkroom-live-request-started")
