"""The test suite's cache: Redis, like production, but `clear()` empties only this run's keys.

Redis is shared by every test run on the machine (and by the Celery broker): Django's clear() is a
FLUSHDB, which would wipe other runs' cached states and queued timer tasks mid-benchmark."""
from config.failopen import FailOpenRedisCache


class RunOnlyRedisCache(FailOpenRedisCache):
    def clear(self) -> bool:
        client = self._cache.get_client(None, write=True)
        keys = list(client.scan_iter(match=self.make_key("*"), count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start:start + 1000])
        return True
