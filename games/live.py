"""Long-polling: a reader waits for a game's version to pass N.

After each commit the writer publishes the new version on a Redis channel; a waiter subscribes,
then checks the database (the truth), then sleeps on the channel. Subscribing before the check
means a publish between the two cannot be missed. Redis down degrades to a plain poll.
"""
from __future__ import annotations

import logging
import time

import redis
from django.conf import settings
from django.db import transaction

from games.models import Game

log = logging.getLogger(__name__)
MAX_WAIT_SECONDS = 30
_client: redis.Redis | None = None


def client() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=MAX_WAIT_SECONDS + 5)
    return _client


def channel(game_id) -> str:
    return f"darkroom:game:{game_id}"


def announce(game_id, version: int) -> None:
    """Tell waiters once the current transaction commits (never about a rolled-back write)."""
    def publish():
        try:
            client().publish(channel(game_id), str(version))
        except redis.RedisError:
            log.warning("could not announce version %s of game %s", version, game_id)
    transaction.on_commit(publish)


def current_version(game_id) -> int:
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first() or 0


def wait_for_version(game_id, after: int, timeout: float) -> int:
    """Return as soon as the game's version exceeds `after`, or when `timeout` runs out."""
    deadline = time.monotonic() + min(max(timeout, 0), MAX_WAIT_SECONDS)
    try:
        pubsub = client().pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(channel(game_id))
    except redis.RedisError:
        pubsub = None
    try:
        while True:
            version = current_version(game_id)
            left = deadline - time.monotonic()
            if version > after or left <= 0:
                return version
            if pubsub is None:
                time.sleep(min(0.5, left))
            else:
                pubsub.get_message(timeout=min(1.0, left))
    finally:
        if pubsub is not None:
            pubsub.close()
