"""Live updates: writers announce after commit, waiters sleep on Redis pub/sub without a thread.

Writers (sync, in a request or a task) publish on a game's channel when its version changes and on
a user's channel when they get a notification, once the transaction commits, so nobody hears of a
rolled-back write. A game's message carries the write's events as stored (`ride`): a reader that
heard every write since its last read renders from the messages; one that missed any (a gap)
reads the database, which stays the truth.

Waiters (async: streams and long-polls) register with the process's `Hub`, one Redis connection
per process subscribed to the channels its waiters follow, which sets the waiters' flags. A waiter
waits until its channels are heard (`Listener.ready`), clears its flag, reads the database, sends
what it read, then sleeps on the flag: a publish after the clear sets it again, so no news falls
between the read and the sleep. Reads run on a few threads of our own (`run_sync`) and hand their
pooled connection back at once, so an idle waiter holds neither a thread nor a connection.

While the hub hears a channel (its `since` unchanged), every commit since a read reaches it, so a
waiter that was not woken has nothing new to read: heartbeats and the start of a long-poll on a
channel already heard need no query, and a waiter woken by news learns the game's new version
from the message.

Redis down: writes still commit (publishing is best effort), and waiters poll the database every
LIVE_POLL_SECONDS. The hub reconnects by itself and wakes every waiter when it does, since it may
have missed messages meanwhile.

Streams and long-polls authenticate every cycle; `cached_token` keeps token -> user for
LIVE_AUTH_CACHE_SECONDS per process, forgotten at once everywhere when a token is deleted or a
user saved (a message on the `revoked` channel), and on every reconnect of the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import threading
import time
import weakref
from contextvars import ContextVar
from concurrent.futures import ThreadPoolExecutor
from typing import AsyncIterator, Callable, Iterable, TypeVar

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from cachetools import LRUCache
from django.conf import settings
from django.db import connections, reset_queries, transaction
from django.utils import timezone

from config import redis as redis_roles
from config import jsoncodec
from config.keys import deployment_key
from config.outages import came_back, went_down

log = logging.getLogger(__name__)
MAX_WAIT_SECONDS = 30
T = TypeVar("T")


def client() -> redis.Redis:
    """The process's Redis client for publishing and tickets (config.redis's `publisher`)."""
    return redis_roles.publisher()


def _prefix() -> str:
    return deployment_key("live")


def key(*parts) -> str:
    """A Redis key of this deployment's live machinery (stream tickets)."""
    return ":".join([_prefix(), *map(str, parts)])


def channel(game_id) -> str:
    return f"{_prefix()}:game:{game_id}"


def user_channel(user_id) -> str:
    return f"{_prefix()}:user:{user_id}"


def chat_channel(game_id) -> str:
    """A game's chat news: its own channel, whose payload is the newest message id, so a
    stream woken by a move does not read the chat, nor one woken by chat the events."""
    return f"{_prefix()}:chat:{game_id}"


# ---------------------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------------------
def _publish(messages: list[tuple[str, str]]) -> None:
    try:
        with client().pipeline(transaction=False) as pipe:
            for name, payload in messages:
                pipe.publish(name, payload)
            pipe.execute()
    except redis.RedisError as error:
        went_down("live updates", error)  # readers fall back to polling and miss nothing
    else:
        came_back("live updates")


RIDE_MAX_BYTES = 32_000  # a write's events above this go by their version alone (the readers read them)


def ride(game, rows) -> dict:
    """What a woken reader needs of a write, so that it reads nothing from the database: the
    game's new head and the events as stored (every viewer's view is made from them, per viewer,
    by the reader; Redis carries them between the server's own processes only)."""
    return {
        "status": game.status,
        "active_seats": game.active_seats or [],
        "events": [
            {"seq": r.seq, "type": r.type, "actor": r.actor, "data": r.data, "created_at": r.created_at.isoformat()}
            for r in rows
        ],
    }


def _game_payload(version: int, riding: dict | None) -> str:
    if riding is None:
        return str(version)
    body = jsoncodec.dumps(riding).decode()
    return f"{version} {body}" if len(body) <= RIDE_MAX_BYTES else str(version)


def news_messages(news: Iterable[tuple]) -> list[tuple[str, str]]:
    """The (channel, payload) messages announcing these games' new versions, to publish after
    commit (games.play.statecache sends them with the write's states, in the same pipeline). Each
    item is (game id, version, the users to tell, and optionally the write's `ride`): a game's
    message is its new version, then a space and the ride as JSON when there is one."""
    return [
        message
        for game_id, version, users, *riding in news
        for message in [(channel(game_id), _game_payload(version, riding[0] if riding else None))]
        + [(user_channel(u), str(game_id)) for u in set(users) if u]
    ]


def announce_chat(game_id, message_id: int) -> None:
    """Once the current transaction commits, tell the game's streams of a new chat message."""
    messages = [(chat_channel(game_id), str(message_id))]
    transaction.on_commit(lambda: _publish(messages))


def tournament_channel(tournament_id) -> str:
    """A tournament's news: a change of its players, rounds, games or standings (no payload: the
    streams that follow it read what changed)."""
    return f"{_prefix()}:tournament:{tournament_id}"


def announce_tournament(tournament_id) -> None:
    """Once the current transaction commits, tell the streams that follow the tournament."""
    messages = [(tournament_channel(tournament_id), "")]
    transaction.on_commit(lambda: _publish(messages))


def announce_users(user_ids: Iterable[int]) -> None:
    """Once the current transaction commits, wake these users' own streams (a notification)."""
    messages = user_messages(user_ids)
    if messages:
        transaction.on_commit(lambda: _publish(messages))


def user_messages(user_ids: Iterable[int]) -> list[tuple[str, str]]:
    """The (channel, payload) messages of `announce_users`, to publish with others."""
    return [(user_channel(u), "") for u in sorted(set(user_ids))]


def revoked_channel() -> str:
    return key("revoked")


def stream_channel(stream_id: str) -> str:
    """An open user stream's own channel: a change of the games it follows (its payload a serial,
    the `games` count of the stream's key) reaches whichever process holds the stream."""
    return f"{_prefix()}:stream:{stream_id}"


def stream_key(stream_id: str) -> str:
    """The Redis hash of an open user stream: `user` (its owner), `games` (a serial bumped by each
    change), one `g:<game id>` field per game followed on request (its resume point, or "") and one
    `t:<tournament id>` per tournament."""
    return key("stream", stream_id)


def change_stream(
    stream_id: str, user_id: int, game_id: str, after: int | None, follow: bool, most: int, part: str = "g"
) -> str | None:
    """Follow (or stop following) a game (`part` "g"; a tournament: "t") on an open stream of
    `user_id`, and tell the process that holds it. None if done; else why not: "stream" (no such
    open stream of theirs) or "full" (it already follows `most` of that part)."""
    name = stream_key(stream_id)
    conn = client()
    owner, fields = conn.hget(name, "user"), conn.hkeys(name)
    if owner is None or owner.decode() != str(user_id):
        return "stream"
    field_name = f"{part}:{game_id}"
    with conn.pipeline(transaction=True) as pipe:
        if follow:
            following = sum(1 for f in fields if f.startswith(f"{part}:".encode()))
            if following >= most and field_name.encode() not in fields:
                return "full"
            pipe.hset(name, field_name, "" if after is None else str(after))
        else:
            pipe.hdel(name, field_name)
        pipe.hincrby(name, "games", 1)
        serial = pipe.execute()[-1]
    _publish([(stream_channel(stream_id), str(serial))])
    return None


class Memory:
    """A process's memory of at most `size` entries, the least recently used going first
    (cachetools' LRUCache), safe to share between the event loop and the live threads."""

    def __init__(self, size: int):
        self._lru: LRUCache = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, key_, default=None):
        with self._lock:
            return self._lru.get(key_, default)

    def __setitem__(self, key_, value) -> None:
        with self._lock:
            self._lru[key_] = value

    def __len__(self) -> int:
        return len(self._lru)

    def clear(self) -> None:
        with self._lock:
            self._lru.clear()


# ---------------------------------------------------------------------------------------------
# Token -> user for waiters, per process
# ---------------------------------------------------------------------------------------------
_tokens = Memory(10_000)  # token key -> (until, user, token)
_token_ids = Memory(10_000)  # token id -> until: read from the database since the last revocation
_hearing: set[int] = set()  # the hubs (and revocation listeners) of this process subscribed now
_forgotten = 0  # how many times this process forgot every token (a revocation, a reconnection)


def hearing_revocations() -> bool:
    """Whether this process hears revocations now (a hub is subscribed): only then may a request
    trust a remembered token, since a logout in another process reaches it through Redis."""
    return bool(_hearing)


def cached_token(key_: str, lookup: Callable[[str], tuple]) -> tuple:
    """`lookup(key)` (the database: (user, token)), remembered for LIVE_AUTH_CACHE_SECONDS. The
    user is shared by the requests of that token: the waiting views only read it."""
    now = time.monotonic()
    hit = _tokens.get(key_)
    if hit is None or hit[0] < now:
        forgotten = _forgotten
        user, token = lookup(key_)
        if forgotten != _forgotten:
            # A revocation was heard during the lookup, which may have read the token before it
            # committed: used this once, as a request that came a moment earlier would have.
            return user, token
        # Never remembered past the token's own expiry (a revocation is heard through Redis).
        expires = getattr(token, "expires_at", None)
        left = (expires - timezone.now()).total_seconds() if expires is not None else float("inf")
        hit = (now + min(settings.LIVE_AUTH_CACHE_SECONDS, left), user, token)
        _tokens[key_] = hit
        if getattr(token, "pk", None) is not None:
            _token_ids[token.pk] = hit[0]
    return hit[1], hit[2]


def remembers_valid_token(token_id: int) -> bool:
    """Whether the token is still valid, known without a query: this process hears revocations,
    and read the token from the database since the last one it heard (any revocation forgets
    every token), within LIVE_AUTH_CACHE_SECONDS and the token's own expiry. A long-poll asks
    this before it delivers each move (games.api.streams.guard): the query it saves was 15% of
    the live process's time under the streams benchmark."""
    if not _hearing:
        return False
    until = _token_ids.get(token_id)
    return until is not None and until >= time.monotonic()


def forget_tokens() -> None:
    global _forgotten
    _forgotten += 1
    _tokens.clear()
    _token_ids.clear()


_listening_in: int | None = None  # the process whose thread hears revocations: a forked child starts its own


def listen_for_revocations() -> None:
    """Hear revocations in a process without an event loop (started once per process): a WSGI
    process has no hub of its own, yet its REST requests may then trust remembered tokens as an
    ASGI process's do (games.api.auth.TokenAuthentication). The very `Hub`, on an event loop of
    its own in one thread: while it is subscribed the process hears every revocation; across a
    lost connection it trusts nothing, and forgets every token when it subscribes again. gunicorn
    starts it in each of `web`'s workers (gunicorn.conf.py's post_worker_init)."""
    global _listening_in
    if _listening_in == os.getpid():
        return  # the hub never ends: it catches everything and subscribes again
    _listening_in = os.getpid()
    threading.Thread(target=asyncio.run, args=(_hub_for_ever(),), name="live-revocations", daemon=True).start()


async def _hub_for_ever() -> None:
    await (await hub()).task


def _revoked(sender=None, **kwargs) -> None:
    if kwargs.get("created"):
        return  # a new token or user takes nothing from anyone
    if kwargs.get("update_fields") == frozenset({"last_login"}):
        return  # a login changes nothing a token grants
    forget_tokens()
    transaction.on_commit(lambda: _publish([(revoked_channel(), "")]))


def connect() -> None:
    """Forget cached tokens in every process when a token is revoked or changed (its expiry
    moved) or a user changes (deactivated, deleted)."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save

    from accounts.models import AuthToken

    post_delete.connect(_revoked, sender=AuthToken, dispatch_uid="darkroom-live-token-deleted")
    post_save.connect(_revoked, sender=AuthToken, dispatch_uid="darkroom-live-token-saved")
    post_save.connect(_revoked, sender=get_user_model(), dispatch_uid="darkroom-live-user-saved")
    post_delete.connect(_revoked, sender=get_user_model(), dispatch_uid="darkroom-live-user-deleted")


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


# ---------------------------------------------------------------------------------------------
# Waiters
# ---------------------------------------------------------------------------------------------
class Flag:
    """asyncio.Event's set, clear and is_set for the one task that waits on it, and that task's
    wait with a timeout. Every open stream sleeps on one: an Event allocates a deque of 64 slots
    (about 0.8 KiB), and `asyncio.wait_for` a task around each wait, so together they were a
    tenth of what an open stream kept in `live` (docs/operations.md, "Limits of a box")."""

    __slots__ = ("_set", "_waiter")

    def __init__(self):
        self._set = False
        self._waiter: asyncio.Future | None = None

    def set(self) -> None:
        self._set = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(True)

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    async def wait(self, timeout: float) -> bool:
        """True once set (at once if it is), False when `timeout` runs out first."""
        if self._set:
            return True
        loop = asyncio.get_running_loop()
        self._waiter = waiter = loop.create_future()
        timer = loop.call_later(max(timeout, 0), _timed_out, waiter)
        try:
            return await waiter
        finally:
            timer.cancel()
            self._waiter = None


def _timed_out(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(False)


class Listener:
    """One waiter's flag, set by news on any of its channels, and when one of them is newly
    subscribed (what was published before that was not heard: the waiter reads again)."""

    def __init__(self, hub: "Hub", channels: Iterable[str]):
        self.hub, self.channels, self.flag = hub, set(), Flag()
        self.follow(channels)

    def follow(self, channels: Iterable[str], read_at: int | None = None) -> None:
        """Follow exactly these channels from now on (a user stream's games come and go).

        `read_at`: the hub's `mark()` taken before the waiter read what the new channels carry. A
        channel the hub already hears (another waiter's) is not subscribed again, so no
        confirmation wakes this waiter: news heard on it since the mark (a move committed after
        the read looked) sets the flag, or it would wait for the game's next news."""
        wanted = set(channels)
        new, gone = wanted - self.channels, self.channels - wanted
        for name in new:
            self.hub.listeners.setdefault(name, set()).add(self)
            self.channels.add(name)
            if read_at is not None and self.hub.heard_at.get(name, 0) > read_at:
                self.flag.set()
        self._drop(gone)
        if new:
            self.hub.changed()

    def _drop(self, names: Iterable[str]) -> None:
        for name in list(names):
            waiting = self.hub.listeners.get(name)
            if waiting is not None:
                waiting.discard(self)
                if not waiting:
                    del self.hub.listeners[name]
                    self.hub.left(name)
            self.channels.discard(name)

    async def ready(self, timeout: float = 2) -> bool:
        """Wait until the hub hears every channel of this waiter, so that a read made from now on
        misses no news. False if it does not within `timeout` (Redis away): the waiter then
        polls, as it would anyway."""
        return await self.hub.ready(self.channels, timeout)

    def clear(self) -> None:
        self.flag.clear()

    async def wait(self, timeout: float) -> bool:
        """True on news (or a reconnect), False when `timeout` runs out first."""
        return await self.flag.wait(timeout)

    def close(self) -> None:
        self._drop(self.channels)


class Hub:
    """The process's subscription to the live channels its waiters follow (one per event loop).

    Only those channels: a subscription to every channel had each web process parse every
    move's news, waiters or not (3% of a web process's work in the move benchmark, times the
    number of processes). A channel is subscribed when its first waiter comes, and unsubscribed
    LIVE_LINGER_SECONDS after its last waiter left, so a client that long-polls again finds
    it heard. The revocations channel is always subscribed.

    What a waiter may trust: news published after Redis confirmed its channel's subscription
    reaches the hub, until the connection or the subscription ends. `since(channel)` names that
    stretch; while it stays the same, the hub heard every announcement on the channel."""

    def __init__(self):
        self.listeners: dict[str, set[Listener]] = {}
        # The latest version announced per heard game channel since its subscription: a waiter
        # woken by news need not ask the database whether there is news.
        self.versions: dict[str, int] = {}
        # The latest writes' events per heard game channel (version -> the message's JSON).
        self.rides: dict[str, dict[int, bytes]] = {}
        # channel -> the number of its subscription, once Redis confirmed it (on this connection).
        self.heard: dict[str, int] = {}
        self.heard_from: dict[str, float] = {}  # channel -> when (monotonic) that subscription was confirmed
        # What the hub heard (news, a confirmed subscription), counted; and per channel, that count
        # when it last heard something on it (Listener.follow's `read_at`).
        self.count = 0
        self.heard_at: dict[str, int] = {}
        self.connected = asyncio.Event()
        # +1 at each (re)connection and each loss: equal epochs around a wait mean the hub
        # stayed connected in between.
        self.epoch = 0
        self.tried = asyncio.Event()  # the first connection attempt is over, whatever its outcome
        self._serial = 0
        self._asked: set[str] = set()  # subscribed (asked) on the current connection
        self._idle: dict[str, float] = {}  # channel -> when its last waiter left
        self._changed = asyncio.Event()
        self._confirmed = asyncio.Condition()
        self._commands: aioredis.Redis | None = None
        self._commanding = asyncio.Semaphore(self.COMMANDS_AT_ONCE)
        self.task = asyncio.get_running_loop().create_task(self._run())

    def listen(self, channels: Iterable[str]) -> Listener:
        return Listener(self, channels)

    def commands(self) -> aioredis.Redis:
        """This loop's client for Redis commands: take it through `commanding`."""
        if self._commands is None:
            self._commands = redis_roles.async_commands()
        return self._commands

    COMMANDS_AT_ONCE = 8

    @contextlib.asynccontextmanager
    async def commanding(self) -> AsyncIterator[aioredis.Redis]:
        """This loop's client for Redis commands (a stream's places, a user stream's followed
        games), lent to at most COMMANDS_AT_ONCE callers at once. Its pool opens a connection for
        each command in flight and keeps it: the streams opened in the same second renew their
        places in the same second of every heartbeat, and 1,000 streams had left over a hundred
        connections open, each a file and a few KiB of the process."""
        async with self._commanding:
            yield self.commands()

    @property
    def live(self) -> bool:
        return self.connected.is_set()

    def since(self, name: str) -> tuple[int, int] | None:
        """Which stretch of hearing `name` this is (None: not heard now). The same value later
        means every announcement on it in between reached the hub."""
        serial = self.heard.get(name)
        return (self.epoch, serial) if serial is not None and self.live else None

    def replica_fence(self, name: str) -> int | None:
        """The version a read of `name`'s game on the read replica must reach to miss nothing the
        hub will not announce: the latest announced, once the hub has heard the channel for
        REPLICA_PIN_SECONDS (whatever committed before it was heard is on a replica serving reads
        by then, as after a pin). None sooner, or while it is not heard: the primary, then."""
        since = self.heard_from.get(name)
        if not self.live or since is None or time.monotonic() - since < settings.REPLICA_PIN_SECONDS:
            return None
        return self.versions.get(name, 0)

    def sleep_for(self, heartbeat: float) -> float:
        """How long a waiter may sleep on its flag: till its heartbeat, or one poll while Redis is down."""
        return heartbeat if self.live else min(heartbeat, settings.LIVE_POLL_SECONDS)

    def mark(self) -> int:
        """Where the hub is in what it heard: taken before a read, given to Listener.follow after."""
        return self.count

    def _stamp(self, name: str) -> None:
        self.count += 1
        self.heard_at[name] = self.count

    def hints(self, channels: Iterable[str]) -> dict[str, int]:
        """The versions announced on these channels (a copy, for a reader on another thread); for
        a channel whose messages carry no number, how many were heard since its subscription."""
        return {name: self.versions[name] for name in channels if name in self.versions}

    def changed(self) -> None:
        self._changed.set()

    def left(self, name: str) -> None:
        self._idle[name] = time.monotonic()
        self._changed.set()

    async def ready(self, channels: Iterable[str], timeout: float) -> bool:
        names = set(channels)
        async with self._confirmed:
            try:
                await asyncio.wait_for(
                    self._confirmed.wait_for(lambda: not self.live or names <= self.heard.keys()), timeout
                )
            except asyncio.TimeoutError:
                pass
        return self.live and names <= self.heard.keys()

    async def _tell_confirmed(self) -> None:
        async with self._confirmed:
            self._confirmed.notify_all()

    def _wake(self, name: str | None = None) -> None:
        groups = [self.listeners.get(name, ())] if name is not None else list(self.listeners.values())
        for group in groups:
            for listener in group:
                listener.flag.set()

    def _forget(self, names: Iterable[str]) -> None:
        for name in names:
            self.heard.pop(name, None)
            self.heard_from.pop(name, None)
            self.heard_at.pop(name, None)
            self.versions.pop(name, None)
            self.rides.pop(name, None)

    RIDES_KEPT = 16

    def remember_ride(self, name: str, version: int, riding: bytes) -> None:
        kept = self.rides.setdefault(name, {})
        kept[version] = riding
        if len(kept) > self.RIDES_KEPT:
            del kept[min(kept)]

    def rides_of(self, name: str) -> dict[int, bytes]:
        """The writes heard on a game's channel since its subscription, by version (the latest
        few): what games.api.streams.tails reads instead of the database."""
        return self.rides.get(name, {})

    async def _manage(self, pubsub) -> None:
        """Subscribe the channels that gained a waiter; unsubscribe those idle past the linger."""
        try:
            while True:
                self._changed.clear()
                linger, now = settings.LIVE_LINGER_SECONDS, time.monotonic()
                for name in [n for n in self._idle if n in self.listeners or n not in self._asked]:
                    del self._idle[name]
                wanted = set(self.listeners) - self._asked
                gone = {name for name, left in self._idle.items() if now - left >= linger}
                if wanted:
                    self._asked |= wanted
                    await pubsub.subscribe(*sorted(wanted))
                if gone:
                    for name in gone:
                        del self._idle[name]
                    self._asked -= gone
                    self._forget(gone)  # from now on not heard: nothing about them is trusted
                    await pubsub.unsubscribe(*sorted(gone))
                due = min(self._idle.values(), default=None)
                try:
                    await asyncio.wait_for(
                        self._changed.wait(), None if due is None else max(0.0, due + linger - time.monotonic())
                    )
                except asyncio.TimeoutError:
                    pass
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the reader must notice: drop the connection, it reconnects
            log.warning("live updates: changing the subscription failed (%s); reconnecting", error)
            if pubsub.connection is not None:
                await pubsub.connection.disconnect()

    def _heard_subscription(self, name: str) -> bool:
        """A channel's subscription confirmed. False when it was confirmed before on this
        connection: redis-py reconnected by itself, and what was published meanwhile is lost."""
        again = name in self.heard
        if name in self._asked:
            self._serial += 1
            self.heard[name] = self._serial
            self.heard_from[name] = time.monotonic()
            self._stamp(name)
            self._wake(name)  # what its waiters read before now may have missed news
        return not again

    async def _run(self) -> None:
        backoff = 0.2
        revoked = revoked_channel()
        while True:
            conn = redis_roles.async_subscriber()
            pubsub = conn.pubsub()
            manager = None
            try:
                await pubsub.subscribe(revoked)
                confirmed = await pubsub.get_message(timeout=2)  # in place once Redis confirms it
                if confirmed is None or confirmed["type"] != "subscribe":
                    raise redis.ConnectionError("no confirmation of the subscription")
                forget_tokens()  # a revocation may have been missed too
                self.epoch += 1
                self.connected.set()
                _hearing.add(id(self))
                self.tried.set()
                came_back("live updates")
                backoff = 0.2
                self._wake()  # news may have been missed while we were away
                await self._tell_confirmed()
                manager = asyncio.get_running_loop().create_task(self._manage(pubsub))
                while True:
                    message = await pubsub.get_message(timeout=30)
                    if message is None:
                        continue
                    name = message["channel"].decode()
                    if message["type"] == "message":
                        if name == revoked:
                            forget_tokens()
                        elif name in self.heard and message["data"].partition(b" ")[0].isdigit():
                            head, _, riding = message["data"].partition(b" ")
                            self.versions[name] = max(int(head), self.versions.get(name, 0))
                            if riding:
                                self.remember_ride(name, int(head), riding)
                        elif name in self.heard:  # no number (a user's news): how many were heard
                            self.versions[name] = self.versions.get(name, 0) + 1
                        self._stamp(name)
                        self._wake(name)
                    elif message["type"] == "subscribe":
                        if name == revoked or not self._heard_subscription(name):
                            raise redis.ConnectionError("resubscribed after a silent reconnection")
                        await self._tell_confirmed()
                    elif message["type"] == "unsubscribe":
                        self._forget([name])
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError) as error:
                went_down("live updates", error)
            except Exception:  # never let the hub die: waiters would all fall back to polling
                log.exception("live updates: the subscription failed")
            finally:
                if manager is not None:
                    manager.cancel()
                _hearing.discard(id(self))
                was_live = self.connected.is_set()
                if was_live:
                    self.epoch += 1
                self.connected.clear()
                # Nothing is heard until the next connection subscribes again, and what is
                # announced meanwhile is unknown.
                self._asked, self._idle = set(), {}
                self.heard.clear()
                self.heard_from.clear()
                self.heard_at.clear()
                self.versions.clear()
                self.rides.clear()
                self.tried.set()
                if was_live:
                    self._wake()  # switch every waiter to polling now
                try:
                    await pubsub.aclose()
                    await conn.aclose()
                except Exception:
                    pass
            await self._tell_confirmed()  # ready() stops waiting: not live
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, settings.LIVE_POLL_SECONDS)


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


async def hub() -> Hub:
    """This event loop's hub, started on first use (waiting briefly for its first connection)."""
    loop = asyncio.get_running_loop()
    current = _hubs.get(loop)
    if current is None or current.task.done():
        current = _hubs[loop] = Hub()
    if not current.tried.is_set():
        try:
            await asyncio.wait_for(current.tried.wait(), 2)
        except asyncio.TimeoutError:
            pass
    return current
