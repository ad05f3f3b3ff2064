"""The Procfile's Celery lines as real processes for the fault suite: `worker`, `outbound`, `push`
and `beat` run as honcho would, against the test settings (`stack_env`). Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.worker import ROOT, Worker, wait_for


def procfile_command(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise KeyError(f"the Procfile has no {name}: line")


def stack_env(redis_url: str | None = None, database_url: str | None = None, **extra: str) -> dict[str, str]:
    """The test settings against the test database (or `database_url`) and this run's queues; short
    delivery deadlines and sweeps every second, so a scenario takes seconds, not minutes."""
    env = {
        **Worker().env(),
        "LOG_FORMAT": "text",
        "PYTHONUNBUFFERED": "1",
        "WEBHOOK_DEADLINE_SECONDS": "2",
        "EMAIL_TIMEOUT": "2",
        "SWEEP_INTERVAL_SECONDS": "1",
    }
    env.pop("DATABASE_CONN_MAX_AGE", None)  # the Procfile's processes keep theirs, as in production
    if redis_url:
        env.update(REDIS_URL=redis_url, CACHE_URL=redis_url, CELERY_BROKER_URL=redis_url)
    if database_url:
        env["DATABASE_URL"] = database_url
    return {**env, **extra}


class Proc:
    """One Procfile line, run by the shell (so ${CELERY_QUEUE} and $$ expand) in its own process
    group, so a kill reaches the pool's children too."""

    def __init__(self, name: str, env: dict[str, str], tag: str | None = None):
        self.name, self.env, self.tag = name, env, tag or name
        self.log = tempfile.NamedTemporaryFile(prefix=f"darkroom-fault-{self.tag}-", suffix=".log", delete=False)
        command = procfile_command(name)
        if name == "beat":  # a schedule file of its own
            command = re.sub(r"--schedule \S+", f"--schedule {tempfile.mkdtemp()}/beat", command)
        elif " worker " in command:  # a node name of its own: two of a line on one host
            command += f" --hostname {self.tag}-{os.getpid()}-{time.monotonic_ns()}@%h"
        self.command = command
        self.process: subprocess.Popen | None = None
        self.seen = 0  # the log's length when it was last started

    def start(self, wait: bool = True) -> "Proc":
        """Start (or, after a kill, start again: the same command, appending to the same log)."""
        self.seen = len(self.output())
        self.process = subprocess.Popen(
            ["/bin/sh", "-c", f"exec {self.command}"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if wait:
            assert wait_for(lambda: self.ready() or not self.alive(), timeout=90, every=0.2)
            assert self.alive(), f"{self.tag} died at start:\n{self.output()[-3000:]}"
        return self

    def ready(self) -> bool:
        """Its latest start is up: a worker consuming, beat scheduling."""
        return ("beat: Starting" if self.name == "beat" else "ready.") in self.output()[self.seen :]

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, the process and its pool children at once: no shutdown of any kind."""
        if self.alive():
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


class Stack:
    """The Procfile's Celery lines: `workers` timer workers, `beats` schedulers, one outbound and,
    with `push`, the push queue's worker."""

    def __init__(
        self, env: dict[str, str], workers: int = 1, beats: int = 1, outbound: bool = True, push: bool = False
    ):
        self.env = env
        self.procs = (
            [Proc("worker", env, f"worker{i}") for i in range(workers)]
            + ([Proc("outbound", env)] if outbound else [])
            + ([Proc("push", env)] if push else [])
            + [Proc("beat", env, f"beat{i}") for i in range(beats)]
        )

    def __getitem__(self, tag: str) -> Proc:
        return next(p for p in self.procs if p.tag == tag)

    def start(self) -> "Stack":
        for proc in self.procs:
            proc.start(wait=False)
        for proc in self.procs:
            assert wait_for(lambda: proc.ready() or not proc.alive(), timeout=90, every=0.2)
            assert proc.alive(), f"{proc.tag} died at start:\n{proc.output()[-3000:]}"
        return self

    def stop(self) -> None:
        for proc in self.procs:
            proc.stop()

    def dead(self) -> list[str]:
        return [p.tag for p in self.procs if not p.alive()]

    def logs(self) -> str:
        return "\n".join(f"--- {p.tag}\n{p.output()[-2500:]}" for p in self.procs)


def wait_quietly(seconds: float) -> None:
    time.sleep(seconds)
