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

import psycopg
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


# ---------------------------------------------------------------------------------------------
# A private PostgreSQL cluster (initdb into a temporary directory, on a free port)
# ---------------------------------------------------------------------------------------------
def _as_postgres(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """PostgreSQL's tools refuse to run as root: as root, run them as the postgres user."""
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120, **kwargs)


class PrivatePostgres:
    """`settings`: server settings (name -> value) given at each start."""

    def __init__(self, **settings: str):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="darkroom-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        self.data = self.dir / "data"
        self.settings = settings

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/darkroom"

    def init(self) -> "PrivatePostgres":
        """A fresh, empty cluster, started."""
        _as_postgres(
            [
                shutil.which("initdb") or "initdb",
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
        self.start()
        return self

    def create(self) -> "PrivatePostgres":
        """A fresh cluster holding a copy of the test database (its schema, triggers included).
        Should the copy fail, the cluster is removed: the caller has nothing to stop."""
        self.init()
        try:
            _as_postgres(["createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "darkroom"])
            db = connection.settings_dict
            dump = subprocess.run(
                [
                    "pg_dump",
                    "-h",
                    db["HOST"] or "127.0.0.1",
                    "-p",
                    str(db["PORT"] or 5432),
                    "-U",
                    db["USER"] or "postgres",
                    "--no-owner",
                    db["NAME"],
                ],
                check=True,
                capture_output=True,
                timeout=120,
            ).stdout
            subprocess.run(
                [
                    "psql",
                    "-q",
                    "-v",
                    "ON_ERROR_STOP=1",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-U",
                    "postgres",
                    "darkroom",
                ],
                input=dump,
                check=True,
                capture_output=True,
                timeout=120,
            )
        except BaseException:
            self.destroy()
            raise
        return self

    def start(self) -> None:
        extra = "".join(f" -c {name}={value}" for name, value in self.settings.items())
        _as_postgres(
            [
                "pg_ctl",
                "-D",
                str(self.data),
                "-w",
                "-l",
                str(self.dir / "log"),
                "-o",
                f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off{extra}",
                "start",
            ]
        )

    def stop(self) -> None:
        """As a crash or a restart would: every connection is cut at once."""
        _as_postgres(["pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop"])

    def destroy(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def replica(self, **settings: str) -> "PrivatePostgres":
        """A streaming replica of this cluster on a port of its own, started: pg_basebackup -R
        (initdb's trust lines let 127.0.0.1 replicate), hot standby."""
        standby = PrivatePostgres(**settings)
        _as_postgres(
            [
                "pg_basebackup",
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-D",
                str(standby.data),
                "-R",
                "-X",
                "stream",
                "--no-sync",
                "-c",
                "fast",
            ]
        )
        standby.start()
        return standby

    def sql(self, query: str, params: list | None = None, dbname: str = "darkroom"):
        """One statement's first row, on a connection of its own (autocommit)."""
        with psycopg.connect(f"postgres://postgres@127.0.0.1:{self.port}/{dbname}", autocommit=True) as conn:
            cursor = conn.execute(query, params)
            return cursor.fetchone() if cursor.description else None


# ---------------------------------------------------------------------------------------------
# PgBouncer in transaction mode in front of a PostgreSQL on loopback
# ---------------------------------------------------------------------------------------------
class PgBouncer:
    """Debian's pgbouncer on a free port, in transaction mode (docs/operations.md#pgbouncer), every
    database name passed through to the server on `port`. `pool_size` server connections per
    database and user, however many clients: what makes transaction mode bite (a client's next
    transaction finds whichever of them is free)."""

    def __init__(self, port: int, pool_size: int = 4):
        self.server_port, self.port = port, free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="darkroom-pgbouncer-"))
        (self.dir / "users.txt").write_text('"postgres" ""\n')
        # The tests' libpq `options` (-c darkroom.allow_truncate=on) cannot pass a pooler: it is
        # ignored here and set on the server instead (scripts/pgbouncer_tests.py).
        (self.dir / "pgbouncer.ini").write_text(f"""[databases]
* = host=127.0.0.1 port={port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.dir}/users.txt
admin_users = postgres
pool_mode = transaction
default_pool_size = {pool_size}
max_client_conn = 1000
ignore_startup_parameters = extra_float_digits,options
server_reset_query =
logfile = {self.dir}/pgbouncer.log
""")
        if os.geteuid() == 0:  # pgbouncer refuses to run as root
            shutil.chown(self.dir, "postgres")
            for path in self.dir.iterdir():
                shutil.chown(path, "postgres")
        self.process: subprocess.Popen | None = None

    def url(self, name: str = "darkroom") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> "PgBouncer":
        command = [shutil.which("pgbouncer") or "/usr/sbin/pgbouncer", str(self.dir / "pgbouncer.ini")]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
        )

        def listening():
            assert self.process.poll() is None, f"pgbouncer died at start:\n{self.output()}"
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return True
            except OSError:
                return False

        assert wait_for(listening, timeout=20, every=0.1), self.output()
        return self

    def output(self) -> str:
        log = self.dir / "pgbouncer.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.process = None
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Redis under Sentinel: a master, a replica and three Sentinels on loopback
# ---------------------------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------------------------
# PostgreSQL under Patroni: two nodes, a three-member etcd, synchronous replication
# ---------------------------------------------------------------------------------------------
class PatroniCluster:
    """Three etcd members and two Patroni nodes (Debian's packages) on loopback, in synchronous
    mode (not strict: docs/operations.md#postgresql-failover). `url` is the libpq multi-host URL
    the application takes; `kill_leader()` SIGKILLs the leader's Patroni and PostgreSQL at once, as
    a machine that dies."""

    # The failover's pace, as docs/operations.md#postgresql-failover and deploy/ha/patroni.yml set it.
    TTL, LOOP_WAIT, RETRY_TIMEOUT = 15, 2, 6

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="darkroom-patroni-"))
        self.client_ports = [free_port() for _ in range(3)]
        peers = [free_port() for _ in range(3)]
        cluster = ",".join(f"e{i}=http://127.0.0.1:{port}" for i, port in enumerate(peers))
        self.etcd = [
            subprocess.Popen(
                [
                    "etcd",
                    "--name",
                    f"e{i}",
                    "--data-dir",
                    str(self.dir / f"etcd{i}"),
                    "--listen-client-urls",
                    f"http://127.0.0.1:{client}",
                    "--advertise-client-urls",
                    f"http://127.0.0.1:{client}",
                    "--listen-peer-urls",
                    f"http://127.0.0.1:{peer}",
                    "--initial-advertise-peer-urls",
                    f"http://127.0.0.1:{peer}",
                    "--initial-cluster",
                    cluster,
                    "--initial-cluster-state",
                    "new",
                    "--initial-cluster-token",
                    self.dir.name,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            for i, (client, peer) in enumerate(zip(self.client_ports, peers))
        ]
        self.pg_ports = [free_port() for _ in range(2)]
        self.api_ports = [free_port() for _ in range(2)]
        self.nodes: list[subprocess.Popen | None] = [None, None]
        for i in range(2):
            (self.dir / f"pg{i}.yml").write_text(self._config(i))
        try:
            if os.geteuid() == 0:
                subprocess.run(["chown", "-R", "postgres", str(self.dir)], check=True)
            for i in range(2):
                self.start(i)
        except BaseException:
            self.stop()  # the caller has nothing to stop
            raise

    def _config(self, i: int) -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.client_ports)
        return f"""scope: {self.dir.name}
name: pg{i}
restapi: {{listen: 127.0.0.1:{self.api_ports[i]}, connect_address: 127.0.0.1:{self.api_ports[i]}}}
etcd3: {{hosts: "{hosts}"}}
bootstrap:
  dcs:
    ttl: {self.TTL}
    loop_wait: {self.LOOP_WAIT}
    retry_timeout: {self.RETRY_TIMEOUT}
    synchronous_mode: true
    synchronous_mode_strict: false
    postgresql: {{parameters: {{fsync: "off"}}}}
  initdb: [{{encoding: UTF8}}, {{auth: trust}}]
  pg_hba: [local all all trust, host all all 127.0.0.1/32 trust, host replication all 127.0.0.1/32 trust]
postgresql:
  listen: 127.0.0.1:{self.pg_ports[i]}
  connect_address: 127.0.0.1:{self.pg_ports[i]}
  data_dir: {self.dir}/data{i}
  bin_dir: {Path(shutil.which("pg_ctl") or "/usr/lib/postgresql/15/bin/pg_ctl").resolve().parent}
  pgpass: {self.dir}/pgpass{i}
  authentication: {{superuser: {{username: postgres}}, replication: {{username: postgres}}}}
  parameters: {{unix_socket_directories: "{self.dir}", logging_collector: "on", log_directory: "{self.dir}/pglog{i}"}}
"""

    def start(self, i: int) -> None:
        command = ["patroni", str(self.dir / f"pg{i}.yml")]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        with open(self.dir / f"patroni{i}.log", "ab") as log:
            # In its own directory: run as postgres, a node started from a checkout postgres may not
            # enter (a fresh clone under a private temporary directory) never got its PostgreSQL up.
            self.nodes[i] = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=self.dir
            )

    def members(self) -> dict[str, str]:
        """name -> role, as a node still up reports the cluster."""
        import httpx

        for port in self.api_ports:
            try:
                return {
                    m["name"]: m["role"]
                    for m in httpx.get(f"http://127.0.0.1:{port}/cluster", timeout=2).json()["members"]
                }
            except Exception:
                continue
        return {}

    def leader(self) -> int | None:
        for name, role in self.members().items():
            if role == "leader":
                return int(name[2:])
        return None

    def healthy(self) -> bool:
        return sorted(self.members().values()) == ["leader", "sync_standby"]

    def url(self, name: str = "darkroom") -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.pg_ports)
        return f"postgres://postgres@{hosts}/{name}?target_session_attrs=read-write&connect_timeout=2"

    def leader_url(self, name: str = "darkroom") -> str:
        return f"postgres://postgres@127.0.0.1:{self.pg_ports[self.leader()]}/{name}"

    def kill_leader(self) -> int:
        i = self.leader()
        postmaster = int((self.dir / f"data{i}" / "postmaster.pid").read_text().split()[0])
        os.killpg(self.nodes[i].pid, signal.SIGKILL)
        os.kill(postmaster, signal.SIGKILL)
        return i

    def logs(self) -> str:
        """Each node's Patroni log (its start, where a bootstrap says what it did, and its end)
        and its PostgreSQL's."""
        parts = []
        for i in range(2):
            found = [self.dir / f"patroni{i}.log", *sorted((self.dir / f"pglog{i}").glob("*"))]
            for path in found:
                if path.is_file():
                    text = path.read_text(errors="replace")
                    shown = text if len(text) <= 4000 else f"{text[:1500]}\n[...]\n{text[-2500:]}"
                    parts.append(f"--- {path.name} (node pg{i})\n{shown}")
        return "\n".join(parts)

    def stop(self) -> None:
        for process in [*self.nodes, *self.etcd]:
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
        for i in range(2):  # a PostgreSQL Patroni left behind
            pid_file = self.dir / f"data{i}" / "postmaster.pid"
            if pid_file.exists():
                try:
                    os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
                except (OSError, ValueError):
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
                conn.sendall(
                    f"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/redirect\r\n"
                    "Content-Length: 0\r\n\r\n".encode()
                )
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
