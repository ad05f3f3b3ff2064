"""HAProxy in front of the Patroni nodes for the fault suite, configured as deploy/ha/haproxy.cfg
(the same checks, pace and cutting of sessions) with loopback ports. Only 127.0.0.1 is ever
contacted."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

from tests.faults.stack.patroni import PatroniCluster
from tests.live_server import free_port
from tests.worker import ROOT, wait_for

DEPLOYED = ROOT / "deploy" / "ha" / "haproxy.cfg"


def loopback_config(cluster: PatroniCluster, ports: dict[str, int], admin: Path) -> str:
    """deploy/ha/haproxy.cfg with compose's names swapped for loopback: its `db` and `db-2` become
    the cluster's nodes (PostgreSQL's port, Patroni's REST port for the check), its binds free
    ports; Docker's resolver goes, an admin socket comes (to read which servers are up)."""
    text = "\n".join(line for line in DEPLOYED.read_text().splitlines() if not line.startswith("#"))
    text = re.sub(r"\nresolvers docker\n(?:[ \t]+\S.*\n)+", "\n", text + "\n")
    text = re.sub(r" resolvers docker init-addr \S+", "", text)
    text = text.replace("global\n", f"global\n    stats socket {admin} level admin\n", 1)
    for name, port in ports.items():
        text, found = re.subn(rf"bind :{name}\b", f"bind 127.0.0.1:{port}", text)
        assert found, f"{DEPLOYED} binds no :{name}"
    for i, node in enumerate(("db", "db-2")):
        text, found = re.subn(
            rf"server {node} {node}:5432 check port 8008",
            f"server {node} 127.0.0.1:{cluster.pg_ports[i]} check port {cluster.api_ports[i]}",
            text,
        )
        assert found, f"{DEPLOYED} has no server {node}"
    return text


class HAProxy:
    """Debian's haproxy on loopback in front of `cluster`'s two nodes: `url()` reaches whichever
    node Patroni's `/primary` answers 200 for, as compose's port 5000 does."""

    def __init__(self, cluster: PatroniCluster):
        self.dir = Path(tempfile.mkdtemp(prefix="darkroom-haproxy-"))
        self.admin = self.dir / "admin.sock"
        self.ports = {"5000": free_port(), "5001": free_port(), "8404": free_port()}
        (self.dir / "haproxy.cfg").write_text(loopback_config(cluster, self.ports, self.admin))
        self.process: subprocess.Popen | None = None

    def url(self, name: str = "darkroom") -> str:
        return f"postgres://postgres@127.0.0.1:{self.ports['5000']}/{name}?connect_timeout=2"

    @property
    def port(self) -> int:
        return self.ports["5000"]

    def start(self) -> "HAProxy":
        with open(self.dir / "haproxy.log", "ab") as log:
            self.process = subprocess.Popen(
                [shutil.which("haproxy") or "/usr/sbin/haproxy", "-db", "-f", str(self.dir / "haproxy.cfg")],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        assert wait_for(lambda: self.admin.exists() or self.process.poll() is not None, timeout=20, every=0.1)
        assert self.process.poll() is None, self.output()
        return self

    def up(self, listen: str = "primary") -> list[str]:
        """The servers of `listen` that HAProxy's checks have up, by name."""
        with socket.socket(socket.AF_UNIX) as admin:
            admin.settimeout(2)
            admin.connect(str(self.admin))
            admin.sendall(b"show stat\n")
            answer = b""
            while chunk := admin.recv(65536):
                answer += chunk
        rows = [line.split(",") for line in answer.decode().splitlines() if line and not line.startswith("#")]
        return [
            row[1] for row in rows if row[0] == listen and row[1] not in ("FRONTEND", "BACKEND") and row[17] == "UP"
        ]

    def output(self) -> str:
        log = self.dir / "haproxy.log"
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
