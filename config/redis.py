"""Redis connections, one factory per role: every client this project makes comes from here.

A process talks to Redis for four reasons, each with its own needs:

- `cache()`: the Django cache's connection (django-redis, CACHES["default"]), also used for the
  engine states (games.play.statecache) and throttling. Quick to give up: a read that waits on a
  stalled Redis would hold a request.
- `publisher()`: live news published after commit, stream tickets, task claims. Short commands,
  so short timeouts: a stalled Redis costs a request at most `SHORT_TIMEOUT` seconds, then the
  write carries on without it (readers poll the database meanwhile).
- `async_subscriber()` (`subscriber()`, its sync twin): a fresh connection for the live hub's
  long-lived pub/sub subscription (games' and users' news, revocations). No socket timeout (a
  quiet channel is not an error); a health check every `HEALTH_CHECK_SECONDS` finds a dead
  connection instead. `async_commands()` is the hub's client for short commands from its loop.
- `broker()`: Celery's broker, as a kombu connection (the queue depth in `/metrics`).

Pub/sub channels belong to a Redis *server* (not to one of its numbered databases), and the news
travels two ways: published with the states on the cache's connection (one round trip per move,
games.play.statecache) and on `publisher()`'s, subscribed on `async_subscriber()`'s. So the cache
(`CACHE_URL`) and the live updates (`REDIS_URL`) must name the same server; `manage.py check`
says so (darkroom.E001) when they do not. Another database number on that server is fine.

Every factory reads the settings when called, so a test's `settings` fixture changes every role
in one place. With REDIS_SENTINELS set (docs/operations.md#redis-sentinel) every factory asks the
Sentinels where the master REDIS_SENTINEL_MASTER is (redis-py's, django-redis's and kombu's own
Sentinel support), and asks again whenever a connection to it fails: after a failover each role
reconnects to the new master by itself. The URLs then say only the database number.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import redis
import redis.asyncio as aioredis
import redis.asyncio.sentinel as aiosentinel
import redis.sentinel
from redis.backoff import NoBackoff
from redis.retry import Retry
from django.conf import settings
from django.core import checks

from config import redis_urls

SHORT_TIMEOUT = 1.0
CONNECT_TIMEOUT = 0.5
HEALTH_CHECK_SECONDS = 10

_publisher: tuple[tuple, redis.Redis] | None = None


def sentinels() -> list[tuple[str, int]]:
    return list(getattr(settings, "REDIS_SENTINELS", None) or [])


def _sentinel_kwargs(timeout: float) -> dict:
    """How this process talks to the Sentinels themselves: quick to give up on one (the next is
    asked)."""
    return {"socket_timeout": timeout, "socket_connect_timeout": min(timeout, CONNECT_TIMEOUT)}


def _client(url: str, **kwargs) -> redis.Redis:
    """A sync client for `url`'s database: on the master the Sentinels name, if any."""
    if not sentinels():
        return redis.Redis.from_url(url, **kwargs)
    manager = redis.sentinel.Sentinel(sentinels(), sentinel_kwargs=_sentinel_kwargs(SHORT_TIMEOUT))
    return manager.master_for(
        settings.REDIS_SENTINEL_MASTER,
        db=redis_urls.database(url),
        password=urlsplit(url.split(";")[0]).password,
        **kwargs,
    )


def _async_client(url: str, **kwargs) -> aioredis.Redis:
    if not sentinels():
        return aioredis.Redis.from_url(url, **kwargs)
    manager = aiosentinel.Sentinel(sentinels(), sentinel_kwargs=_sentinel_kwargs(SHORT_TIMEOUT))
    return manager.master_for(
        settings.REDIS_SENTINEL_MASTER, db=redis_urls.database(url), password=urlsplit(url).password, **kwargs
    )


def live_url() -> str:
    """The Redis of the live updates (REDIS_URL): news, tickets, claims."""
    return settings.REDIS_URL


def cache_url() -> str:
    """The Redis of the Django cache (CACHE_URL, by default REDIS_URL)."""
    return settings.CACHES["default"]["LOCATION"]


def cache() -> redis.Redis:
    """The cache's own connection (django-redis's documented `get_redis_connection`), with the
    timeouts of CACHES["default"]["OPTIONS"]."""
    from django_redis import get_redis_connection

    return get_redis_connection("default")


def publisher() -> redis.Redis:
    """The process's client for short commands on the live Redis: publishing news, tickets,
    claims. One per process (redis-py pools its connections and is thread-safe); made anew if
    REDIS_URL changed. One retry at once (a connection Redis dropped), no backoff: a write never
    waits more than about twice SHORT_TIMEOUT on Redis."""
    global _publisher
    key = (live_url(), tuple(sentinels()))
    if _publisher is None or _publisher[0] != key:
        _publisher = (
            key,
            _client(
                live_url(),
                socket_connect_timeout=CONNECT_TIMEOUT,
                socket_timeout=SHORT_TIMEOUT,
                retry=Retry(NoBackoff(), 1),
            ),
        )
    return _publisher[1]


def subscriber() -> redis.Redis:
    """A new sync client for one long-lived subscription (the caller closes it)."""
    return _client(live_url(), socket_connect_timeout=SHORT_TIMEOUT, health_check_interval=HEALTH_CHECK_SECONDS)


def async_subscriber() -> aioredis.Redis:
    """A new asyncio client for one long-lived subscription (the caller closes it)."""
    return _async_client(live_url(), socket_connect_timeout=SHORT_TIMEOUT, health_check_interval=HEALTH_CHECK_SECONDS)


def async_commands() -> aioredis.Redis:
    """A new asyncio client for short commands on the live Redis from an event loop (what an open
    user stream follows); one per loop, kept by its hub."""
    return _async_client(
        live_url(), socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=SHORT_TIMEOUT, retry=Retry(NoBackoff(), 1)
    )


def probe(url: str, timeout: float) -> redis.Redis:
    """A throwaway client for one health check of `url` (the caller closes it)."""
    return _client(url, socket_connect_timeout=timeout, socket_timeout=timeout)


def broker():
    """A kombu connection to Celery's broker that gives up within a second or two: the caller
    (a scrape) reports the broker down rather than wait for it. Use it in a `with` block."""
    from config.celery import app

    return app.connection_for_read(
        settings.CELERY_BROKER_URL,
        connect_timeout=SHORT_TIMEOUT,
        transport_options={
            **settings.CELERY_BROKER_TRANSPORT_OPTIONS,
            "max_retries": 0,
            "socket_timeout": SHORT_TIMEOUT,
            "socket_connect_timeout": SHORT_TIMEOUT,
        },
    )


def server(url: str) -> tuple[str, str]:
    """Where a redis:// URL's server is: (host:port, or the socket path), the database aside."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return ("unix", parts.path)
    return (parts.hostname or "localhost", str(parts.port or 6379))


@checks.register(checks.Tags.caches)
def news_on_one_server(app_configs, **kwargs):
    """The news is published on the cache's connection and heard on REDIS_URL's: both must be one
    Redis server, or every stream goes silent without an error."""
    cache_at, live_at = cache_url(), live_url()
    if sentinels():
        return []  # every role on the master the Sentinels name
    if not isinstance(cache_at, str) or not cache_at.startswith(("redis://", "rediss://", "unix://")):
        return []  # not a Redis cache (tests may use another): nothing is published through it
    if server(cache_at) == server(live_at):
        return []
    return [
        checks.Error(
            f"CACHE_URL ({cache_at}) and REDIS_URL ({live_at}) name different Redis servers: moves' "
            "news is published on the cache's and heard on REDIS_URL's, so live updates would never "
            "arrive",
            hint="point CACHE_URL at the same server as REDIS_URL (another database number is fine), "
            "or leave CACHE_URL unset",
            id="darkroom.E001",
        )
    ]
