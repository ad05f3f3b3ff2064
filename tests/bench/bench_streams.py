"""Benchmarks of live updates (run by `make bench`, never by `make test`).

The Procfile's proxy, web and live processes (streams and long-polls go to `live` through the
proxy, as in production) against the test database; a client fleet in processes of its own
(tests/bench/stream_load.py, BENCH_FLEET_PROCS of them, each owning a share of the games) opens
BENCH_STREAMS SSE streams and BENCH_POLLS long-polls over BENCH_GAMES games, then every game moves
about every BENCH_INTERVAL seconds (3 and 10 by default, one case each) while they listen.
Printed: POST /moves/ p50/p99, delivery latency p50/p99 per channel (from the POST being sent, and
from its reply), readers that missed a move, the peak of the web server's PostgreSQL connections
against its pool bound, memory per open stream, all beside the GET /kinds/ ceiling measured by the
same fleet in the same run; and the CPU (as a fraction of a core) of the server and of the fleet
over the move phase, with the fleet's event-loop lag, to tell whose latency the figures are.

`test_bench_server_choice` runs a smaller fleet against each candidate ASGI server (how the
Procfile's was chosen).
"""

from __future__ import annotations

import functools
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from django.db import connections
from accounts import tokens

from accounts.models import User
from games.play import lobby
from games.realtime import channels
from tests.bench import report as bench_report
from tests.bench import stream_load
from tests.live_server import Server, asgi_alone, procfile_stack, web_connections
from tests.worker import ROOT

pytestmark = [pytest.mark.bench, pytest.mark.django_db(transaction=True)]

POOL_MAX = 10
# Fleet processes (BENCH_FLEET_PROCS). On raw sockets one process drives 1,000 streams, 1,000
# long-polls and 100 movers on about 0.04 of a core; a second one only adds a loop to schedule.
FLEET_PROCS = 1


def workers_in(command: list[str]) -> int:
    """Gunicorn worker processes of each of the command's servers (web, live)."""
    text = " ".join(command)
    named = re.search(r"(?:--workers|-w) (\d+)", text)
    per_server = int(named.group(1)) if named else runpy.run_path(str(ROOT / "gunicorn.conf.py"))["workers"]
    return per_server * max(1, text.count("gunicorn "))


def group(root_pid: int):
    """The server's processes (its process group: master and workers): (pid, /proc stat fields)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == root_pid:
            yield pid, fields


PARTS = ("live", "proxy", "web")


def part_of(pid: str) -> str:
    """Which of the stack's processes this is: `live` (ASGI, the streams), the proxy (nginx) or
    `web` (WSGI); a process of none of them (the shell that started them) counts as `web`."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "web"
    if b"config.asgi:application" in args:
        return "live"
    return "proxy" if args[0].startswith(b"nginx") or args[0].endswith(b"/nginx") else "web"


def rss_kib(root_pid: int) -> dict[str, int]:
    """Resident memory of the server, by part (PARTS): the streams' budget is `live`'s, and the
    proxy holds two connections of its own for each stream."""
    total = dict.fromkeys(PARTS, 0)
    for pid, _ in group(root_pid):
        try:
            total[part_of(pid)] += int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1))
        except (OSError, AttributeError):
            continue
    return total


def threads(root_pid: int) -> int:
    """Threads of the server's processes, all of them: constant as streams grow when no reader
    holds a thread."""
    total = 0
    for pid, _ in group(root_pid):
        try:
            total += int(re.search(r"Threads:\s+(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1))
        except (OSError, AttributeError):
            continue
    return total


def cpu_seconds(root_pid: int) -> float:
    """CPU time the server has used (user + system): on a shared machine a figure that the other
    jobs do not inflate, unlike latencies."""
    return sum(int(f[11]) + int(f[12]) for _, f in group(root_pid)) / os.sysconf("SC_CLK_TCK")


def make_games(count: int, readers: int) -> dict:
    def user(name):
        person = User.objects.create_user(username=name, password="correct horse battery")
        return person, tokens.issue(person, "bench")[1]

    games = []
    for i in range(count):
        (first, t0), (second, t1) = user(f"bench-a{i}"), user(f"bench-b{i}")
        game = lobby.create_game(first, "duel", {"hand_size": 6}, 2)
        lobby.join_game(game.pk, second)
        game = lobby.start_game(game.pk, first)
        games.append(
            {
                "id": str(game.pk),
                "version": game.version,
                "players": [{"seat": 0, "token": t0}, {"seat": 1, "token": t1}],
            }
        )
    return {"games": games, "readers": [user(f"bench-r{i}")[1] for i in range(readers)]}


class Load:
    """The server, the fleet's processes and the samplers of one run."""

    def __init__(self, command_for, plan: dict, env: dict[str, str], procs: int = 1):
        self.server = Server(command=None, **env)
        self.server.command = command_for(self.server.port)
        self.plan = {**plan, "base": self.server.url}
        self.procs = procs
        self.peak = 0

    def sample(self, done: threading.Event):
        while not done.is_set():
            self.peak = max(self.peak, web_connections())
            done.wait(0.05)
        connections.close_all()

    def expect(self, fleet: list[subprocess.Popen], word: str) -> None:
        for client in fleet:
            line = client.stdout.readline().strip()
            assert line == word, f"a fleet process failed before {word!r}: {line!r}\n{self.server.output()[-2000:]}"

    @staticmethod
    def go(fleet: list[subprocess.Popen]) -> None:
        for client in fleet:
            client.stdin.write("go\n")
            client.stdin.flush()

    def run(self) -> dict:
        # A run before this one (its processes stopped, not each stream closed) left its places
        # in the stream limits, which run out only with their lease: this run starts with none.
        for pattern in (channels.key("streams", "*"), channels.key("polls", "*")):
            for name in channels.client().scan_iter(match=pattern):
                channels.client().delete(name)
        self.server.start()
        done = threading.Event()
        sampler = threading.Thread(target=self.sample, args=(done,))
        sampler.start()
        fleet: list[subprocess.Popen] = []
        plans: list[str] = []
        probe = subprocess.Popen(
            [sys.executable, str(Path(stream_load.__file__)), "--probe"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            for share in stream_load.split(self.plan, self.procs):
                with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                    json.dump(share, f)
                plans.append(f.name)
                fleet.append(
                    subprocess.Popen(
                        [sys.executable, str(Path(stream_load.__file__)), f.name],
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                        cwd=ROOT,
                    )
                )
            self.expect(fleet, "measured")
            idle, idle_threads = rss_kib(self.server.process.pid), threads(self.server.process.pid)
            self.go(fleet)
            self.expect(fleet, "open")
            opened, open_threads = rss_kib(self.server.process.pid), threads(self.server.process.pid)
            self.go(fleet)
            self.expect(fleet, "polling")
            cpu, began = cpu_seconds(self.server.process.pid), time.monotonic()
            self.go([*fleet, probe])
            self.expect(fleet, "moved")
            cpu, wall = cpu_seconds(self.server.process.pid) - cpu, time.monotonic() - began
            self.go([probe])
            idle_lag = json.loads(probe.stdout.readline())
            results = [json.loads(client.stdout.readline()) for client in fleet]
            for client in [*fleet, probe]:
                client.wait(60)
        finally:
            for client in [*fleet, probe]:
                if client.poll() is None:
                    client.kill()
                    client.wait()
            for name in plans:
                os.unlink(name)
            done.set()
            sampler.join()
            self.server.stop()
        result = stream_load.summarize(results)
        result["rss_idle_kib"], result["rss_open_kib"] = idle, opened
        result["kib_per_stream"] = {part: (opened[part] - idle[part]) / max(1, self.plan["streams"]) for part in PARTS}
        result["threads_idle"], result["threads_open"] = idle_threads, open_threads
        result["peak_pg"] = self.peak
        result["cpu_moving_s"], result["wall_moving_s"] = cpu, wall
        result["idle_lag"] = idle_lag
        return result


def report(title: str, r: dict, pool_bound: int) -> str:
    c, m, f = r["ceiling"], r["moves"], r["fleet"]
    rate = m["count"] / max(r["move_seconds"], 1e-9)
    lines = [
        f"\n{title}",
        f"  GET /kinds/ ceiling: {c['rate']:.0f} req/s, p50 {c['p50_ms']:.1f} ms, p99 {c['p99_ms']:.1f} ms "
        f"({c['concurrency']} concurrent)",
        f"  streams opened: {r['streams_open']} in {r['streams_open_seconds']:.1f} s, "
        f"failed {r['streams_failed']}; long-polls: {r['polls']}",
        f"  POST /moves/: {m['count']} moves in {r['move_seconds']:.1f} s ({rate:.1f}/s), "
        f"p50 {m['p50_ms']:.0f} ms, p99 {m['p99_ms']:.0f} ms (p99 / kinds p99 = {m['p99_ms'] / c['p99_ms']:.1f}x)",
        f"  pace kept: {r['paced']['rate']:.1f} moves/s (each of {r['paced']['games']} games' moves per second "
        f"between its first and last move, summed; the phase's count over its length is lower by its ends)",
    ]
    for name in ("sse", "long_poll"):
        d = r[name]
        lines.append(
            f"  delivery {name}: {d['deliveries']} (missing {d['missing']}), from POST sent p50 "
            f"{d['p50_ms']:.0f} ms p99 {d['p99_ms']:.0f} ms; after its reply "
            f"p50 {d['p50_after_reply_ms']:.0f} ms p99 {d['p99_after_reply_ms']:.0f} ms"
        )
    if r["long_poll"].get("odd"):
        lines.append(f"  long-poll answers other than 200 (or failures): {r['long_poll']['odd']}")
    if r.get("movers_failed") or r.get("movers_unfinished"):
        lines.append(
            f"  games that did not finish their rounds by the deadline: {r['movers_unfinished']}; "
            f"failed: {r['movers_failed']}"
        )
    moved = max(1, m["count"])
    lines.append(
        f"  server CPU while moving: {r['cpu_moving_s']:.0f} s over {r['wall_moving_s']:.0f} s "
        f"({r['cpu_moving_s'] / r['wall_moving_s']:.2f} of a core), "
        f"{1000 * r['cpu_moving_s'] / moved:.0f} ms per move (its GET legal-moves and POST, and its delivery to every reader)"
    )
    lines.append(
        f"  fleet ({f['procs']} processes) while moving: CPU {f['cpu_s']:.0f} s over {f['wall_s']:.0f} s "
        f"({f['cpu_s'] / f['wall_s']:.2f} of a core; busiest process {f['busiest_core']:.2f}); "
        f"event-loop lag p50 {f['lag_p50_ms']:.1f} ms, p99 {f['lag_p99_ms']:.1f} ms "
        f"(worst process {f['worst_lag_p99_ms']:.1f} ms), max {f['lag_max_ms']:.0f} ms"
    )
    i = r["idle_lag"]
    lines.append(
        f"  an idle event loop beside them (the machine's scheduling delay alone): lag p50 "
        f"{i['lag_p50_ms']:.1f} ms, p99 {i['lag_p99_ms']:.1f} ms, max {i['lag_max_ms']:.0f} ms"
    )
    lines.append(f"  peak web PostgreSQL connections: {r['peak_pg']} (bound: {pool_bound})")
    idle, opened, each = r["rss_idle_kib"], r["rss_open_kib"], r["kib_per_stream"]
    lines.append(
        f"  memory of live: {idle['live'] / 1024:.0f} MiB idle, {opened['live'] / 1024:.0f} MiB with the streams "
        f"open: {each['live']:.1f} KiB per open stream; the proxy's {each['proxy']:.1f} KiB and web's "
        f"{each['web']:.1f} KiB more (the whole server: {sum(each.values()):.1f} KiB, "
        f"{sum(opened.values()) / 1024:.0f} MiB)"
    )
    lines.append(
        f"  threads of the server's processes: {r['threads_idle']} idle, {r['threads_open']} with the "
        f"streams and long-polls open"
    )
    lines.append("  the framework budget, judged on this run:")
    lines += ["  " + bench_report.judged(label, ok) for label, ok in bench_report.stream_budget(r)]
    return "\n".join(lines)


BENCH_ENV = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "bench-only",
    "DJANGO_SECURE_SSL_REDIRECT": "false",
    "LOG_LEVEL": "WARNING",
    "DATABASE_POOL": "on",
    "DATABASE_POOL_MAX": str(POOL_MAX),
    "LIVE_DB_THREADS": "4",
    "LIVE_HEARTBEAT_SECONDS": "15",
    "LIVE_POLL_SECONDS": "5",
}


def plan_for(games: dict, streams: int, polls: int, rounds: int, interval: float) -> dict:
    return {
        **games,
        "streams": streams,
        "polls": polls,
        "rounds": rounds,
        "interval": interval,
        "kinds_seconds": 5,
        "kinds_concurrency": 50,
        "open_timeout": 240,
        "settle": 5,
        "grace": 8,
        "move_deadline": float(os.environ.get("BENCH_MOVE_DEADLINE", 240)),
    }


def fleet_procs() -> int:
    return int(os.environ.get("BENCH_FLEET_PROCS", FLEET_PROCS))


def intervals() -> list[float]:
    """BENCH_INTERVAL: the mean seconds between two moves of one game (a comma-separated list runs
    each). The budget fixes no move rate: 3 s asks 33 moves/s of the server over 100 games, 10 s 10."""
    return [float(x) for x in os.environ.get("BENCH_INTERVAL", "3,10").split(",")]


def rounds_at(interval: float) -> int:
    # Moves per game: 8, or fewer at slow paces so that the move phase stays about a minute.
    return int(os.environ.get("BENCH_ROUNDS", max(3, min(8, round(60 / interval)))))


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("interval", intervals(), ids=lambda i: f"every-{i:g}s")
def test_bench_streams_and_long_polls_while_games_move(interval, capsys):
    streams = int(os.environ.get("BENCH_STREAMS", 1000))
    polls = int(os.environ.get("BENCH_POLLS", 1000))
    count = int(os.environ.get("BENCH_GAMES", 100))
    rounds = rounds_at(interval)
    plan = plan_for(make_games(count, readers=100), streams, polls, rounds=rounds, interval=interval)
    # BENCH_STREAMS_SERVER=web: one ASGI server alone serving every route with the site's settings,
    # as before the `live` process (docs/operations.md), for a before-and-after on the same machine.
    alone = os.environ.get("BENCH_STREAMS_SERVER") == "web"
    load = Load(
        functools.partial(asgi_alone, settings_module="tests.settings") if alone else procfile_stack,
        plan,
        BENCH_ENV,
        procs=fleet_procs(),
    )
    bound = workers_in(load.server.command) * POOL_MAX
    result = load.run()
    result.update(streams_open=streams, polls=polls, moves_asked_per_s=count / interval)
    with capsys.disabled():
        print(
            report(
                f"Live updates, {'one ASGI server alone' if alone else 'proxy, web and live'}: "
                f"{streams} SSE + {polls} long-polls over {count} games, each moving every {interval:g} s "
                f"on average ({count / interval:.0f} moves/s asked), {rounds} rounds",
                result,
                bound,
            )
        )
    assert result["moves"]["count"] > 0 and result["sse"]["deliveries"] > 0
    assert result["peak_pg"] <= bound  # the pool's bound holds whatever the number of clients


@pytest.mark.timeout(1800)
def test_bench_ten_thousand_streams_over_five_hundred_games(capsys):
    """The size a `live` box is sized for (docs/operations.md, "Limits of a box"): 10,000 SSE
    streams over 500 games, each game moving every 50 s on average (10 moves/s), no long-polls."""
    streams = int(os.environ.get("BENCH_BIG_STREAMS", 10_000))
    count, interval = int(os.environ.get("BENCH_BIG_GAMES", 500)), 50.0
    plan = plan_for(
        make_games(count, readers=200), streams, 0, rounds=int(os.environ.get("BENCH_BIG_ROUNDS", 2)), interval=interval
    )
    plan["open_timeout"] = 600
    # The fleet is one address and 200 readers standing for thousands of browsers: the per-user
    # and per-address limits are for people, not for a load generator.
    env = {**BENCH_ENV, "LIVE_STREAMS_PER_USER": str(streams), "LIVE_STREAMS_PER_ADDRESS": str(streams)}
    load = Load(procfile_stack, plan, env, procs=fleet_procs())
    bound = workers_in(load.server.command) * POOL_MAX
    result = load.run()
    result.update(streams_open=streams, polls=0, moves_asked_per_s=count / interval)
    with capsys.disabled():
        print(
            report(
                f"Live updates at a box's size, proxy, web and live: {streams} SSE over {count} games, each "
                f"moving every {interval:g} s on average ({count / interval:.0f} moves/s asked)",
                result,
                bound,
            )
        )
    assert result["moves"]["count"] > 0 and result["sse"]["deliveries"] > 0


CANDIDATES = {
    "gunicorn+uvicorn-worker": lambda port: [
        sys.executable,
        "-m",
        "gunicorn",
        "config.asgi:application",
        "-k",
        "uvicorn_worker.UvicornWorker",
        "--workers",
        "2",
        "--bind",
        f"127.0.0.1:{port}",
    ],
    "granian": lambda port: [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--workers",
        "2",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-ws",
        "config.asgi:application",
    ],
    "daphne": lambda port: [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "config.asgi:application",
    ],
}


@pytest.mark.timeout(900)
@pytest.mark.parametrize("name", list(CANDIDATES))
def test_bench_server_choice(name, capsys):
    pytest.importorskip({"gunicorn+uvicorn-worker": "uvicorn_worker"}.get(name, name))
    plan = plan_for(make_games(20, readers=20), streams=200, polls=200, rounds=6, interval=2)
    load = Load(CANDIDATES[name], plan, BENCH_ENV, procs=fleet_procs())
    result = load.run()
    result.update(streams_open=200, polls=200)
    with capsys.disabled():
        print(
            report(
                f"Candidate server {name}: 200 SSE + 200 long-polls over 20 games",
                result,
                workers_in(load.server.command) * POOL_MAX,
            )
        )
    assert result["moves"]["count"] > 0
