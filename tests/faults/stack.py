"""Real processes for the fault suite (tests/faults): the Procfile's worker, outbound and beat
lines run as honcho would, a private PostgreSQL cluster, hostile webhook receivers (a tarpit),
a receiver that counts what it acknowledged, and the figures `make chaos` prints. Only 127.0.0.1
is ever contacted; every server here is the test's own."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from django.db import connection

from tests.live_server import free_port
from tests.worker import ROOT, Worker, wait_for


def procfile_command(name: str) -> str:
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise KeyError(f"the Procfile has no {name}: line")


def stack_env(redis_url: str | None = None, database_url: str | None = None, **extra: str) -> dict[str, str]:
    """The test settings against the test database (or `database_url`) and this run's queues; short
    delivery deadlines and sweeps every second, so a scenario takes seconds, not minutes."""
    env = {**Worker().env(), "LOG_FORMAT": "text", "PYTHONUNBUFFERED": "1",
           "WEBHOOK_DEADLINE_SECONDS": "2", "EMAIL_TIMEOUT": "2", "SWEEP_INTERVAL_SECONDS": "1"}
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
        self.process = subprocess.Popen(["/bin/sh", "-c", f"exec {self.command}"], cwd=ROOT, env=self.env,
                                        stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        if wait:
            assert wait_for(lambda: self.ready() or not self.alive(), timeout=90, every=0.2)
            assert self.alive(), f"{self.tag} died at start:\n{self.output()[-3000:]}"
        return self

    def ready(self) -> bool:
        """Its latest start is up: a worker consuming, beat scheduling."""
        return ("beat: Starting" if self.name == "beat" else "ready.") in self.output()[self.seen:]

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

    def __init__(self, env: dict[str, str], workers: int = 1, beats: int = 1, outbound: bool = True,
                 push: bool = False):
        self.env = env
        self.procs = ([Proc("worker", env, f"worker{i}") for i in range(workers)]
                      + ([Proc("outbound", env)] if outbound else [])
                      + ([Proc("push", env)] if push else [])
                      + [Proc("beat", env, f"beat{i}") for i in range(beats)])

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


# ---------------------------------------------------------------------------------------------
# A private PostgreSQL cluster (initdb into a temporary directory, on a free port)
# ---------------------------------------------------------------------------------------------
def _as_postgres(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """PostgreSQL's tools refuse to run as root: as root, run them as the postgres user."""
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120, **kwargs)


class PrivatePostgres:
    def __init__(self):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="darkroom-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        self.data = self.dir / "data"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/darkroom"

    def create(self) -> "PrivatePostgres":
        """A fresh cluster holding a copy of the test database (its schema, triggers included)."""
        _as_postgres([shutil.which("initdb") or "initdb", "-D", str(self.data), "-U", "postgres",
                      "--auth=trust", "-E", "UTF8", "--no-sync"])
        self.start()
        _as_postgres(["createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "darkroom"])
        db = connection.settings_dict
        dump = subprocess.run(["pg_dump", "-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432),
                               "-U", db["USER"] or "postgres", "--no-owner", db["NAME"]],
                              check=True, capture_output=True, timeout=120).stdout
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port), "-U",
                        "postgres", "darkroom"], input=dump, check=True, capture_output=True, timeout=120)
        return self

    def start(self) -> None:
        _as_postgres(["pg_ctl", "-D", str(self.data), "-w", "-l", str(self.dir / "log"), "-o",
                      f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start"])

    def stop(self) -> None:
        """As a crash or a restart would: every connection is cut at once."""
        _as_postgres(["pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop"])

    def destroy(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Webhook receivers
# ---------------------------------------------------------------------------------------------
class CountingReceiver:
    """Answers 200 and counts, per X-Darkroom-Delivery id, the requests received and answered.
    With `hold` set, it takes requests but answers none of them until `release()`."""

    def __init__(self):
        self.received: Counter = Counter()
        self.answered: Counter = Counter()
        self.hold = threading.Event()
        self.released = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                delivery = int(self.headers["X-Darkroom-Delivery"])
                receiver.received[delivery] += 1
                if receiver.hold.is_set():
                    receiver.released.wait(120)
                    return  # the connection is dropped unanswered
                self.send_response(200)
                self.end_headers()
                receiver.answered[delivery] += 1

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


class Tarpit:
    """Hostile receivers on 127.0.0.1, one listening socket each: `hang` reads the request and
    never answers, `trickle` sends its status line a byte a second, `redirect` answers 302 to
    itself, `flood` sends a 10 MB header line."""

    MODES = ("hang", "trickle", "redirect", "flood")

    def __init__(self, count: int):
        self.sockets, self.urls, self.conns = [], [], []
        self.closed = threading.Event()
        for i in range(count):
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            sock.listen(64)
            mode = self.MODES[i % len(self.MODES)]
            self.sockets.append(sock)
            self.urls.append(f"http://127.0.0.1:{sock.getsockname()[1]}/{mode}")
            threading.Thread(target=self._accept, args=(sock, mode), daemon=True).start()

    def _accept(self, sock: socket.socket, mode: str) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn, mode, sock.getsockname()[1]), daemon=True).start()

    def _serve(self, conn: socket.socket, mode: str, port: int) -> None:
        try:
            conn.recv(65536)
            if mode == "hang":
                self.closed.wait(300)
            elif mode == "trickle":
                for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000:
                    if self.closed.wait(1):
                        return
                    conn.sendall(bytes([byte]))
            elif mode == "redirect":
                conn.sendall(f"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/redirect\r\n"
                             "Content-Length: 0\r\n\r\n".encode())
            elif mode == "flood":
                conn.sendall(b"HTTP/1.1 200 OK\r\nX-Flood: ")
                chunk = b"a" * 65536
                for _ in range(160):  # 10 MB
                    conn.sendall(chunk)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.closed.set()
        for sock in self.sockets + self.conns:
            try:
                sock.close()
            except OSError:
                pass


class MailTarpit:
    """A mail server on 127.0.0.1: its connections take `modes` in turn (the last one for every
    connection after): `trickle` sends its greeting a byte a second, `hang` says nothing at all,
    `accept` speaks enough SMTP to take each message (kept in `messages`, with its recipients).
    `connections` counts them."""

    GREETING = b"220 tarpit.localhost ESMTP the test's own\r\n"

    def __init__(self, *modes: str):
        self.modes = list(modes or ["accept"])
        self.connections = 0
        self.messages: list[tuple[list[str], bytes]] = []
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self.lock:
                mode = self.modes[min(self.connections, len(self.modes) - 1)]
                self.connections += 1
                self.conns.append(conn)
            threading.Thread(target=self._serve, args=(conn, mode), daemon=True).start()

    def _serve(self, conn: socket.socket, mode: str) -> None:
        try:
            if mode == "hang":
                self.closed.wait(300)
            elif mode == "trickle":
                for byte in self.GREETING * 100:
                    if self.closed.wait(1):
                        return
                    conn.sendall(bytes([byte]))
            else:
                self._converse(conn)
        except OSError:
            pass
        finally:
            conn.close()

    def _converse(self, conn: socket.socket) -> None:
        file = conn.makefile("rb")
        conn.sendall(self.GREETING)
        recipients: list[str] = []
        while line := file.readline():
            verb = line[:4].upper()
            if verb == b"DATA":
                conn.sendall(b"354 go on\r\n")
                body = b""
                while (part := file.readline()) not in (b".\r\n", b""):
                    body += part
                with self.lock:
                    self.messages.append((recipients, body))
                recipients = []
                conn.sendall(b"250 queued\r\n")
            elif verb == b"QUIT":
                conn.sendall(b"221 bye\r\n")
                return
            else:
                if verb == b"RCPT":
                    recipients.append(line.split(b":", 1)[1].strip().strip(b"<>").decode())
                conn.sendall(b"250 ok\r\n")

    def close(self) -> None:
        self.closed.set()
        for sock in [self.sock, *self.conns]:
            try:
                sock.close()
            except OSError:
                pass


def closed_port() -> int:
    """A port nothing listens on: connections are refused at once (SMTP refusing)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_quietly(seconds: float) -> None:
    time.sleep(seconds)
