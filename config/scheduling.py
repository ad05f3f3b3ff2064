"""Work handed to the Celery worker by task name, and claims that keep work from being sent twice.

This sits below every app's use cases: accounts.services and games' services (through
games.play.scheduling, which builds wakes and deliveries on it) call it; the worker's tasks
(accounts.tasks, games.tasks) call the services. Tasks are sent by name through the Celery app, so
nothing on a write path imports a tasks module and `tasks -> services` stays the only arrow between
the worker's side and the rest.
"""

from __future__ import annotations

import logging
from datetime import datetime

import redis

from config import redis as redis_roles
from config.celery import app
from config.keys import deployment_key

log = logging.getLogger(__name__)


def client() -> redis.Redis:
    """The process's Redis client for claims (config.redis's `publisher`): one SET each, so quick
    to give up when Redis is down."""
    return redis_roles.publisher()


def claim_key(key: str) -> str:
    # The name claims had under games.realtime.live ("<prefix>:live:once:<key>"), so claims taken
    # before an upgrade still hold after it.
    return deployment_key("live", "once", key)


def once(key: str, ttl: float) -> bool:
    """True the first time `key` is claimed within `ttl`; if Redis is unreachable, True anyway:
    a duplicate task is harmless (every task is idempotent)."""
    try:
        # Under this deployment's prefix: two deployments (or test runs) sharing a Redis must not
        # take each other's claims, or one's wake would never be sent.
        return bool(client().set(claim_key(key), 1, nx=True, ex=max(1, int(ttl) + 1)))
    except redis.RedisError:
        return True


def send(name: str, args: list, eta: datetime | None = None) -> bool:
    try:
        app.send_task(name, args=args, eta=eta)
        return True
    except Exception:  # broker down: the sweeper finds the work all the same
        log.warning("could not send task %s%s", name, args, exc_info=True)
        return False
