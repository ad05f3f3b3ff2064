"""Instructions, not seconds: the web server's own work per request, counted by callgrind.

This machine is shared: the same code's CPU per move loop moved by 40% between runs an hour apart,
more than most changes to it. Instructions executed do not move with the neighbours' load, so the
ratio GET /kinds/ : move loop taken here repeats to a fraction of a percent, and a change to the
move path shows in it whatever else the machine is doing.

The server is the application under ASGI, run by uvicorn in one process (gunicorn forks its
worker, and a forked child cannot be asked for its counts; the Procfile's `web` serves the same
views under WSGI, without ASGI's thread trips, so its counts are lower by those), under
`valgrind --tool=callgrind` with instrumentation off until the warm-up is over. Requests go one at
a time over HTTP from this process; `callgrind_control -e` reads the server's counts (all its
threads) between phases.
PostgreSQL, Redis and the client are not counted: what this measures is the part of the loop the
web server pays for, which is what a code change to the move path changes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.db import connections

from tests.bench.stack import ROOT, free_port, stack_env, wait_http
from tests.bench.throughput import Client, make_pickpic, make_users, play_turn


def available() -> bool:
    return bool(shutil.which("valgrind") and shutil.which("callgrind_control"))


def total_instructions(pid: int) -> int:
    """Instructions the callgrind run `pid` executed so far, all its threads."""
    out = subprocess.run(
        ["callgrind_control", "-e", str(pid)], capture_output=True, text=True, check=False, timeout=120
    ).stdout
    counts = re.findall(r"^\s*Th\s+\d+\s+([\d,]+)\s*$", out, re.MULTILINE)
    # Just after `-i on`, before the idle server ran an instrumented instruction, callgrind
    # prints its totals header with no thread under it: nothing counted yet.
    if not counts and re.search(r"^\s*Totals:", out, re.MULTILINE):
        return 0
    if not counts:
        raise RuntimeError(f"no counts from callgrind_control:\n{out}")
    return sum(int(count.replace(",", "")) for count in counts)


class Server:
    """The application under callgrind, with what `stack.wait_http` asks of a process."""

    def __init__(self, port: int, env: dict[str, str]):
        self.log = tempfile.NamedTemporaryFile(prefix="darkroom-callgrind-", suffix=".log", delete=False)
        out_dir = tempfile.mkdtemp(prefix="darkroom-callgrind-")
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out_dir}/cg.%p",
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--workers",
            "1",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.pid = self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


class Table:
    """One 3-seat Pick Pic game played a turn at a time as the throughput loop plays it
    (`throughput.play_turn`); a finished game is replaced."""

    def __init__(self, client: Client):
        self.client = client
        self.players = make_users(3, "counted")
        self.new_game()

    def new_game(self) -> None:
        self.game = make_pickpic([user for user, _ in self.players])
        connections.close_all()

    def loop(self) -> None:
        played = play_turn(self.client, self.game, self.players)
        if played is None:
            self.new_game()
            return self.loop()
        assert played[0] == 201, played


def count(requests: int, loops: int, warm: int = 10) -> dict[str, Any]:
    """Instructions per GET /kinds/ and per move loop, each the mean over its phase."""
    port = free_port()
    server = Server(port, stack_env(port))
    try:
        wait_http(port, server, timeout=300)
        client = Client(port)
        client.conn.timeout = 300
        table = Table(client)
        for _ in range(warm):  # every path imported, the process's caches and pools filled
            client.call("kinds", "GET", "/api/v1/kinds/")
            table.loop()
        subprocess.run(["callgrind_control", "-i", "on", str(server.pid)], capture_output=True, timeout=120, check=True)
        start = total_instructions(server.pid)
        for _ in range(requests):
            status, _ = client.call("kinds", "GET", "/api/v1/kinds/")
            assert status == 200
        after_kinds = total_instructions(server.pid)
        for _ in range(loops):
            table.loop()
        after_loops = total_instructions(server.pid)
        client.conn.close()
    finally:
        server.stop()
    kinds, loop = (after_kinds - start) / requests, (after_loops - after_kinds) / loops
    return {"requests": requests, "loops": loops, "kinds": kinds, "loop": loop, "ratio": kinds / loop}
