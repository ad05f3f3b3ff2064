"""PostgreSQL under Patroni for the fault suite: two nodes, a three-member etcd, synchronous
replication, on loopback. Only 127.0.0.1 is ever contacted."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from tests.live_server import free_port


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
