"""A real Celery worker (with its embedded beat, so the sweeper runs) for the tests that need
timers. It consumes this test run's own queue and talks to the test database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def all_queues() -> list[str]:
    """This run's queues: timers and sweeps, and each outside party's (config/settings.py)."""
    return [spec["queue"] for spec in settings.TASK_QUEUES.values()]


class Worker:
    """By default one process for every queue, with beat embedded; `queues` narrows it to some
    (names from settings.TASK_QUEUES) and `beat=False` leaves the sweeper to another process."""

    def __init__(self, sweep_seconds: float = 1.0, queues: list[str] | None = None, beat: bool = True, **env: str):
        self.sweep_seconds = sweep_seconds
        self.queues = [settings.TASK_QUEUES[q]["queue"] for q in queues] if queues else all_queues()
        self.beat = beat
        self.extra_env = env
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="darkroom-worker-", suffix=".log", delete=False)

    def env(self) -> dict[str, str]:
        db = connection.settings_dict
        url = f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": url,
            "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            "CACHE_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
            "DARKROOM_TEST_NAMES": "given",
            "SWEEP_INTERVAL_SECONDS": str(self.sweep_seconds),
            "DATABASE_CONN_MAX_AGE": "0",
            # A pool opened before the fork would be shared by the children: workers connect plainly.
            "DATABASE_POOL": "off",
            **self.extra_env,
        }

    def start(self) -> "Worker":
        schedule = Path(tempfile.mkdtemp()) / "beat-schedule"
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                *(["--beat", "--schedule", str(schedule)] if self.beat else []),
                "-Q",
                ",".join(self.queues),
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
                "--without-gossip",
                "--without-mingle",
                "--hostname",
                f"test-{os.getpid()}-{time.monotonic_ns()}@%h",
            ],
            cwd=ROOT,
            env=self.env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker died at start:\n{self.output()}")
            if "ready." in self.output():
                return self
            time.sleep(0.2)
        raise RuntimeError(f"the worker did not start:\n{self.output()}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")


def purge_queue() -> int:
    """Drop every task waiting on this run's queues (a broker that lost them, say)."""
    from kombu import Queue

    from config.celery import app

    with app.connection_for_write() as conn:
        return sum(Queue(name).bind(conn.default_channel).purge() or 0 for name in all_queues())


def wait_for(predicate, timeout: float = 30.0, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()
