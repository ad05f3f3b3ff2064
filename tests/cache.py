"""The test suite's cache: Redis through django-redis, like production, but `clear()` empties only
this run's keys.

Redis is shared by every test run on the machine (and by the Celery broker): clear() is a FLUSHDB,
which would wipe other runs' cached states and queued timer tasks mid-benchmark. `delete_pattern`
is django-redis's own documented call."""

from django_redis.cache import RedisCache


class RunOnlyRedisCache(RedisCache):
    def clear(self) -> bool:
        self.delete_pattern("*", itersize=1000)
        return True
