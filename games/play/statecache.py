"""Engine states by game and version: this process's memory first, then Redis.

A committed (game, version) has one state forever (versions only grow; a rollback is a new event),
so a copy kept in memory is never stale and needs no invalidation. The move loop reads the same
state three times (the game, its legal moves, the move); profiled, each read through Django's
cache (a Redis GET, the key checks, unpickling) cost about 0.15 ms of the web server's CPU.
States are kept as their JSON text (UTF-8 bytes, as config.jsoncodec writes them and Redis gives
them back), so every reader parses its own copy to change.

Only committed states enter either layer: writers call `put_after_commit`, which also carries the
write's live announcements (games.realtime.news), so a move pays one Redis round trip after commit, not
one for its state and one for its news. Redis is a helper here as everywhere: while it is away a
read is a miss (the state is loaded from the database) and a write goes to memory only.

Memory is cachetools' LRUCache of STATE_MEMORY_ENTRIES; Redis is the cache's own (django-redis's
connection to the "default" cache, with its quick timeouts), as raw keys holding the JSON text: the
Django cache API would pickle every state again, the cost this module exists to avoid. The news
goes out on that connection too, which is right because the cache and the live updates share a
Redis server (`manage.py check` refuses settings that split them: config.redis).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import redis
from cachetools import LRUCache
from django.conf import settings
from django.db import transaction

from config import redis as redis_roles
from config.keys import deployment_key
from config.outages import came_back, went_down

TTL_SECONDS = 3600
WHAT = "state cache"

CACHE_ALIAS = "default"

_memory: LRUCache = LRUCache(maxsize=1024)
_lock = threading.Lock()


def key(game_id, version: int) -> str:
    return f"state:{game_id}:{version}"


def client() -> redis.Redis:
    """The Django cache's Redis connection (config.redis's `cache`): quick to give up
    (SOCKET_TIMEOUT in CACHES), so a read does not hang on a Redis that is away."""
    return redis_roles.cache()


def shared_key(name: str) -> str:
    """The Redis key: under the deployment's prefix, as the cache's and the live channels' are."""
    return deployment_key(name)


# -- memory ---------------------------------------------------------------------------------------
def _capacity() -> int:
    return getattr(settings, "STATE_MEMORY_ENTRIES", 1024)


def _sized() -> LRUCache:
    """The memory, made anew (empty) when STATE_MEMORY_ENTRIES changed: an LRUCache's size is
    fixed. Called with the lock held."""
    global _memory
    capacity = max(_capacity(), 0)
    if _memory.maxsize != capacity:
        _memory = LRUCache(maxsize=capacity)
    return _memory


def _remember(entries: dict[str, bytes]) -> None:
    if _capacity() <= 0:
        return
    with _lock:
        memory = _sized()
        for name, text in entries.items():
            memory[name] = text  # the least recently used go once it is full


def _recall(name: str) -> bytes | None:
    with _lock:
        return _sized().get(name)  # a hit counts as a use


def in_memory(name: str) -> bytes | None:
    return _recall(name)


def forget_all_in_memory() -> None:
    with _lock:
        _memory.clear()


# -- both layers ----------------------------------------------------------------------------------
def get(name: str) -> bytes | None:
    """The state's JSON text, or None (then the caller loads it from the database)."""
    text = _recall(name)
    return text if text is not None else _from_redis([name]).get(name)


def get_many(names: Iterable[str]) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    missing = []
    for name in names:
        text = _recall(name)
        if text is None:
            missing.append(name)
        else:
            found[name] = text
    if missing:
        found.update(_from_redis(missing))
    return found


def _from_redis(names: list[str]) -> dict[str, bytes]:
    """What Redis holds of these states (then kept in memory too); nothing while it is away."""
    try:
        values = client().mget([shared_key(name) for name in names])
    except redis.RedisError as error:
        went_down(WHAT, error)
        return {}
    came_back(WHAT)
    # bytes: the cache's connection never decodes replies (redis-py's types allow str too).
    shared = {name: value for name, value in zip(names, values) if isinstance(value, bytes)}
    _remember(shared)
    return shared


def put_after_commit(entries: dict[str, bytes], messages: list[tuple[str, str]] | None = None) -> None:
    """Once the current transaction commits (a rolled-back write's state must never be found):
    keep these states in both layers and publish `messages` (channel, payload), in one pipeline.
    `messages` is read at commit: what is added to the list before then is published too."""
    if not entries and messages is None:
        return
    messages = [] if messages is None else messages

    def put() -> None:
        _remember(entries)
        if not entries and not messages:
            return
        try:
            with client().pipeline(transaction=False) as pipe:
                for name, text in entries.items():
                    pipe.set(shared_key(name), text, ex=TTL_SECONDS)
                for channel, payload in messages:
                    pipe.publish(channel, payload)
                pipe.execute()
        except redis.RedisError as error:
            went_down(WHAT, error)
            if messages:
                went_down("live updates", error)  # readers fall back to polling and miss nothing
        else:
            came_back(WHAT)
            if messages:
                came_back("live updates")

    transaction.on_commit(put)


def forget(game_id, version: int) -> None:
    """Drop one state from both layers (tests and benchmarks that measure a cold load)."""
    name = key(game_id, version)
    with _lock:
        _memory.pop(name, None)
    try:
        client().delete(shared_key(name))
    except redis.RedisError as error:
        went_down(WHAT, error)


def shared(name: str) -> bytes | None:
    """What Redis holds for this state (tests: what the other processes would find)."""
    value = client().get(shared_key(name))
    return value if isinstance(value, bytes) else None
