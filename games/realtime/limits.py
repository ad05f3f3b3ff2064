"""How many streams and long-polls a caller holds open at once, counted across every process.

Each open channel holds a place in a Redis sorted set per limit it counts against (its user's
streams, its address's streams, its user's long-polls, its user's long-polls of one game): the
member is the channel's own id, the score when its lease runs out. A place is taken by adding it
and counting, in one transaction, and given back if that went past the limit, so two opening at
once never both get the last place. A stream renews its lease while it is open
(`LEASE_SECONDS`, renewed every heartbeat); a process that dies leaves leases that run out by
themselves. Redis away: nothing is counted and every channel is let through (live updates then
poll the database anyway).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop
import math
import time
import uuid
from dataclasses import dataclass, field

import redis
from django.conf import settings

from games.errors import Throttled
from games.realtime import channels, hub, waiters

LEASE_SECONDS = 60  # a stream's place, renewed at every heartbeat (LIVE_HEARTBEAT_SECONDS, 15)


@dataclass
class Places:
    """The places one open channel holds: given back with `release` (or `arelease` on a loop)."""

    keys: list[str]
    member: str = field(default_factory=lambda: uuid.uuid4().hex)
    renewed: float = field(default_factory=time.monotonic)

    def release(self) -> None:
        try:
            with channels.client().pipeline(transaction=False) as pipe:
                for key in self.keys:
                    pipe.zrem(key, self.member)
                pipe.execute()
        except redis.RedisError:
            pass  # the lease runs out by itself

    async def arelease(self) -> None:
        async with (await hub.hub()).commanding() as commands, commands.pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zrem(key, self.member)
            await pipe.execute()

    async def renew(self) -> None:
        """Keep the places while the stream stays open (at most once a heartbeat)."""
        if time.monotonic() - self.renewed < settings.LIVE_HEARTBEAT_SECONDS:
            return
        self.renewed = time.monotonic()
        until = time.time() + LEASE_SECONDS
        async with (await hub.hub()).commanding() as commands, commands.pipeline(transaction=False) as pipe:
            for key in self.keys:
                pipe.zadd(key, {self.member: until}, xx=True)
                pipe.expire(key, LEASE_SECONDS + 60)
            await pipe.execute()


def _take(limits: list[tuple[str, int]], lease: float, refusal: str) -> Places:
    places = Places([key for key, _ in limits])
    now = time.time()
    try:
        with channels.client().pipeline(transaction=True) as pipe:
            for key, _ in limits:
                pipe.zremrangebyscore(key, "-inf", now)
                pipe.zadd(key, {places.member: now + lease})
                pipe.zcard(key)
                pipe.zrange(key, 0, 0, withscores=True)
                pipe.expire(key, int(lease) + 60)
            answers = pipe.execute()
    except redis.RedisError:
        return Places([])  # not counted: nothing to give back
    for (key, most), at in zip(limits, range(0, len(answers), 5)):
        count, oldest = answers[at + 2], answers[at + 3]
        if count > most:
            places.release()
            wait = max(1, min(LEASE_SECONDS, math.ceil(oldest[0][1] - now))) if oldest else LEASE_SECONDS
            raise Throttled(gettext(refusal) % {"most": most}, retry_after=wait, most=most)
    return places


def take_stream(user_id: int, address: str | None) -> Places:
    """A place for a new stream of this user, from this address; 429 past either limit."""
    limits = [(channels.key("streams", "user", user_id), settings.LIVE_STREAMS_PER_USER)]
    if address:
        limits.append((channels.key("streams", "address", address), settings.LIVE_STREAMS_PER_ADDRESS))
    return _take(
        limits, LEASE_SECONDS, gettext_noop("too many open streams: at most %(most)s; close one, or try again later")
    )


def take_long_poll(caller: str, game_id, wait: float) -> Places:
    """A place for a long-poll of this caller (`user:<id>`, or `address:<ip>` for an anonymous
    one) on this game, for as long as it may wait."""
    limits = [
        (channels.key("polls", caller), settings.LIVE_POLLS_PER_USER),
        (channels.key("polls", caller, "game", game_id), settings.LIVE_POLLS_PER_USER_GAME),
    ]
    return _take(
        limits,
        min(wait, waiters.MAX_WAIT_SECONDS) + 10,
        gettext_noop("too many open long-polls: at most %(most)s; close one, or try again later"),
    )
