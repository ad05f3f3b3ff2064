"""Waiters sleep on Redis pub/sub without a thread: the process's `Hub`.

Waiters (async: streams and long-polls) register with the process's `Hub`, one Redis connection
per process subscribed to the channels its waiters follow (games.realtime.channels), which sets
the waiters' flags (games.realtime.waiters). A waiter waits until its channels are heard
(`Listener.ready`), clears its flag, reads the database (games.realtime.threads.run_sync), sends
what it read, then sleeps on the flag: a publish after the clear sets it again, so no news falls
between the read and the sleep.

While the hub hears a channel (its `since` unchanged), every commit since a read reaches it, so a
waiter that was not woken has nothing new to read: heartbeats and the start of a long-poll on a
channel already heard need no query, and a waiter woken by news learns the game's new version
from the message (games.realtime.news).

Redis down: waiters poll the database every LIVE_POLL_SECONDS. The hub reconnects by itself and
wakes every waiter when it does, since it may have missed messages meanwhile; it also hears the
revocations channel and makes the process forget its remembered tokens (games.realtime.tokens).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
import weakref
from typing import AsyncIterator, Iterable

import redis
import redis.asyncio as aioredis
from django.conf import settings

from config import redis as redis_roles
from config.outages import came_back, went_down
from games.realtime import tokens
from games.realtime.channels import revoked_channel
from games.realtime.waiters import Flag

log = logging.getLogger(__name__)


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
                tokens.forget_tokens()  # a revocation may have been missed too
                self.epoch += 1
                self.connected.set()
                tokens.hears(id(self))
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
                            tokens.forget_tokens()
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
                tokens.deaf(id(self))
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
