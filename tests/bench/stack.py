"""The stack the benchmarks measure, as the Procfile runs it: its processes started and stopped,
their ports, and the CPU each part of the machine spends (the Procfile's lines, PostgreSQL, Redis
and the benchmark's own client), read from /proc. Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------------------------
# The stack, as the Procfile runs it
# ---------------------------------------------------------------------------------------------
def procfile_command(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise KeyError(f"the Procfile has no {name}: line")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def stack_env(port: int) -> dict[str, str]:
    """The production settings (DEBUG off; with the skeleton's routes besides, tests/bench/skeleton.py)
    against the test database and this run's queue; throttling raised so the load is not refused."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.bench.stack_settings",
        "DATABASE_URL": database_url(),
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-only-secret",
        # Plain HTTP on loopback: production redirects to HTTPS (docs/operations.md).
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "CACHE_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        "DARKROOM_TEST_NAMES": "given",
        "THROTTLE_USER": "10000000/min",
        "THROTTLE_ANON": "10000000/min",
        # thousands of streams and long-polls from a few accounts on one address
        "LIVE_STREAMS_PER_USER": "100000",
        "LIVE_STREAMS_PER_ADDRESS": "100000",
        "LIVE_POLLS_PER_USER": "100000",
        "LIVE_POLLS_PER_USER_GAME": "100000",
        "LOG_LEVEL": "WARNING",
        "PORT": str(port),
        "PYTHONUNBUFFERED": "1",
    }


class Process:
    """One Procfile line, run by the shell as honcho would (so $PORT and the like expand)."""

    def __init__(self, name: str, env: dict[str, str]):
        self.name, self.env = name, env
        self.log = tempfile.NamedTemporaryFile(prefix=f"darkroom-bench-{name}-", suffix=".log", delete=False)
        command = procfile_command(name)
        if name == "beat":  # a schedule file of our own, so runs never share beat's state
            command = re.sub(r"--schedule \S+", f"--schedule {tempfile.mkdtemp()}/beat", command)
        self.command = command
        self.process = subprocess.Popen(
            ["/bin/sh", "-c", f"exec {command}"],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait(10)


def wait_http(port: int, process: Process, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not process.alive():
            raise RuntimeError(f"the server died:\n{process.output()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/v1/kinds/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer:\n{process.output()[-3000:]}")


def wait_worker(process: Process, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not process.alive():
            raise RuntimeError(f"the worker died:\n{process.output()[-3000:]}")
        if "ready." in process.output():
            return
        time.sleep(0.2)
    raise RuntimeError(f"the worker did not start:\n{process.output()[-3000:]}")


STARTED: dict[str, Process] = {}


def cpu_seconds(name: str = "web") -> float:
    """CPU time (user + system) used so far by a running Procfile line's processes (its own
    process group): unlike a rate, a figure the other jobs of a shared machine hardly move."""
    from tests.bench.bench_streams import cpu_seconds as group_cpu

    return group_cpu(STARTED[name].process.pid)


def _service_seconds(prefix: str) -> float:
    """CPU time used so far by every process whose name starts with `prefix` (PostgreSQL's
    backends and helpers, redis-server): the shared services, idle but for this benchmark."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as fh:
                stat = fh.read()
        except OSError:
            continue  # gone meanwhile
        if stat[stat.index("(") + 1 : stat.rindex(")")].startswith(prefix):
            fields = stat[stat.rindex(")") + 2 :].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


MACHINE_PARTS = ("web", "worker and beat", "PostgreSQL", "Redis", "client")


def machine_seconds() -> dict[str, float]:
    """CPU used so far by everything a request costs the machine: the Procfile's processes,
    PostgreSQL, Redis, and this benchmark's own HTTP client (this process)."""
    return {
        "web": cpu_seconds("web"),
        "worker and beat": cpu_seconds("worker") + cpu_seconds("beat"),
        "PostgreSQL": _service_seconds("postgres"),
        "Redis": _service_seconds("redis-server"),
        "client": time.process_time(),
    }


def per_unit_ms(before: dict[str, float], after: dict[str, float], count: int) -> dict[str, float]:
    return {part: 1000 * (after[part] - before[part]) / max(1, count) for part in MACHINE_PARTS}


@contextmanager
def running(*names: str):
    """Start the named Procfile processes (web first), yield the web port, stop them all."""
    port = free_port()
    env = stack_env(port)
    started: list[Process] = []
    try:
        for name in names:
            proc = Process(name, env)
            started.append(proc)
            STARTED[name] = proc
            if name == "web":
                wait_http(port, proc)
            elif name == "worker":
                wait_worker(proc)
        yield port
    finally:
        for proc in reversed(started):
            proc.stop()
