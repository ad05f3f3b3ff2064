"""A fair share of the push worker (docs/time-and-notifications.md, "Fair share").

A delivery holds a push worker process for as long as the slowest of its player's push services
takes to answer, up to PUSH_DEADLINE_SECONDS. A player whose browsers' push services hang (or a
player who registered endpoints that hang on purpose) would otherwise hold every process, one
delivery each, and everyone else's pushes would wait behind them. So, before a delivery is
claimed:

- a player has one delivery in flight at a time: the next waits for it (not in a process: it is
  put back, due when the one in flight is over);
- a player whose attempts lately took half of PUSH_DEADLINE_SECONDS or more (each attempt's
  time averaged with the ones before it, the latest counting half) is *slow*: the slow players
  share one lane, one delivery at a time among them, and wait for it the same way. One attempt
  that hung makes a player slow; two quick ones make them quick again.

The other players' deliveries therefore find a free process whenever the worker has one more
process than there are slow players newly found out; the Procfile's push line runs four. Redis
unreachable: every delivery is let through (as before; the limits are the deadline and the lease).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import redis
from django.conf import settings

from config.keys import deployment_key
from config.scheduling import client


@dataclass(frozen=True)
class Pass:
    """Admitted: the slots held, to give back when the attempt is over."""

    keys: tuple[str, ...]
    token: str


def _busy_key(user_id: int) -> str:
    return deployment_key("push", "busy", user_id)


def _slow_key() -> str:
    return deployment_key("push", "slow")


def _used_key() -> str:
    return deployment_key("push", "used")


def used(user_id: int) -> float:
    """How long the player's attempts take, in seconds: each attempt's duration averaged with the
    ones before it, the latest counting half."""
    raw = client().hget(_used_key(), str(user_id))
    return float(raw) if raw else 0.0


def charge(user_id: int, seconds: float) -> None:
    """Count an attempt that held a process for `seconds`. Read and written apart: two attempts
    of one player never run at once (its slot), so nothing is lost."""
    try:
        pipe = client().pipeline()
        pipe.hset(_used_key(), str(user_id), f"{(used(user_id) + seconds) / 2:.4f}")
        pipe.expire(_used_key(), 24 * 3600)
        pipe.execute()
    except redis.RedisError:
        pass


def slow(user_id: int) -> bool:
    """A player whose attempts lately took half the deadline or more."""
    return used(user_id) >= settings.PUSH_DEADLINE_SECONDS / 2


def _wait(key: str) -> float:
    """Seconds until the slot `key` is free (its holder's lease), at least a tenth of a second."""
    left = client().pttl(key)
    return max(0.1, (left if left and left > 0 else 100) / 1000)


def admit(user_id: int, lease_seconds: float) -> Pass | float:
    """A Pass if the player's delivery may be attempted now, else how many seconds it should wait.
    Each slot is held no longer than the attempt's lease, so a worker that dies frees it."""
    token = secrets.token_hex(8)
    ttl = max(1, int(lease_seconds + 1))
    try:
        busy = _busy_key(user_id)
        if not client().set(busy, token, nx=True, ex=ttl):
            return _wait(busy)
        if not slow(user_id):
            return Pass((busy,), token)
        if not client().set(_slow_key(), token, nx=True, ex=ttl):
            wait = _wait(_slow_key())
            release(Pass((busy,), token))
            return wait
        return Pass((busy, _slow_key()), token)
    except redis.RedisError:
        return Pass((), token)


# Deletes each key only if it still holds this pass's token: a slot whose lease ran out and was
# taken by another delivery is not freed by the late one.
_RELEASE = """
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then redis.call('del', key) end
end
return 0
"""


def release(held: Pass) -> None:
    if not held.keys:
        return
    try:
        client().eval(_RELEASE, len(held.keys), *held.keys, held.token)
    except redis.RedisError:
        pass
