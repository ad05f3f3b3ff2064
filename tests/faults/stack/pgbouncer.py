"""PgBouncer in transaction mode in front of a PostgreSQL on loopback, for the fault suite. Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

from tests.live_server import free_port
from tests.worker import wait_for


class PgBouncer:
    """Debian's pgbouncer on a free port, in transaction mode (docs/operations.md#pgbouncer), every
    database name passed through to the server on `port`. `pool_size` server connections per
    database and user, however many clients: what makes transaction mode bite (a client's next
    transaction finds whichever of them is free). `login_retry` is how long PgBouncer waits after a
    failed connection to the server before it tries another (its `server_login_retry`), answering
    its clients an error meanwhile; `query_wait` how long a client's query may wait for a server
    connection before PgBouncer drops the client (its `query_wait_timeout`)."""

    def __init__(self, port: int, pool_size: int = 4, login_retry: int = 15, query_wait: int = 120):
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
server_login_retry = {login_retry}
query_wait_timeout = {query_wait}
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
