"""Request throttling in one Redis round trip.

DRF's throttles keep each caller's recent request times as a list in the cache: a read and a
write per request, and both the anonymous and the per-user throttle look at every anonymous
request. Profiled under the move benchmark, that was 15% of the web server's samples. These count
requests in fixed windows instead (INCR, set the window's expiry if new, read what is left of it:
one pipeline). A window boundary can let through up to twice the rate in a short span; the limits
are abuse guards, not quotas, so that is a fair price.

Redis down: the request is allowed (failing open, as the cache does with IGNORE_EXCEPTIONS).
"""

from __future__ import annotations

import redis
from django.core.cache import cache
from rest_framework.throttling import (
    AnonRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

from config import redis as redis_roles
from config.outages import came_back, went_down


def hit(key: str, window: int) -> tuple[int, int]:
    """Count one request against `key` in its current window: (requests so far, seconds left)."""
    client = redis_roles.cache()
    pipe = client.pipeline(transaction=False)
    name = cache.make_and_validate_key(key)
    pipe.incr(name)
    pipe.expire(name, window, nx=True)
    pipe.ttl(name)
    count, _, left = pipe.execute()
    return count, left


class WindowThrottle(SimpleRateThrottle):
    left = 0

    def allow_request(self, request, view):
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        try:
            count, self.left = hit(self.key, self.duration)
        except redis.RedisError as error:
            went_down("cache", error)
            return True
        came_back("cache")
        return count <= self.num_requests

    def wait(self):
        # The error handler answers Retry-After = int(wait) + 1: that is the window's seconds left.
        return max(0, self.left - 1)


class AnonWindowThrottle(WindowThrottle, AnonRateThrottle):
    pass


class UserWindowThrottle(WindowThrottle, UserRateThrottle):
    pass
