"""A private PostgreSQL cluster for the fault suite: initdb into a temporary directory, on a free
port, and its streaming replica. Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg
from django.db import connection

from tests.live_server import free_port


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
