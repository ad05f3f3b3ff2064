"""Real server processes for the stream tests: the ASGI app under uvicorn (or the Procfile's
command), on a free 127.0.0.1 port, against the test database, and a private redis-server a test
may stop and start. Plus an SSE client that reads a stream on a thread of its own."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Callable

import httpx
from django.conf import settings

from tests.bench.stack import procfile_command
from tests.worker import ROOT, Worker, wait_for
from tests.loopback import TLS

WEB_APP_NAME = "darkroom-web-test"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PrivateRedis:
    """A redis-server of the test's own, so stopping Redis never touches the shared one."""

    def __init__(self, *args: str):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="darkroom-redis-")
        self.process: subprocess.Popen | None = None
        self.args = args  # more of redis-server's options (--replicaof host port)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "PrivateRedis":
        self.process = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        assert wait_for(lambda: self.ping(), timeout=20), "the private redis did not start"
        return self

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def command(self, *args: str) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
            parts = [f"*{len(args)}\r\n".encode()] + [f"${len(a)}\r\n{a}\r\n".encode() for a in args]
            sock.sendall(b"".join(parts))
            time.sleep(0.05)
            return sock.recv(4096)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


def asgi_alone(port: int, settings_module: str) -> list[str]:
    """The Procfile's `live:` server on `port` with `settings_module` (the site's own, not the live
    ones): ASGI serving every route, streams included, as a platform that routes to one process
    runs it (docs/operations.md)."""
    return ["/bin/sh", "-c", f"LIVE_PORT={port} LIVE_SETTINGS={settings_module} exec {procfile_command('live')}"]


def procfile_stack(port: int, web_port: int | None = None, live_port: int | None = None) -> list[str]:
    """The Procfile's `proxy:`, `web:` and `live:` as `make run` starts them, the proxy on `port`
    (docs/operations.md, "Processes"). One process group: Server.stop ends all three, and CPU
    figures taken by group count all three, nginx included."""
    ports = (
        f"PORT={port} WEB_PORT={web_port or free_port()} LIVE_PORT={live_port or free_port()} "
        "LIVE_SETTINGS=tests.live_settings"
    )
    lines = " & ".join(procfile_command(name) for name in ("proxy", "web", "live"))
    return ["/bin/sh", "-c", f"export {ports}; {lines} & wait"]


class Server:
    """One web server process (uvicorn by default; `command` may be the Procfile's)."""

    def __init__(self, redis_url: str | None = None, command: list[str] | None = None, **env: str):
        self.port = free_port()
        self.redis_url, self.command, self.extra = redis_url, command, env
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="darkroom-web-", suffix=".log", delete=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self) -> dict[str, str]:
        env = {
            **Worker().env(),
            "PORT": str(self.port),
            "PGAPPNAME": WEB_APP_NAME,
            "DATABASE_POOL": "on",
            "DATABASE_POOL_MAX": "4",
            "LIVE_DB_THREADS": "2",
            "LIVE_POLL_SECONDS": "0.5",
            "LIVE_HEARTBEAT_SECONDS": "1",
            # many streams and long-polls of a few users from one address: the limits' own
            # tests (tests/games/test_stream_limits.py) run a server with small ones
            "LIVE_STREAMS_PER_USER": "1000",
            "LIVE_STREAMS_PER_ADDRESS": "1000",
            "LIVE_POLLS_PER_USER": "1000",
            "LIVE_POLLS_PER_USER_GAME": "1000",
        }
        if self.redis_url:
            env.update(REDIS_URL=self.redis_url, CACHE_URL=self.redis_url, CELERY_BROKER_URL=self.redis_url)
        return {**env, **self.extra}

    def start(self) -> "Server":
        command = self.command or [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--no-access-log",
            "--lifespan",
            "on",
        ]  # as in production: the hub starts with the process
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env(), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

        def up():
            if self.process.poll() is not None:
                raise RuntimeError(f"the server died at start:\n{self.output()}")
            try:
                return httpx.get(f"{self.url}/api/v1/kinds/", timeout=2, verify=TLS).status_code == 200
            except httpx.HTTPError:
                return False

        if not wait_for(up, timeout=60, every=0.2):
            self.stop()  # all of it: a command may have started several processes
            raise AssertionError(f"the server did not start:\n{self.output()}")
        return self

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Token {token}"} if token else {}
        return httpx.Client(base_url=f"{self.url}/api/v1", headers=headers, timeout=30, verify=TLS)


@dataclass
class Message:
    event: str
    data: dict
    id: str | None = None


@dataclass
class Stream:
    """An SSE connection read on its own thread: messages land in a queue, comments are counted."""

    url: str
    headers: dict = field(default_factory=dict)
    messages: "queue.Queue[Message]" = field(default_factory=queue.Queue)
    comments: int = 0
    status: int | None = None
    body: str = ""
    closed: threading.Event = field(default_factory=threading.Event)

    def open(self) -> "Stream":
        self._stop = threading.Event()
        self._opened = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self._opened.wait(30), "the stream did not answer"
        return self

    def _read(self) -> None:
        try:
            with httpx.stream(
                "GET", self.url, headers=self.headers, timeout=httpx.Timeout(10, read=60), verify=TLS
            ) as response:
                self.status = response.status_code
                if response.status_code != 200:
                    self.body = response.read().decode()
                    self._opened.set()
                    return
                self._opened.set()
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith(":"):
                        self.comments += 1
                    elif line == "":
                        if "data" in fields:
                            self.messages.put(
                                Message(fields.get("event", "message"), json.loads(fields["data"]), fields.get("id"))
                            )
                        fields = {}
                    else:
                        name, _, value = line.partition(":")
                        fields[name] = value[1:] if value.startswith(" ") else value
        except httpx.HTTPError:
            pass
        finally:
            self._opened.set()
            self.closed.set()

    def next(self, timeout: float = 20) -> Message:
        return self.messages.get(timeout=timeout)

    def take(self, count: int, timeout: float = 20) -> list[Message]:
        return [self.next(timeout) for _ in range(count)]

    def until(self, predicate, timeout: float = 20) -> list[Message]:
        """Messages up to and including the first that satisfies `predicate`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            seen.append(message)
            if predicate(message):
                return seen

    def close(self) -> None:
        self._stop.set()


def game_stream(server: Server, token: str, game_id: str, after: int | None = None, **headers) -> Stream:
    url = f"{server.url}/api/v1/games/{game_id}/stream/" + (f"?after={after}" if after is not None else "")
    # as a browser's EventSource asks
    return Stream(url, {"Authorization": f"Token {token}", "Accept": "text/event-stream", **headers}).open()


def long_poll(server: Server, player, game_id: str, after: int, wait: float, into: list) -> threading.Thread:
    """`player`'s long-poll on the game, run on a thread of its own; its answer goes into `into`."""

    def run():
        with server.client(player.token) as http:
            into.append(http.get(f"/games/{game_id}/events/", params={"after": after, "wait": wait}))

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def user_stream(server: Server, token: str, own: bool = True, **headers) -> Stream:
    """The user's own stream; `own=False`: without their games' events (their news only)."""
    return Stream(
        f"{server.url}/api/v1/stream/" + ("" if own else "?own=false"),
        {"Authorization": f"Token {token}", "Accept": "text/event-stream", **headers},
    ).open()


def web_connections(db_name: str | None = None) -> int:
    """PostgreSQL connections the web servers of this test run hold now."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND datname = %s",
            [WEB_APP_NAME, db_name or settings.DATABASES["default"]["NAME"]],
        )
        return cursor.fetchone()[0]


def token_remembered(status: Callable[[], int], token) -> bool:
    """Whether the server that `status()` asks (one kept connection: one worker) answers a token
    from its memory: it is read (and remembered, if the worker hears revocations), then expired
    by a bare UPDATE no process hears of, asked again, and put back. `token` is its AuthToken."""
    from django.utils import timezone

    from accounts.models import AuthToken

    row = AuthToken.objects.filter(pk=token.pk)
    assert status() == 200
    row.update(expires_at=timezone.now() - timedelta(seconds=1))
    seen = status()
    row.update(expires_at=token.expires_at)
    return seen == 200


@dataclass
class FollowedStream(Stream):
    """One game's frames on a user stream, read as that game's own stream would give them:
    `game-ready` as `ready`, `game-event` as an unnamed message whose id is the event's seq,
    `game-chat` as `chat`; the user stream's own frames (and other games') are kept aside in
    `others`."""

    game: str = ""
    others: list = field(default_factory=list)

    def next(self, timeout: float = 20) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if message.event.startswith("game-") and message.data.get("game") == self.game:
                name = message.event[len("game-") :]
                game, _, seq = (message.id or "").partition(":")
                assert message.id is None or game == self.game, message
                return Message("message" if name == "event" else name, message.data, seq or None)
            self.others.append(message)

    def until(self, predicate, timeout: float = 20) -> list[Message]:
        seen, deadline = [], time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            seen.append(message)
            if predicate(message):
                return seen

    def pending(self) -> list[Message]:
        """This game's frames already received and not yet read."""
        found = []
        while True:
            try:
                found.append(self.next(0.01))
            except queue.Empty:
                return found


def followed_stream(
    server: Server, token: str, game_id: str, after: int | None = None, own: bool = False, **headers
) -> FollowedStream:
    """`game_id` followed on the user's own stream (named on connect), read as its own stream."""
    games = game_id if after is None else f"{game_id}:{after}"
    url = f"{server.url}/api/v1/stream/?games={games}" + ("" if own else "&own=false")
    return FollowedStream(
        url, {"Authorization": f"Token {token}", "Accept": "text/event-stream", **headers}, game=game_id
    ).open()
