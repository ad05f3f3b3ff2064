"""PostgreSQL past one plain connection: locks that hold behind PgBouncer in transaction mode.

Behind a pooler in transaction mode (DATABASE_PGBOUNCER, docs/operations.md) a client owns a
server connection only while a transaction is open: between two transactions, the next statement
may run on another server connection, shared with other clients meanwhile. So nothing may live in
a session: no session advisory lock (the lock would stay with a server connection someone else is
handed, and the unlock could run on another), no SET, no prepared statement, no server-side
cursor across transactions. A lock that must outlast the work's own transactions is taken here,
transaction-scoped, in a transaction of its own on a connection of its own, held open for as long
as the work runs: the pooler keeps that server connection for this client until it ends, and a
killed holder's connection ends it (PostgreSQL, or PgBouncer for its client, rolls it back), which
frees the lock.
"""

from __future__ import annotations

import functools
import threading
import time
import zlib
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator, TypeVar

import psycopg
from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections

# OPTIONS that Django or psycopg's pool read themselves; the rest are libpq's (options, sslmode…).
_NOT_LIBPQ = {
    "pool",
    "server_side_binding",
    "prepare_threshold",
    "isolation_level",
    "assume_role",
    "cursor_factory",
    "context",
}
LOCK_CONNECT_TIMEOUT = 5
T = TypeVar("T")


def conninfo(alias: str = "default") -> dict:
    """libpq's keywords for a plain connection to the database `alias` names (its settings, as
    DATABASES documents them)."""
    db = connections[alias].settings_dict
    params = {key: value for key, value in (db.get("OPTIONS") or {}).items() if key not in _NOT_LIBPQ}
    params.update(
        {
            key: db[name]
            for key, name in (
                ("dbname", "NAME"),
                ("user", "USER"),
                ("password", "PASSWORD"),
                ("host", "HOST"),
                ("port", "PORT"),
            )
            if db.get(name)
        }
    )
    params.setdefault("connect_timeout", LOCK_CONNECT_TIMEOUT)
    return params


def lock_key(name: str) -> int:
    return zlib.crc32(f"darkroom:{name}".encode())


@contextmanager
def exclusive(name: str) -> Iterator[bool]:
    """Yields whether this process holds the deployment's lock called `name`: a transaction-scoped
    advisory lock, in a transaction of its own kept open until the block ends (the block's own
    queries run on Django's connection, in as many transactions as they like). Never waits: a
    holder elsewhere means False."""
    with psycopg.connect(**conninfo(), autocommit=False, prepare_threshold=None) as conn:
        held = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", [lock_key(name)]).fetchone()[0]
        try:
            yield held
        finally:
            conn.rollback()  # the lock goes with the transaction


# ---------------------------------------------------------------------------------------------
# Read replicas (docs/operations.md#read-replicas)
#
# With REPLICA_DATABASE_URL set, the `replica` alias names a streaming replica and ReplicaRouter
# (DATABASE_ROUTERS) sends it the reads of the views that may lag: spectators' views, lobby and
# open-game lists, leaderboards, profiles, replays. Those views say so by running inside
# `may_lag(user)`; every other read, and every write, goes to the primary.
#
# Read your writes: a user's write pins that user to the primary for REPLICA_PIN_SECONDS
# (REPLICA_MAX_LAG plus the lag's check interval, at least), set before the write's answer leaves
# (ReplicaPinMiddleware). The replica serves only while its lag is under REPLICA_MAX_LAG, so
# anything it serves after the pin is over includes the write. A player's own game is read on the
# primary whatever the pin (the views check the seat). The pin lives in the live Redis: a pin that
# cannot be read counts as pinned (the primary answers).
# ---------------------------------------------------------------------------------------------
REPLICA = "replica"
PRIMARY = "default"
_may_lag: ContextVar[bool] = ContextVar("darkroom_may_lag", default=False)
_probe_lock = threading.Lock()
_probe: dict = {"conn": None, "lag": None, "at": -1e9}
# What the lag query answers on a replica: 0 while it has replayed all it received and still
# streams (an idle primary commits nothing, so the last replayed commit grows old without any
# lag), else the age of the last transaction it replayed (its WAL receiver stopped, or replay is
# behind). On a server that is not in recovery it answers NULL: not a replica.
LAG_SQL = """
SELECT CASE WHEN NOT pg_is_in_recovery() THEN NULL
            WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()
                 AND EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming') THEN 0
            ELSE coalesce(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()), 'Infinity')
       END::float8"""


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


def replica_lag(fresh: bool = False) -> float | None:
    """The replica's lag in seconds, as last measured (at most REPLICA_CHECK_SECONDS ago, or now
    with `fresh`); None when it is not configured, unreachable or not a replica. One thread of
    the process measures, on a connection of its own; the others use the last figure meanwhile."""
    if not replica_configured():
        return None
    now = time.monotonic()
    due = fresh or now - _probe["at"] >= settings.REPLICA_CHECK_SECONDS
    if due and _probe_lock.acquire(blocking=fresh):
        try:
            _probe["lag"] = _measure()
            _probe["at"] = time.monotonic()
        finally:
            _probe_lock.release()
    return _probe["lag"]


def _measure() -> float | None:
    try:
        if _probe["conn"] is None or _probe["conn"].closed:
            params = {**conninfo(REPLICA), "connect_timeout": max(1, round(settings.REPLICA_CONNECT_TIMEOUT))}
            _probe["conn"] = psycopg.connect(**params, autocommit=True, prepare_threshold=None)
        return _probe["conn"].execute(LAG_SQL).fetchone()[0]
    except psycopg.Error:
        if _probe["conn"] is not None:
            _probe["conn"].close()
            _probe["conn"] = None
        return None


def replica_usable() -> bool:
    lag = replica_lag()
    return lag is not None and lag <= settings.REPLICA_MAX_LAG


def _pin_key(user_id) -> str:
    return f"darkroom:primary-pin:{user_id}"


def pin(user_id) -> None:
    """After `user_id`'s write: their reads stay on the primary for REPLICA_PIN_SECONDS."""
    from config import redis as redis_roles

    try:
        redis_roles.publisher().set(_pin_key(user_id), 1, px=int(settings.REPLICA_PIN_SECONDS * 1000))
    except Exception:  # noqa: BLE001 -- Redis away: unpinned reads cannot be proven either, see pinned()
        pass


def pinned(user_id) -> bool:
    from config import redis as redis_roles

    try:
        return bool(redis_roles.publisher().exists(_pin_key(user_id)))
    except Exception:  # noqa: BLE001 -- not known: the primary answers
        return True


class Lagging:
    """What `may_lag` yields: whether reads go to the replica now, and a way to stop (the caller
    found the user seated in the game it read)."""

    def __init__(self, token):
        self.token, self.on = token, token is not None

    def stop(self) -> None:
        if self.on:
            _may_lag.set(False)
            self.on = False


@contextmanager
def may_lag(user) -> Iterator[Lagging]:
    """Inside, the ORM's reads go to the replica if one is configured, lags less than
    REPLICA_MAX_LAG, and `user` (a request's user, maybe anonymous) wrote nothing lately."""
    token = None
    if replica_configured() and replica_usable():
        user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
        if user_id is None or not pinned(user_id):
            token = _may_lag.set(True)
    lagging = Lagging(token)
    try:
        yield lagging
    finally:
        if token is not None:
            _may_lag.reset(token)


class ReplicaRouter:
    """Django's documented router interface: reads inside `may_lag` to the replica (while it is
    usable), everything else to the primary; migrations on the primary only (the replica follows
    it)."""

    def db_for_read(self, model, **hints):
        return REPLICA if _may_lag.get() and replica_usable() else PRIMARY

    def db_for_write(self, model, **hints):
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints):
        # One database under two names: a row read on the replica may point at one of the primary.
        return True if {obj1._state.db, obj2._state.db} <= {PRIMARY, REPLICA, None} else None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db == PRIMARY


class ReplicaPinMiddleware:
    """Pins the user of every request that may write (not GET, HEAD or OPTIONS) to the primary,
    before the answer leaves: their next read, on any process, sees what they wrote. Sync and
    async alike (`live` serves a few writes too); under ASGI the pin is set on a thread."""

    sync_capable = async_capable = True
    SAFE = {"GET", "HEAD", "OPTIONS"}

    def __init__(self, get_response):
        self.get_response = get_response
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def writer(self, request):
        """The authenticated user of a request that may have written (DRF sets request.user
        once it authenticated), or None."""
        user = getattr(request, "user", None)
        if request.method in self.SAFE or user is None or not user.is_authenticated:
            return None
        return user.pk

    def __call__(self, request):
        if self._async:
            return self._acall(request)
        response = self.get_response(request)
        if (user_id := self.writer(request)) is not None:
            pin(user_id)
        return response

    async def _acall(self, request):
        response = await self.get_response(request)
        if (user_id := self.writer(request)) is not None:
            await sync_to_async(pin)(user_id)
        return response


def replica_failed() -> None:
    """A read on the replica failed (it stopped, say): no reads go there until the next check
    finds it back."""
    with _probe_lock:
        _probe["lag"], _probe["at"] = None, time.monotonic()


def lagging_read(user, read: Callable[[Lagging], T]) -> T:
    """`read(lagging)` inside `may_lag(user)`; should the replica fail under it, once more on the
    primary (reads only: running one twice changes nothing), so a replica that dies between two
    checks costs a retry, not an error."""
    with may_lag(user) as lagging:
        try:
            return read(lagging)
        except (OperationalError, InterfaceError):
            if not lagging.on:
                raise
            replica_failed()
            lagging.stop()
            return read(lagging)


def lag_tolerant(method):
    """A view method whose reads may come from the replica (`lagging_read` with its request's user)."""

    @functools.wraps(method)
    def view(self, request, *args, **kwargs):
        return lagging_read(request.user, lambda lagging: method(self, request, *args, **kwargs))

    return view
