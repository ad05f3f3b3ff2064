"""The write path and the timers at load: the code behind `bench_throughput.py` (and its smoke
test in `make test`, which runs it on tiny sizes so it cannot rot).

Every figure is taken beside a ceiling measured in the same run:
- the move loop (GET game, GET legal-moves, POST move) of N clients playing Pick Pic against the
  server the Procfile's `web:` line starts, beside that server's GET /kinds/ rate and pgbench's
  one-row INSERT rate into a copy of games_event at the same concurrency;
- expiry lateness of many games whose deadlines fall within the same second, with the Procfile's
  `worker:` and `beat:` lines;
- loading the state of short and 10,000-event games (from the snapshot, the cache entry deleted).

Only 127.0.0.1 is ever contacted; every loop is bounded in time.
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable

from django.db import connection, connections

from tests.bench.stack import MACHINE_PARTS, machine_seconds, per_unit_ms, procfile_command, running


# ---------------------------------------------------------------------------------------------
# HTTP load
# ---------------------------------------------------------------------------------------------
class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.times: dict[str, list[float]] = {}

    def call(self, label: str, method: str, path: str, token: str | None = None, body=None):
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        start = time.perf_counter()
        try:
            self.conn.request(method, path, data, headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            raise
        self.times.setdefault(label, []).append(time.perf_counter() - start)
        return response.status, (json.loads(raw) if raw else None)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def run_clients(port: int, clients: int, seconds: float, loop: Callable[[Client, int], None]) -> dict[str, Any]:
    """`clients` threads, each calling loop(client, index) until `seconds` pass."""
    stop = time.monotonic() + seconds
    made = [Client(port) for _ in range(clients)]
    errors: list[str] = []

    def work(index: int) -> None:
        client = made[index]
        while time.monotonic() < stop:
            try:
                loop(client, index)
            except Exception as exc:  # counted, not fatal: a bench reports, it does not judge
                errors.append(repr(exc)[:200])
                client.conn.close()
                if len(errors) > 1000:
                    return

    started = time.monotonic()
    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    elapsed = time.monotonic() - started
    times: dict[str, list[float]] = {}
    for client in made:
        for label, values in client.times.items():
            times.setdefault(label, []).extend(values)
        client.conn.close()
    return {"elapsed": elapsed, "times": times, "errors": errors}


def kinds_phase(port: int, clients: int, seconds: float) -> tuple[int, float]:
    """GET /kinds/ from `clients` clients for `seconds`: (requests made, seconds taken)."""

    def loop(client: Client, _index: int) -> None:
        status, _ = client.call("kinds", "GET", "/api/v1/kinds/")
        assert status == 200, status

    out = run_clients(port, clients, seconds, loop)
    return len(out["times"].get("kinds", [])), out["elapsed"]


def floor_phase(port: int, clients: int, seconds: float, tokens: list[str]) -> tuple[int, float]:
    """Loops of three authenticated GET /accounts/me/ (client i as tokens[i]) for `seconds`: what
    the server charges any loop of three requests before it reads a game or writes a move (the
    token, the throttle, the middleware, the thread hop, rendering). (loops made, seconds taken)."""

    def loop(client: Client, index: int) -> None:
        for _ in range(3):
            status, _ = client.call("floor", "GET", "/api/v1/accounts/me/", tokens[index])
            assert status == 200, status

    out = run_clients(port, clients, seconds, loop)
    return len(out["times"].get("floor", [])) // 3, out["elapsed"]


def free_move_bound(kinds_ms: dict[str, float], loop_ms: dict[str, float]) -> float:
    """The loop's rate against GET /kinds/'s if the web server did the move's own work for
    nothing, each of the loop's three requests costing it what a GET /kinds/ does, while
    everything else (PostgreSQL, Redis, the client, the worker) costs what it cost in this run."""
    kinds = sum(kinds_ms.values())
    rest = sum(value for part, value in loop_ms.items() if part != "web")
    return kinds / (3 * kinds_ms["web"] + rest)


def own_work(
    kinds_ms: dict[str, float], floor_ms: dict[str, float], loop_ms: dict[str, float], target: float = 0.25
) -> dict[str, float]:
    """A move's own machine CPU (the loop's, less the three-request floor's) in GET /kinds/
    requests, beside what the target leaves it: a loop may cost 1 / target GET /kinds/, of which
    the floor takes its share whatever the move does."""
    kinds, floor, loop = sum(kinds_ms.values()), sum(floor_ms.values()), sum(loop_ms.values())
    return {"own": (loop - floor) / kinds, "allowed": 1 / target - floor / kinds}


# ---------------------------------------------------------------------------------------------
# Games made through the services (fast set-up; what is measured goes over HTTP)
# ---------------------------------------------------------------------------------------------
def make_users(count: int, prefix: str) -> list[tuple[Any, str]]:
    from accounts import services as accounts

    return [
        accounts.register(f"{prefix}{i}-{random.randrange(10**9)}", "correct horse battery", f"{prefix}{i}@example.com")
        for i in range(count)
    ]


def make_pickpic(users, options: dict[str, Any] | None = None):
    from games.play import lobby

    game = lobby.create_game(users[0], "pickpic", {"target": 200, **(options or {})}, len(users))
    for user in users[1:]:
        lobby.join_game(game.pk, user)
    lobby.start_game(game.pk, users[0])
    return game.pk


API, SKELETON = "/api/v1/", "/bench-skeleton/"  # the real loop's endpoints; the skeleton's (skeleton.py)


def play_turn(
    client: Client, game_id, table: list[tuple[Any, str]], base: str = API, tag: str = ""
) -> tuple[int, Any] | None:
    """One move loop on a Pick Pic game: GET game (as the table's first player), GET legal-moves and
    POST the first legal move, as the seat to move, under `base`, the times labelled after `tag`.
    The POST's (status, body); None when the game is no longer active."""
    path = f"{base}games/{game_id}/"
    status, game = client.call(f"{tag}GET game", "GET", path, table[0][1])
    assert status == 200, (status, game)
    if game["status"] != "active":
        return None
    seats = {p["seat"]: p["user"] for p in game["players"]}
    token = next(t for u, t in table if u.pk == seats[game["active_seats"][0]])
    status, legal = client.call(f"{tag}GET legal-moves", "GET", f"{path}legal-moves/", token)
    assert status == 200, (status, legal)
    return client.call(
        f"{tag}POST move",
        "POST",
        f"{path}moves/",
        token,
        {"move": legal["moves"][0], "expected_version": legal["version"]},
    )


class MoveLoad:
    """Each client plays one 3-seat Pick Pic game: GET game, GET legal-moves, POST move, as the
    seat whose turn it is. A finished game is replaced by a fresh one. The games live across
    `run`s, so the phases of several interleaved pairs play on. With `base` = SKELETON, the same
    loop on the skeleton's endpoints (its own games, its times labelled "skeleton ...")."""

    def __init__(self, clients: int, base: str = API):
        self.base, self.tag = base, ("skeleton " if base == SKELETON else "")
        players = make_users(3 * clients, "skeleton" if self.tag else "mover")
        self.tables = [players[3 * i : 3 * i + 3] for i in range(clients)]
        self.games = [make_pickpic([u for u, _ in table]) for table in self.tables]
        self.lock = threading.Lock()
        self.counts = {"moves": 0, "conflicts": 0, "finished": 0}

    def loop(self, client: Client, index: int) -> None:
        played = play_turn(client, self.games[index], self.tables[index], self.base, self.tag)
        if played is None:
            with self.lock:
                self.counts["finished"] += 1
            self.games[index] = make_pickpic([u for u, _ in self.tables[index]])
            connections.close_all()
            return
        status, body = played
        with self.lock:
            if status == 201:
                self.counts["moves"] += 1
            elif status == 409:
                self.counts["conflicts"] += 1
            else:
                raise AssertionError((status, body))

    def warm(self, port: int, seconds: float) -> None:
        """Unmeasured load first: every server thread opens its database connection, every code
        path is imported."""
        run_clients(port, len(self.games), seconds, self.loop)

    def run(self, port: int, seconds: float) -> dict[str, Any]:
        self.counts.update(moves=0, conflicts=0, finished=0)
        before = machine_seconds()
        out = run_clients(port, len(self.games), seconds, self.loop)
        after = machine_seconds()
        out["cpu_s"] = after["web"] - before["web"]
        out["machine_s"] = {part: after[part] - before[part] for part in MACHINE_PARTS}
        out["loops"] = len(out["times"].get(f"{self.tag}POST move", []))
        out["machine_ms"] = per_unit_ms(before, after, out["loops"])
        connections.close_all()
        out.update(
            self.counts, loops_per_s=out["loops"] / out["elapsed"], moves_per_s=self.counts["moves"] / out["elapsed"]
        )
        return out


def measured(phase: Callable[[], tuple[int, float]]) -> tuple[int, float, dict[str, float]]:
    """A phase's (count, seconds) and the machine CPU it used, by part."""
    before = machine_seconds()
    count, elapsed = phase()
    after = machine_seconds()
    return count, elapsed, {part: after[part] - before[part] for part in MACHINE_PARTS}


def combined(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """A loop's phases (MoveLoad.run's) pooled: all loops over all their time, machine CPU per loop."""
    total = {
        "elapsed": sum(o["elapsed"] for o in runs),
        "loops": sum(o["loops"] for o in runs),
        "errors": [e for o in runs for e in o["errors"]],
        "times": {},
    }
    for o in runs:
        for label, values in o["times"].items():
            total["times"].setdefault(label, []).extend(values)
    for key in ("moves", "conflicts", "finished", "cpu_s"):
        total[key] = sum(o[key] for o in runs)
    total["machine_ms"] = {
        part: 1000 * sum(o["machine_s"][part] for o in runs) / max(1, total["loops"]) for part in MACHINE_PARTS
    }
    total.update(loops_per_s=total["loops"] / total["elapsed"], moves_per_s=total["moves"] / total["elapsed"])
    return total


def interleaved(port: int, clients: int, seconds: float, pairs: int) -> dict[str, Any]:
    """GET /kinds/, the three-request floor, the move loop, then the skeleton loop (the same loop
    on the endpoints of tests/bench/skeleton.py), `pairs` rounds over, `seconds` each phase. A
    shared machine's speed drifts over a minute (the same code's rates moved by a fifth between
    runs minutes apart), so one phase of each could land on different weather; alternating them
    and pooling the phases (all requests over all their time) weighs all alike. Each round's own
    ratios are kept to show the spread."""
    load, skeleton = MoveLoad(clients), MoveLoad(clients, SKELETON)
    tokens = [table[0][1] for table in load.tables]
    kinds_phase(port, clients, 1.0)
    floor_phase(port, clients, 1.0, tokens)
    load.warm(port, min(3.0, seconds))
    skeleton.warm(port, min(1.0, seconds))
    pooled = {
        name: {"count": 0, "time": 0.0, "machine": dict.fromkeys(MACHINE_PARTS, 0.0)} for name in ("kinds", "floor")
    }
    loops: list[dict[str, Any]] = []
    skeletons: list[dict[str, Any]] = []
    ratios, floor_ratios, skeleton_ratios = [], [], []

    def pool(name: str, phase: Callable[[], tuple[int, float]]) -> float:
        """Run the phase, add it to its pool, and give its own rate."""
        count, elapsed, used = measured(phase)
        pooled[name]["count"] += count
        pooled[name]["time"] += elapsed
        for part in MACHINE_PARTS:
            pooled[name]["machine"][part] += used[part]
        return count / elapsed if elapsed else 0.0

    for _ in range(pairs):
        kinds_rate = pool("kinds", lambda: kinds_phase(port, clients, seconds))
        floor_rate = pool("floor", lambda: floor_phase(port, clients, seconds, tokens))
        loops.append(load.run(port, seconds))
        skeletons.append(skeleton.run(port, seconds))
        for found, rate in (
            (floor_ratios, floor_rate),
            (ratios, loops[-1]["loops_per_s"]),
            (skeleton_ratios, skeletons[-1]["loops_per_s"]),
        ):
            found.append(rate / kinds_rate if kinds_rate else float("nan"))

    def rate(name: str) -> float:
        return pooled[name]["count"] / pooled[name]["time"] if pooled[name]["time"] else 0.0

    def per_unit(name: str) -> dict[str, float]:
        return {part: 1000 * value / max(1, pooled[name]["count"]) for part, value in pooled[name]["machine"].items()}

    return {
        "kinds_rps": rate("kinds"),
        "kinds_count": pooled["kinds"]["count"],
        "kinds_machine_ms": per_unit("kinds"),
        "floor_loops_per_s": rate("floor"),
        "floor_machine_ms": per_unit("floor"),
        "loop": combined(loops),
        "pair_ratios": ratios,
        "floor_pair_ratios": floor_ratios,
        "skeleton": combined(skeletons),
        "skeleton_pair_ratios": skeleton_ratios,
    }


def ceiling(
    kinds_ms: dict[str, float], skeleton_ms: dict[str, float], loop_ms: dict[str, float], target: float = 0.25
) -> dict[str, float]:
    """The game's own machine CPU (the move loop's, less the skeleton loop's) in GET /kinds/
    requests, beside what the target leaves it once the skeleton, a loop with no game in it, is
    paid for: negative when the skeleton alone costs more than the target allows a whole loop."""
    kinds, skeleton, loop = sum(kinds_ms.values()), sum(skeleton_ms.values()), sum(loop_ms.values())
    return {"game": (loop - skeleton) / kinds, "allowed": 1 / target - skeleton / kinds}


# ---------------------------------------------------------------------------------------------
# pgbench: the database's one-row INSERT ceiling into a copy of games_event
# ---------------------------------------------------------------------------------------------
PGBENCH_SCRIPT = """\
INSERT INTO bench_event_copy (game_id, seq, type, actor, data, created_at, idempotency_key, request_hash, user_id)
VALUES (gen_random_uuid(), 1, 'CardsGiven', 0, '{"move": {"type": "give"}, "record": {}}', now(), NULL, '', NULL);
"""


def pgbench_insert_rate(clients: int, seconds: int) -> float | None:
    exe = shutil.which("pgbench")
    if exe is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench_event_copy")
        cursor.execute(
            "CREATE TABLE bench_event_copy (LIKE games_event INCLUDING DEFAULTS "
            "INCLUDING CONSTRAINTS INCLUDING INDEXES)"
        )
        cursor.execute("CREATE SEQUENCE IF NOT EXISTS bench_event_copy_id START 1")
        cursor.execute("ALTER TABLE bench_event_copy ALTER COLUMN id SET DEFAULT nextval('bench_event_copy_id')")
    db = connection.settings_dict
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(PGBENCH_SCRIPT)
    try:
        out = subprocess.run(
            [
                exe,
                "-n",
                "-c",
                str(clients),
                "-j",
                "2",
                "-T",
                str(seconds),
                "-f",
                script.name,
                "-h",
                db["HOST"] or "127.0.0.1",
                "-p",
                str(db["PORT"] or 5432),
                "-U",
                db["USER"] or "postgres",
                db["NAME"],
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            env={**os.environ, "PGPASSWORD": db.get("PASSWORD") or ""},
        )
        found = re.search(r"tps = ([\d.]+)", out.stdout)
        return float(found.group(1)) if found else None
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_event_copy")
            cursor.execute("DROP SEQUENCE IF EXISTS bench_event_copy_id")


# ---------------------------------------------------------------------------------------------
# Timers: many games due within the same second
# ---------------------------------------------------------------------------------------------
def expiry_lateness(games: int, lead_seconds: float = 12.0, timeout: float = 240.0) -> dict[str, Any]:
    """Make `games` 3-seat Pick Pic games on hour-long move clocks (so nothing is scheduled at
    start), then move every clock so its deadline falls within one second, `lead_seconds` from
    now, with the Procfile's worker and beat running. Lateness = TimerExpired written - deadline."""
    from django.utils import timezone

    from games.models import Event, Game

    users = [u for u, _ in make_users(max(3, min(60, games)), "timer")]
    rnd = random.Random(games)
    ids = [make_pickpic(rnd.sample(users, 3), {"time_control": "per_move", "move_seconds": 3600}) for _ in range(games)]
    connections.close_all()
    with running("worker", "beat"):
        base = timezone.now() + timedelta(seconds=lead_seconds)
        for game in Game.objects.filter(pk__in=ids):
            due = base + timedelta(seconds=rnd.random() * 0.999)
            seats = {
                k: {**v, "since": (due - timedelta(seconds=v["left"])).isoformat()} if v["since"] else v
                for k, v in game.clocks["seats"].items()
            }
            Game.objects.filter(pk=game.pk).update(clocks={**game.clocks, "seats": seats}, next_deadline=due)
        # A game's lateness is its first expiry's (the seats after it are re-based to the moment
        # the first was settled, so their own "deadline" would flatter the figure).
        until = time.monotonic() + lead_seconds + timeout
        seen: dict[Any, tuple[float, float]] = {}  # game -> (decided late, visible late)
        while time.monotonic() < until and len(seen) < games:
            # Every row each time: transactions commit out of id order, so no "id > last".
            found = (
                Event.objects.filter(game_id__in=ids, type="TimerExpired")
                .exclude(game_id__in=list(seen))
                .order_by("game_id", "seq")
                .values_list("game_id", "created_at", "data")
            )
            now = timezone.now()
            for game_id, at, data in found:
                if game_id in seen:
                    continue
                deadline = timezone.datetime.fromisoformat(data["deadline"])
                seen[game_id] = ((at - deadline).total_seconds(), (now - deadline).total_seconds())
            time.sleep(0.05)
        late = [decided for decided, _ in seen.values()]
        visible = [shown for _, shown in seen.values()]
        expected = games
    connections.close_all()
    return {
        "games": games,
        "expected": expected,
        "expired": len(late),
        "p50": statistics.median(late) if late else float("nan"),
        "p99": percentile(late, 99),
        "max": max(late, default=float("nan")),
        "early": sum(1 for x in late if x < 0),
        "visible_p50": statistics.median(visible) if visible else float("nan"),
        "visible_p99": percentile(visible, 99),
    }


# ---------------------------------------------------------------------------------------------
# State load against history length
# ---------------------------------------------------------------------------------------------
def long_history(events: int) -> Any:
    """A Pick Pic game with `events` events: its real moves (chosen from the seed, as the server's
    auto-move would), interleaved with disputes opened and dismissed, as a long, contested game's
    log looks. Written through store.append as the services write them."""
    from django.utils import timezone

    from games.play import store
    from games.engines import base
    from games.play.kinds import get_engine
    from games.models import Game
    from games.play.store import NewEvent

    users = [u for u, _ in make_users(3, "long")]
    game = Game.objects.get(pk=make_pickpic(users))
    engine = get_engine("pickpic")
    state = store.state_at(game)
    moves = min(200, events - game.version)  # about a whole game (to 200 points is ~230 moves)
    padding = max(0, events - game.version - moves)
    per_move, extra = divmod(padding, moves)
    for n in range(moves):
        if engine.is_over(state):
            break
        pairs = per_move + (1 if n < extra else 0)
        batch = []
        for i in range(pairs):
            kind = store.DISPUTE_OPENED if i % 2 == 0 else store.DISPUTE_RESOLVED
            batch.append(
                NewEvent(
                    kind,
                    {"dispute": 0, "seq": 1, "reason": "bench"}
                    if i % 2 == 0
                    else {"dispute": 0, "status": "dismissed", "resolution": "bench"},
                )
            )
        for start in range(0, len(batch), 10):
            store.append(game, game.version, batch[start : start + 10], timezone.now())
        seat = sorted(engine.active_players(state))[0]
        choice = base.rng("bench", game.version).choice(engine.legal_moves(state, seat))
        step = engine.play(state, seat, choice, timezone.now())
        state = step.state
        store.append(
            game,
            game.version,
            [NewEvent(step.event_type, {"move": choice, "record": step.record}, actor=seat)],
            timezone.now(),
            state=state,
        )
    # A game that ended before its 200th move leaves padding unwritten: the rest goes at the end,
    # so the row is always the size asked for.
    opened = True
    while game.version < events:
        store.append(
            game,
            game.version,
            [
                NewEvent(store.DISPUTE_OPENED, {"dispute": 0, "seq": 1, "reason": "bench"})
                if opened
                else NewEvent(store.DISPUTE_RESOLVED, {"dispute": 0, "status": "dismissed", "resolution": "bench"})
            ],
            timezone.now(),
        )
        opened = not opened
    return game


def state_load(game, repeats: int = 20) -> dict[str, float]:
    """Seconds to load the latest state with its cache entry deleted (snapshot + tail), median of runs."""
    from games.play import statecache, store

    times = []
    for _ in range(repeats):
        # This entry only (memory and Redis): cache.clear() would empty the shared Redis (broker
        # queues included).
        statecache.forget(game.pk, game.version)
        start = time.perf_counter()
        store.state_at(game)
        times.append(time.perf_counter() - start)
    return {
        "events": game.version,
        "median_ms": statistics.median(times) * 1000,
        "p99_ms": percentile(times, 99) * 1000,
    }


# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------
def machine() -> str:
    cpu = ""
    try:
        cpu = next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            "",
        )
    except OSError:
        pass
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    return (
        f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
        f"PostgreSQL {pg}, {platform.system()} {platform.release()}"
    )


def run_all(sizes: dict[str, Any], progress: Callable[[dict[str, Any]], None] = lambda out: None) -> dict[str, Any]:
    """Everything `make bench` reports, at the given sizes (tiny ones in the smoke test);
    `progress` sees the figures so far after each part."""
    out: dict[str, Any] = {
        "machine": machine(),
        "web": procfile_command("web"),
        "worker": procfile_command("worker"),
        "sizes": sizes,
    }
    clients = sizes["clients"]
    out["pgbench_tps"] = pgbench_insert_rate(clients, sizes["pgbench_seconds"])
    with running("web", "worker", "beat") as port:
        phases = interleaved(port, clients, sizes["seconds"], sizes.get("pairs", 1))
    out["kinds_rps"], out["pair_ratios"] = phases["kinds_rps"], phases["pair_ratios"]
    out["kinds_machine_ms"] = phases["kinds_machine_ms"]
    out["floor_loops_per_s"], out["floor_machine_ms"] = phases["floor_loops_per_s"], phases["floor_machine_ms"]
    out["floor_pair_ratios"] = phases["floor_pair_ratios"]
    skeleton = phases["skeleton"]
    out["skeleton"] = {
        "loops_per_s": skeleton["loops_per_s"],
        "machine_ms": skeleton["machine_ms"],
        "pair_ratios": phases["skeleton_pair_ratios"],
        "conflicts": skeleton["conflicts"],
        "errors": len(skeleton["errors"]),
        "first_errors": skeleton["errors"][:3],
    }
    out["kinds_cpu_ms"] = out["kinds_machine_ms"]["web"]
    loop = phases["loop"]
    out["loop_cpu_ms"] = 1000 * loop["cpu_s"] / max(1, loop["loops"])
    out["loop_machine_ms"] = loop["machine_ms"]
    out["free_move_bound"] = free_move_bound(out["kinds_machine_ms"], out["loop_machine_ms"])
    out["own_work"] = own_work(out["kinds_machine_ms"], out["floor_machine_ms"], out["loop_machine_ms"])
    out["ceiling"] = ceiling(out["kinds_machine_ms"], skeleton["machine_ms"], out["loop_machine_ms"])
    post = loop["times"].get("POST move", [])
    out["move"] = {
        "loops_per_s": loop["loops_per_s"],
        "moves_per_s": loop["moves_per_s"],
        "conflicts": loop["conflicts"],
        "errors": len(loop["errors"]),
        "first_errors": loop["errors"][:3],
        **{f"{label} p50 ms": percentile(v, 50) * 1000 for label, v in loop["times"].items()},
        **{f"{label} p99 ms": percentile(v, 99) * 1000 for label, v in loop["times"].items()},
        "post_p99_ms": percentile(post, 99) * 1000,
    }
    from tests.bench import instructions  # it builds on this module

    out["instructions"] = (
        instructions.count(*sizes["counted"]) if sizes.get("counted") and instructions.available() else None
    )
    out["timers"], out["load"] = [], []
    progress(out)
    for n in sizes["history"]:
        out["load"].append(state_load(long_history(n), sizes["load_repeats"]))
        progress(out)
    for n in sizes["timer_games"]:
        out["timers"].append(expiry_lateness(n, sizes["timer_lead"], sizes["timer_timeout"]))
        progress(out)
    return out


def summary(out: dict[str, Any]) -> str:
    move, kinds, pg = out["move"], out["kinds_rps"], out["pgbench_tps"]
    lines = [
        f"machine: {out['machine']}",
        f"web: {out['web']}",
        f"worker: {out['worker']}",
        f"GET /kinds/ at {out['sizes']['clients']} clients: {kinds:.1f} req/s",
        f"pgbench one-row INSERT at {out['sizes']['clients']} clients: "
        + (f"{pg:.0f} tps" if pg else "pgbench not found"),
        f"move loops: {move['loops_per_s']:.1f}/s ({move['loops_per_s'] / kinds:.1%} of /kinds/"
        + (f", {move['moves_per_s'] / pg:.2%} of pgbench" if pg else "")
        + f"), moves {move['moves_per_s']:.1f}/s, "
        f"POST p99 {move['post_p99_ms']:.0f} ms, conflicts {move['conflicts']}, errors {move['errors']}",
    ]
    if "floor_loops_per_s" in out:
        lines.append(
            f"three-request floor (3 x GET /accounts/me/): {out['floor_loops_per_s']:.1f} loops/s "
            f"({out['floor_loops_per_s'] / kinds:.1%} of /kinds/; pairs "
            + ", ".join(f"{ratio:.1%}" for ratio in out["floor_pair_ratios"])
            + ")"
        )
    if out.get("pair_ratios"):
        lines.append(
            "move loops / GET /kinds/, each interleaved pair: "
            + ", ".join(f"{ratio:.1%}" for ratio in out["pair_ratios"])
        )
    for key in sorted(k for k in move if k.endswith(" ms")):
        lines.append(f"  {key}: {move[key]:.1f}")
    if "loop_machine_ms" in out:
        for label, parts in (("per GET /kinds/", out["kinds_machine_ms"]), ("per move loop", out["loop_machine_ms"])):
            lines.append(
                f"machine CPU {label}: {sum(parts.values()):.2f} ms ("
                + ", ".join(f"{part} {value:.2f}" for part, value in parts.items())
                + ")"
            )
        lines.append(f"loops / GET /kinds/ if the move's own web work were free: {out['free_move_bound']:.1%}")
        lines.append(
            f"machine CPU per three-request floor loop: {sum(out['floor_machine_ms'].values()):.2f} ms ("
            + ", ".join(f"{part} {value:.2f}" for part, value in out["floor_machine_ms"].items())
            + ")"
        )
        lines.append(
            f"a move's own machine CPU (loop - floor loop): {out['own_work']['own']:.2f} GET /kinds/; "
            f"25% leaves it {out['own_work']['allowed']:.2f}"
        )
    if "skeleton" in out:
        skeleton = out["skeleton"]
        lines.append(
            f"skeleton loops (no game in them, tests/bench/skeleton.py): {skeleton['loops_per_s']:.1f}/s "
            f"({skeleton['loops_per_s'] / kinds:.1%} of /kinds/; pairs "
            + ", ".join(f"{ratio:.1%}" for ratio in skeleton["pair_ratios"])
            + f"), machine CPU {sum(skeleton['machine_ms'].values()):.2f} ms a loop ("
            + ", ".join(f"{part} {value:.2f}" for part, value in skeleton["machine_ms"].items())
            + ")"
        )
        lines.append(
            f"the game's own machine CPU (loop - skeleton loop): {out['ceiling']['game']:.2f} GET /kinds/; "
            f"25% leaves it {out['ceiling']['allowed']:.2f}"
        )
    counted = out.get("instructions")
    if counted:
        lines.append(
            f"web server instructions (callgrind, one process, one client): GET /kinds/ "
            f"{counted['kinds'] / 1e6:.2f} M, move loop {counted['loop'] / 1e6:.2f} M: {counted['ratio']:.1%}"
        )
    for timer in out["timers"]:
        lines.append(
            f"{timer['games']} games due in one second: {timer['expired']}/{timer['expected']} "
            f"expired, lateness p50 {timer['p50']:.3f} s, p99 {timer['p99']:.3f} s, "
            f"max {timer['max']:.3f} s, early {timer['early']}; committed and seen: "
            f"p50 {timer['visible_p50']:.3f} s, p99 {timer['visible_p99']:.3f} s"
        )
    for load in out["load"]:
        lines.append(
            f"state load, {load['events']} events: median {load['median_ms']:.2f} ms, p99 {load['p99_ms']:.2f} ms"
        )
    return "\n".join(lines)
