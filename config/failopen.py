"""Redis is a helper, never a gate: when it is unreachable the cache answers "nothing cached" and
writes go nowhere, so throttling (DRF keeps its history in the cache) and state caching fail open
and every endpoint still answers. An outage is logged once when it starts and once when it ends,
not once per request.
"""
from __future__ import annotations

import logging
import threading
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger("darkroom.redis")
_lock = threading.Lock()
_down: set[str] = set()


def went_down(what: str, error: BaseException) -> None:
    with _lock:
        if what in _down:
            return
        _down.add(what)
    log.warning("redis unreachable for %s (%s); failing open until it is back", what, error)


def came_back(what: str) -> None:
    if what not in _down:  # the common case, without the lock
        return
    with _lock:
        if what not in _down:
            return
        _down.discard(what)
    log.warning("redis reachable again for %s", what)


def is_down(what: str) -> bool:
    return what in _down


# What each cache call answers while Redis is away: a miss, or "nothing happened".
_FALLBACK: dict[str, Any] = {
    "get": None, "get_many": {}, "has_key": False, "add": False, "set": None, "set_many": [],
    "touch": False, "delete": False, "delete_many": None, "clear": False,
}


class _FailOpenClient:
    def __init__(self, client):
        self._client = client

    def __getattr__(self, name):
        method = getattr(self._client, name)
        if name not in _FALLBACK and name != "incr":
            return method

        def call(*args, **kwargs):
            try:
                result = method(*args, **kwargs)
            except redis.RedisError as error:
                went_down("cache", error)
                if name == "incr":
                    raise ValueError("the cache is unreachable") from error
                if name == "get":
                    return kwargs.get("default", args[1] if len(args) > 1 else None)
                fallback = _FALLBACK[name]
                return fallback.copy() if isinstance(fallback, (dict, list)) else fallback
            came_back("cache")
            return result

        return call


# One client (so one connection pool) per process and cache configuration. Django keeps a cache
# object per thread, and under ASGI every request runs on a thread of its own: with a client per
# cache object each request opened a fresh TCP connection to Redis (profiled: an eighth of the
# server's time under the move benchmark). redis-py's pool is thread-safe and fork-aware.
_clients: dict[tuple, _FailOpenClient] = {}


class _ReusedClient(RedisCacheClient):
    """Django builds a new `redis.Redis` for every cache call (`get_client`), and each build copies
    its ~170 response callbacks: profiled at a tenth of a millisecond per call, 14 calls per move
    loop. A client is a thin handle on the pool, safe to share: keep one per pool."""

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self.__dict__.setdefault("_by_pool", {}).get(id(pool))
        if client is None:
            client = self.__dict__["_by_pool"][id(pool)] = self._client(connection_pool=pool)
        return client


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, answering a miss instead of raising while Redis is down."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ReusedClient

    @property
    def _cache(self):
        client = self.__dict__.get("_failopen_client")
        if client is None:
            key = (tuple(self._servers), repr(sorted(self._options.items())), self._class)
            with _lock:
                client = _clients.get(key)
                if client is None:
                    client = _clients[key] = _FailOpenClient(self._class(self._servers, **self._options))
            self.__dict__["_failopen_client"] = client
        return client
