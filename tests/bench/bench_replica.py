"""Reads moved to a replica (docs/scaling.md#reads-moved-to-replicas; run by `make bench`, or
alone as docs/benchmarks.md says): what visitors reading lobby lists, open games, leaderboards,
profiles and replays cost the primary while games move, when those reads go to a streaming
replica.

A private primary holding a copy of the test database and a replica made from it with
`pg_basebackup -R` (tests/faults/stack/postgres.py), and the Procfile's `web:` line with
REPLICA_DATABASE_URL. BENCH_REPLICA_GAMES Pick Pic games (20) each move once every
BENCH_REPLICA_MOVE_SECONDS (1 s: a steady 20 moves/s, the same in every phase, so the phases
compare CPU per move at one pace). BENCH_REPLICA_VISITORS visitors (2,000) each read one page every
BENCH_REPLICA_PAGE_SECONDS (30 s: a person reads a list or a replay for half a minute before the
next click), so 2,000 visitors ask about 67 pages a second: a steady rate, spread over
BENCH_REPLICA_CLIENTS connections (16) that each take the next due request, not one thread per
visitor. Visitors are signed in (the lists need an account) and never write, so their reads are
not pinned to the primary; each still costs the primary its token lookup.

Phases of BENCH_REPLICA_SECONDS (45) with visitors off and on, BENCH_REPLICA_PAIRS pairs (2), the
order alternating pair by pair so the machine's drift falls on both. The figure: the primary's CPU
per move, its whole cluster's (postmaster, backends, WAL sender, background processes, and the
exited ones in the postmaster's children's time, from /proc), visitors off beside visitors on, and
the median over the pairs of on against off (two phases side by side in time); the replica's CPU
and the machine's load beside them. A benchmark on a shared machine informs, it does not fail a
build."""

from __future__ import annotations

import os
import random
import re
import statistics
import threading
import time
from pathlib import Path

import httpx
import pytest

from games.community import social
from games.play import lobby
from tests.bench.stack import procfile_command
from tests.bench.throughput import Client, make_pickpic, make_users, percentile, play_turn
from tests.faults.stack.postgres import PrivatePostgres
from tests.live_server import Server

pytestmark = [pytest.mark.bench, pytest.mark.django_db(transaction=True)]

GAMES = int(os.environ.get("BENCH_REPLICA_GAMES", "20"))
MOVE_SECONDS = float(os.environ.get("BENCH_REPLICA_MOVE_SECONDS", "1"))
VISITORS = int(os.environ.get("BENCH_REPLICA_VISITORS", "2000"))
PAGE_SECONDS = float(os.environ.get("BENCH_REPLICA_PAGE_SECONDS", "30"))
CLIENTS = int(os.environ.get("BENCH_REPLICA_CLIENTS", "16"))
SECONDS = float(os.environ.get("BENCH_REPLICA_SECONDS", "45"))
PAIRS = int(os.environ.get("BENCH_REPLICA_PAIRS", "2"))
ACCOUNTS = 50  # the visitors' accounts: a visitor is one of them reading one page
SHOWN = 30  # open games, finished games (replays) and profiles the visitors read
TICK = os.sysconf("SC_CLK_TCK")


def cluster_seconds(pg: PrivatePostgres) -> float:
    """CPU (user + system) used so far by a cluster: its postmaster and the processes it runs now,
    and, in the postmaster's children's time, every one it has reaped."""
    root = int((pg.data / "postmaster.pid").read_text().split()[0])
    ticks = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile: the postmaster's children's time has it
        if int(pid) == root or int(fields[1]) == root:
            ticks += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return ticks / TICK


def seed() -> tuple[list, list[str], list[str]]:
    """In the test database, before the primary copies it: the movers' tables and their games,
    the visitors' tokens, and what visitors read (open games, finished games, their players)."""
    players = make_users(3 * GAMES, "mover")
    tables = [players[3 * i : 3 * i + 3] for i in range(GAMES)]
    games = [make_pickpic([user for user, _ in table]) for table in tables]
    visitors = [token for _, token in make_users(ACCOUNTS, "visitor")]
    hosts = make_users(2 * SHOWN, "host")
    finished = []
    for i in range(SHOWN):
        (host, _), (other, _) = hosts[2 * i], hosts[2 * i + 1]
        lobby.create_game(other, "duel", {}, 2)  # open, waiting for a player: the lobby lists it
        game = lobby.create_game(host, "duel", {}, 2)
        lobby.join_game(game.pk, other)
        lobby.start_game(game.pk, host)
        social.resign(game.pk, other)
        finished.append(str(game.pk))
    pages = ["/api/v1/seeks/", "/api/v1/games/?status=open", "/api/v1/spectate/"] * 4
    pages += ["/api/v1/kinds/duel/leaderboard/", "/api/v1/kinds/pickpic/leaderboard/"] * 2
    pages += [f"/api/v1/players/{user.username}/" for user, _ in hosts[: SHOWN // 3]]
    pages += [f"/api/v1/games/{game}/" for game in finished[: SHOWN // 3]]
    pages += [f"/api/v1/games/{game}/events/" for game in finished[: SHOWN // 3]]
    return list(zip(tables, games)), visitors, pages


class Movers:
    """Each game's seat to move plays once every MOVE_SECONDS (GET game, GET legal-moves, POST
    move), the games' turns spread over the interval; a finished game is replaced by a new one."""

    def __init__(self, port: int, tables: list):
        self.port, self.tables = port, [list(pair) for pair in tables]

    def new_game(self, client: Client, table) -> str:
        (_, first), *others = table
        status, game = client.call("new", "POST", "/api/v1/games/", first, {"kind": "pickpic", "options": {}})
        assert status == 201, game
        for _, token in others:
            assert client.call("join", "POST", f"/api/v1/games/{game['id']}/join/", token)[0] == 200
        assert client.call("start", "POST", f"/api/v1/games/{game['id']}/start/", first)[0] == 200
        return game["id"]

    def run(self, seconds: float) -> dict:
        moves, errors = [0] * len(self.tables), []
        stop = time.monotonic() + seconds

        def play(index: int) -> None:
            client = Client(self.port)
            due = time.monotonic() + MOVE_SECONDS * index / len(self.tables)
            while due < stop:
                time.sleep(max(0.0, due - time.monotonic()))
                due = max(due + MOVE_SECONDS, time.monotonic())  # late: the next one on time, no burst
                table, game = self.tables[index]
                try:
                    played = play_turn(client, game, table)
                    if played is None:
                        self.tables[index][1] = self.new_game(client, table)
                    elif played[0] == 201:
                        moves[index] += 1
                    else:
                        errors.append(played[0])
                except Exception as exc:  # counted: a bench reports, it does not judge
                    errors.append(repr(exc)[:200])
                    client.conn.close()
            client.conn.close()

        threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(len(self.tables))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(seconds + 60)
        return {"moves": sum(moves), "move_errors": errors}


def visit(port: int, tokens: list[str], pages: list[str], seconds: float) -> dict:
    """VISITORS / PAGE_SECONDS GETs a second for `seconds`, the n-th due n / rate after the start,
    taken by whichever of CLIENTS connections is free: (answered 200, others, latencies)."""
    rate = VISITORS / PAGE_SECONDS
    start, lock, taken = time.monotonic(), threading.Lock(), [0]
    statuses: list[int] = []
    times: list[float] = []
    chooser = random.Random(1)
    plan = [(chooser.choice(tokens), chooser.choice(pages)) for _ in range(4096)]

    def read() -> None:
        client = Client(port)
        while True:
            with lock:
                n = taken[0]
                taken[0] += 1
            due = start + n / rate
            if due >= start + seconds:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            token, page = plan[n % len(plan)]
            began = time.perf_counter()
            try:
                status, _ = client.call("visit", "GET", page, token)
            except Exception:
                status = 0
                client.conn.close()
            times.append(time.perf_counter() - began)
            statuses.append(status)
        client.conn.close()

    threads = [threading.Thread(target=read, daemon=True) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    return {"reads": statuses.count(200), "read_errors": len(statuses) - statuses.count(200), "times": times}


def metric(server: Server, name: str) -> float | None:
    text = httpx.get(f"{server.url}/metrics", timeout=10).text
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    return float(found.group(1)) if found else None


def phase(primary, replica, movers: Movers, visiting: bool, port: int, tokens, pages, seconds: float) -> dict:
    before = (cluster_seconds(primary), cluster_seconds(replica), time.monotonic())
    out: dict = {"visiting": visiting}
    reader = None
    if visiting:
        reader = threading.Thread(target=lambda: out.update(visit(port, tokens, pages, seconds)), daemon=True)
        reader.start()
    out.update(movers.run(seconds))
    if reader:
        reader.join(seconds + 90)
    out.update(
        primary_s=cluster_seconds(primary) - before[0],
        replica_s=cluster_seconds(replica) - before[1],
        elapsed=time.monotonic() - before[2],
        load=os.getloadavg()[0],
    )
    return out


def per_move(runs: list[dict]) -> float:
    """The primary's CPU seconds per move over `runs`."""
    return sum(r["primary_s"] for r in runs) / max(1, sum(r["moves"] for r in runs))


def line(name: str, runs: list[dict]) -> str:
    moves = sum(r["moves"] for r in runs)
    elapsed = SECONDS * len(runs)  # the load's own time (a phase ends when its last reply is in)
    primary_ms = 1000 * sum(r["primary_s"] for r in runs) / max(1, moves)
    text = (
        f"{name}: {moves} moves ({moves / elapsed:.1f}/s), primary CPU {primary_ms:.2f} ms per move "
        f"({sum(r['primary_s'] for r in runs) / elapsed:.2f} of a core), "
        f"replica CPU {sum(r['replica_s'] for r in runs) / elapsed:.2f} of a core"
    )
    reads = sum(r.get("reads", 0) for r in runs)
    if reads:
        times = [t for r in runs for t in r["times"]]
        text += (
            f"; {reads} visitor reads ({reads / elapsed:.1f}/s asked {VISITORS / PAGE_SECONDS:.1f}/s), "
            f"{sum(r['read_errors'] for r in runs)} not 200, p50 {1000 * statistics.median(times):.0f} ms, "
            f"p99 {1000 * percentile(times, 99):.0f} ms"
        )
    errors = [e for r in runs for e in r["move_errors"]]
    return text + f"; move errors {len(errors)}{f' {errors[:3]}' if errors else ''}"


@pytest.mark.timeout(3600)
def test_bench_visitors_reading_the_replica_cost_the_primary_little_per_move(capsys):
    tables, tokens, pages = seed()
    primary = PrivatePostgres().create()
    replica = server = None
    try:
        replica = primary.replica()
        server = Server(
            command=["/bin/sh", "-c", f"exec {procfile_command('web')}"],
            DATABASE_URL=primary.url,
            REPLICA_DATABASE_URL=replica.url,
            THROTTLE_USER="10000000/min",
            THROTTLE_ANON="10000000/min",
            LOG_LEVEL="WARNING",
        ).start()
        port = server.port
        idle = cluster_seconds(primary)
        time.sleep(10)
        idle = (cluster_seconds(primary) - idle) / 10
        movers = Movers(port, tables)
        phase(
            primary, replica, movers, True, port, tokens, pages, min(SECONDS, 15)
        )  # warm: connections, imports, caches
        runs, pairs = [], []
        for pair in range(PAIRS):
            both = {}
            for visiting in (False, True) if pair % 2 == 0 else (True, False):
                both[visiting] = phase(primary, replica, movers, visiting, port, tokens, pages, SECONDS)
                runs.append(both[visiting])
            pairs.append(per_move([both[True]]) / per_move([both[False]]) - 1)
        reads_on_replica = metric(server, "darkroom_replica_reads_enabled")
        off, on = [r for r in runs if not r["visiting"]], [r for r in runs if r["visiting"]]
        change = statistics.median(pairs)
        report = [
            f"reads moved to the replica: {GAMES} games moving every {MOVE_SECONDS:g} s, {VISITORS} visitors "
            f"reading a page every {PAGE_SECONDS:g} s over {CLIENTS} connections, {PAIRS} pairs of "
            f"{SECONDS:g} s phases",
            f"  the primary idle beforehand (the replica streaming, the server's pool open): {idle:.3f} of a core",
            "  " + line("visitors off", off),
            "  " + line("visitors on ", on),
            f"  primary CPU per move, visitors on against off, median of the pairs: {change:+.1%} [target "
            f"within 10%: {'met' if abs(change) <= 0.10 else 'NOT MET'}] (each pair: "
            + ", ".join(f"{ratio:+.1%}" for ratio in pairs)
            + f"; all phases pooled: {per_move(on) / per_move(off) - 1:+.1%}); replica serving reads: {reads_on_replica}",
            "  each phase (visitors, primary ms per move, load): "
            + ", ".join(
                f"{'on' if r['visiting'] else 'off'} {1000 * r['primary_s'] / max(1, r['moves']):.2f} ms "
                f"(load {r['load']:.2f})"
                for r in runs
            ),
        ]
        with capsys.disabled():
            print("\n" + "\n".join(report))
        assert all(r["moves"] for r in runs), runs
        assert sum(r["reads"] for r in on), on
    finally:
        if server:
            server.stop()
        if replica:
            replica.destroy()
        primary.destroy()
