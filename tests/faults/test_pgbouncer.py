"""Behind PgBouncer in transaction mode (docs/operations.md#pgbouncer): a private PostgreSQL with
Debian's pgbouncer in front of it, few server connections for many clients, and every process
(web, two workers, two schedulers) connecting through it with DATABASE_PGBOUNCER=on. Moves, clocks
and sweeps behave as they do on a direct connection: every clock fires once, no event is written
twice, no answer is a 500, nothing asks for a prepared statement a server connection lacks; and
the sweep's lock, which must outlast its transactions, holds and dies with its holder."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import psycopg
import pytest

from tests.faults import figures
from tests.faults.scenario import (
    MARKS,
    PLAYS,
    SCALE,
    HttpPlayer,
    assert_written_once,
    http_duel,
)
from tests.faults.stack.pgbouncer import PgBouncer
from tests.faults.stack.postgres import PrivatePostgres
from tests.faults.stack.procfile import Stack, stack_env
from tests.live_server import Server
from tests.worker import ROOT, Worker, wait_for

pytestmark = [
    *MARKS,
    pytest.mark.skipif(
        not shutil.which("pgbouncer") and not os.path.exists("/usr/sbin/pgbouncer"),
        reason="needs Debian's pgbouncer (make pgbouncer)",
    ),
]
POOLED = {"DATABASE_PGBOUNCER": "on"}


def play_by_hand(host: HttpPlayer, other: HttpPlayer, moves: int) -> str:
    """A Duel without a clock, `moves` cards played over HTTP, each by whoever's turn it is."""
    created = host.post("/games/", {"kind": "duel"})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert other.post(f"/games/{game_id}/join/").status_code == 200
    assert host.post(f"/games/{game_id}/start/").status_code == 200
    for _ in range(moves):
        for player in (host, other):
            listed = player.client.get(f"/games/{game_id}/legal-moves/")
            assert listed.status_code == 200, listed.text
            if listed.json()["moves"]:
                answer = player.post(
                    f"/games/{game_id}/moves/",
                    {"move": listed.json()["moves"][0], "expected_version": listed.json()["version"]},
                )
                assert answer.status_code == 201, answer.text
                break
    return game_id


def test_moves_clocks_and_sweeps_through_pgbouncer_in_transaction_mode():
    pg = PrivatePostgres().create()
    bouncer = PgBouncer(pg.port, pool_size=3).start()
    stack = Stack(stack_env(database_url=bouncer.url(), **POOLED), workers=2, beats=2)
    server = Server(DATABASE_URL=bouncer.url(), **POOLED)
    try:
        stack.start()
        server.start()
        host = HttpPlayer(server, f"host{time.monotonic_ns()}")
        other = HttpPlayer(server, f"other{time.monotonic_ns()}")
        played = play_by_hand(host, other, 8)
        games = [http_duel(host, HttpPlayer(server, f"p{i}x{time.monotonic_ns()}")) for i in range(2 * SCALE)]

        def over():
            with psycopg.connect(bouncer.url()) as conn:
                return (
                    conn.execute(
                        "SELECT count(*) FROM games_game WHERE id = ANY(%s) AND status <> 'finished'", [games]
                    ).fetchone()[0]
                    == 0
                )

        assert wait_for(over, timeout=90), stack.logs()
        assert stack.dead() == [], stack.logs()
        with psycopg.connect(pg.url) as conn:
            assert_written_once(games, db=conn)
            timings = conn.execute(
                "SELECT game_id, data, created_at FROM games_event WHERE type = 'TimerExpired' AND game_id = ANY(%s)",
                [games],
            ).fetchall()
            version, events = conn.execute(
                "SELECT g.version, count(e.id) FROM games_game g JOIN games_event e "
                "ON e.game_id = g.id WHERE g.id = %s GROUP BY g.id",
                [played],
            ).fetchone()
        assert version == events >= 8
        # The sweeps ran through the pooler: some found work or none, none failed.
        logs = stack.logs()
        assert "games.tasks.sweep" in logs and "succeeded" in logs
        assert "Traceback" not in logs and "prepared statement" not in logs, logs
        assert " 500 " not in server.output() and "Traceback" not in server.output(), server.output()
        # The audit pages through the games (no server-side cursor) and finds all well.
        audit = subprocess.run(
            [sys.executable, "manage.py", "verify_games"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env={**Worker().env(), "DATABASE_URL": bouncer.url(), **POOLED},
        )
        assert audit.returncode == 0, audit.stdout + audit.stderr
        figures.record(
            "behind pgbouncer in transaction mode (3 server connections; web, 2 workers, 2 schedulers)",
            games,
            rows=timings,
            clocks=PLAYS,
            targets={figures.LOST: 0, figures.DOUBLED: 0},
        )
    finally:
        server.stop()
        stack.stop()
        bouncer.stop()
        pg.destroy()


HOLD = """
import sys, time
import django
django.setup()
from games.play import scheduling
with scheduling.exclusive("sweep") as ours:
    print("held" if ours else "busy", flush=True)
    if ours and sys.argv[-1] == "hold":
        time.sleep(120)
"""


def test_the_sweep_lock_holds_through_pgbouncer_and_dies_with_its_holder():
    """Two server connections for every client: the holder's open transaction keeps one, and the
    lock with it, while the other sweepers come and go through the other one and find it taken.
    A SIGKILLed holder's lock is gone at once: the next sweeper holds it."""
    pg = PrivatePostgres().create()
    bouncer = PgBouncer(pg.port, pool_size=2).start()
    env = {**Worker().env(), "DATABASE_URL": bouncer.url(), **POOLED}

    def sweeper(*args: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-c", HOLD, *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

    def once() -> str:
        process = sweeper("try")
        return process.communicate(timeout=60)[0].strip().splitlines()[-1]

    holder = sweeper("hold")
    try:
        assert holder.stdout.readline().strip() == "held"
        assert once() == "busy"
        assert once() == "busy"  # the lock stayed with the holder's transaction, not a shared server connection
        os.killpg(holder.pid, signal.SIGKILL)
        holder.wait(10)
        assert wait_for(lambda: once() == "held", timeout=30)
    finally:
        if holder.poll() is None:
            os.killpg(holder.pid, signal.SIGKILL)
        bouncer.stop()
        pg.destroy()
