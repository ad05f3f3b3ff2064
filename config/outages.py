"""Redis is a helper, never a gate: the cache (django-redis, DJANGO_REDIS_IGNORE_EXCEPTIONS),
throttling, the state cache and live updates fail open while it is away, and every endpoint still
answers. An outage is logged once when it starts and once when it ends, not once per request.
"""

from __future__ import annotations

import logging
import threading

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
