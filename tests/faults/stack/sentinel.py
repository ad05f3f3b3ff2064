"""Redis under Sentinel for the fault suite: a master, a replica and three Sentinels on loopback.
Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from tests.live_server import free_port
from tests.worker import wait_for
from tests.faults.stack.receivers import closed_port


class SentinelRedis:
    """A master and its replica (private redis-servers) watched by three redis-sentinels, which
    agree (a quorum of two) that the master is down after `down_ms` without an answer and promote
    the replica. `env()` is what points a process at them (docs/operations.md#redis-sentinel)."""

    MASTER = "darkroom"

    def __init__(self, down_ms: int = 1000):
        from tests.live_server import PrivateRedis

        self.master = PrivateRedis().start()
        self.replica = PrivateRedis("--replicaof", "127.0.0.1", str(self.master.port)).start()
        self.dir = Path(tempfile.mkdtemp(prefix="darkroom-sentinel-"))
        self.ports = [free_port() for _ in range(3)]
        self.sentinels: list[subprocess.Popen] = []
        for port in self.ports:
            config = self.dir / f"sentinel-{port}.conf"  # the Sentinel rewrites it: its own file
            config.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.dir}\n"
                f"sentinel monitor {self.MASTER} 127.0.0.1 {self.master.port} 2\n"
                f"sentinel down-after-milliseconds {self.MASTER} {down_ms}\n"
                f"sentinel failover-timeout {self.MASTER} 10000\n"
                f"sentinel parallel-syncs {self.MASTER} 1\n"
            )
            self.sentinels.append(
                subprocess.Popen(
                    [shutil.which("redis-sentinel") or "redis-sentinel", str(config)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
        if not wait_for(self.ready, timeout=30, every=0.2):
            self.stop()  # the caller has nothing to stop
            raise AssertionError("the Sentinels did not find each other and the replica")

    def ask(self, port: int, *command: str):
        import redis

        client = redis.Redis(
            host="127.0.0.1", port=port, socket_timeout=1, socket_connect_timeout=1, decode_responses=True
        )
        try:
            return client.execute_command(*command)
        finally:
            client.close()

    def ready(self) -> bool:
        """Each Sentinel knows the two others and the replica (redis-py answers a dict per node)."""
        try:
            return all(
                int(self.ask(port, "SENTINEL", "master", self.MASTER)["num-other-sentinels"]) == 2
                and len(self.ask(port, "SENTINEL", "replicas", self.MASTER)) == 1
                for port in self.ports
            )
        except Exception:
            return False

    def master_port(self) -> int | None:
        """The master's port as a majority of the Sentinels name it now."""
        named = Counter()
        for port in self.ports:
            try:
                named[int(self.ask(port, "SENTINEL", "get-master-addr-by-name", self.MASTER)[1])] += 1
            except Exception:
                pass
        top = named.most_common(1)
        return top[0][0] if top and top[0][1] >= 2 else None

    def env(self, database: int = 0) -> dict[str, str]:
        # The URLs' host means nothing under Sentinel (their database number does): a port where
        # nothing listens proves it.
        # Celery reads CELERY_BROKER_URL itself: under Sentinel it is unset or sentinel:// URLs.
        nowhere = f"redis://127.0.0.1:{closed_port()}/{database}"
        return {
            "REDIS_SENTINELS": ",".join(f"127.0.0.1:{port}" for port in self.ports),
            "REDIS_SENTINEL_MASTER": self.MASTER,
            "REDIS_URL": nowhere,
            "CACHE_URL": nowhere,
            "CELERY_BROKER_URL": ";".join(f"sentinel://127.0.0.1:{port}/{database}" for port in self.ports),
        }

    def stop(self) -> None:
        for process in self.sentinels:
            if process.poll() is None:
                process.terminate()
                process.wait(10)
        for server in (self.master, self.replica):
            server.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
