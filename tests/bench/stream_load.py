"""The client fleet for bench_streams.py, run as one or more processes of its own:

    python tests/bench/stream_load.py plan.json  > result.json

Each process owns a share of the games (`split`) with their SSE streams and long-polls. It measures
its share of the GET /kinds/ ceiling, says `measured` on stdout and waits for a line on stdin (the
bench samples the server's memory then), opens the SSE streams, says `open` and waits, starts the
long-polls, says `polling` and waits (so that every process starts moving at once), then makes
every game of its share move, paced, while all of them listen, and says `moved` once every reader
has heard every move, or after a grace period (the bench counts the server's CPU time between
that last go and the last `moved`). Each reader notes when each seq reaches it; the result is
plain JSON, raw figures that `summarize` merges.

All HTTP is on raw asyncio sockets (`Connection`): a thousand long-polls and a hundred movers on
httpx cost this shared two-core machine more CPU than the server, and the fleet's own event-loop
lag then became the latency it measured. The fleet reports its CPU time and loop lag over the move
phase so that a reader can tell whose latency a figure is. No Django here (bench_streams imports
`split` and `summarize`).
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
from urllib.parse import urlsplit

RETRIES = 4


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(values: list[float], p: float) -> float:
    return 1000 * (percentile(values, p) or 0)


class Connection:
    """One HTTP/1.1 keep-alive connection, opened on first use and again whenever the server has
    closed it. A request whose connection dies under it is sent again on a fresh one: GETs are
    safe to repeat and the movers' POSTs carry an Idempotency-Key."""

    def __init__(self, host: str, port: int, timeout: float = 60):
        self.host, self.port, self.timeout = host, port, timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.host_line = f"Host: {host}:{port}\r\n"

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, headers: str = "", body: bytes | None = None) -> tuple[int, bytes]:
        head = f"{method} {path} HTTP/1.1\r\n{self.host_line}{headers}"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        data = (head + "\r\n").encode() + (body or b"")
        for attempt in range(RETRIES):
            # An EOF the loop has already seen: the server closed the idle keep-alive.
            if self.reader is not None and self.reader.at_eof():
                self.close()
            reused = self.writer is not None
            try:
                if not reused:
                    self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
                self.writer.write(data)
                async with asyncio.timeout(self.timeout):
                    return await self._response()
            except (OSError, EOFError, asyncio.IncompleteReadError, ValueError):
                self.close()
                if attempt == RETRIES - 1:
                    raise
                if not reused:  # a fresh connection failed: the server is busy or down, not stale
                    await asyncio.sleep(0.2)
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, bytes]:
        reader = self.reader
        line = await reader.readline()
        if not line:
            raise EOFError("closed before the status line")
        status = int(line.split(b" ", 2)[1])
        length, chunked, close = None, False, False
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n"):
                break
            if not line:
                raise EOFError("closed in the headers")
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                close = b"close" in value.lower()
        if chunked:
            parts = []
            while True:
                size = int((await reader.readline()).split(b";", 1)[0], 16)
                if size == 0:
                    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    break
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            body = b"".join(parts)
        elif length is not None:
            body = await reader.readexactly(length)
        elif status in (204, 304):
            body = b""
        else:  # no framing: the body runs to the end of the connection
            body, close = await reader.read(), True
        if close:
            self.close()
        return status, body


def auth(token: str) -> str:
    return f"Authorization: Token {token}\r\n"


async def kinds_ceiling(host: str, port: int, seconds: float, concurrency: int) -> dict:
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def loop():
        conn = Connection(host, port)
        try:
            while time.monotonic() < stop:
                start = time.monotonic()
                try:
                    status, _ = await conn.request("GET", "/api/v1/kinds/")
                except (OSError, EOFError, asyncio.IncompleteReadError, ValueError):
                    continue
                if status == 200:
                    latencies.append(time.monotonic() - start)
        finally:
            conn.close()

    began = time.monotonic()
    await asyncio.gather(*(loop() for _ in range(concurrency)))
    return {"latencies": latencies, "seconds": time.monotonic() - began, "concurrency": concurrency}


class SSEReader:
    """One stream on a raw socket (HTTP/1.1, chunked): notes the arrival time of each id."""

    def __init__(self, host: str, port: int, game: str, token: str, received: dict):
        self.host, self.port = host, port
        self.game, self.token, self.received = game, token, received
        self.ready = asyncio.Event()
        self.failed: str | None = None

    async def run(self):
        writer = None
        try:
            reader, writer = await asyncio.open_connection(self.host, self.port)
            writer.write(
                (
                    f"GET /api/v1/games/{self.game}/stream/ HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                    f"{auth(self.token)}Accept: text/event-stream\r\n\r\n"
                ).encode()
            )
            status = await reader.readline()
            if b" 200 " not in status:
                self.failed = status.decode(errors="replace")
                self.ready.set()
                return
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            buffer = b""
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size)
                await reader.readexactly(2)
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    now = time.monotonic()
                    for line in block.split(b"\n"):
                        if line.startswith(b"event: ready"):
                            self.ready.set()
                        elif line.startswith(b"id: "):
                            self.received.setdefault(int(line[4:]), now)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.failed = self.failed or repr(error)
            self.ready.set()
        finally:
            if writer is not None:
                writer.close()


async def long_poller(conn: Connection, game: str, token: str, after: int, received: dict, odd: dict):
    headers = auth(token)
    while True:
        try:
            status, body = await conn.request("GET", f"/api/v1/games/{game}/events/?after={after}&wait=25", headers)
        except (OSError, EOFError, asyncio.IncompleteReadError, ValueError) as error:
            odd[repr(error)[:80]] = odd.get(repr(error)[:80], 0) + 1
            await asyncio.sleep(0.5)
            continue
        now = time.monotonic()
        if status != 200:  # counted, and not asked again at once: a refusal would loop hot
            odd[str(status)] = odd.get(str(status), 0) + 1
            await asyncio.sleep(0.5)
            continue
        for event in json.loads(body).get("events", ()):
            seq = event["seq"]
            received.setdefault(seq, now)
            after = max(after, seq)


async def get_json(conn: Connection, path: str, headers: str) -> dict:
    status, body = await conn.request("GET", path, headers)
    if status != 200:
        raise RuntimeError(f"GET {path}: {status} {body[:200]!r}")
    return json.loads(body)


async def mover(conn: Connection, game: dict, rounds: int, interval: float, moves: dict, posts: list):
    tokens = {p["seat"]: p["token"] for p in game["players"]}
    rng = random.Random(game["id"])
    path = f"/api/v1/games/{game['id']}/"
    active = (await get_json(conn, path, auth(tokens[0])))["active_seats"]
    for _ in range(rounds):
        await asyncio.sleep(rng.uniform(0.5 * interval, 1.5 * interval))
        if not active:
            return
        headers = auth(tokens[active[0]])
        listed = await get_json(conn, f"{path}legal-moves/", headers)
        body = json.dumps({"move": listed["moves"][0], "expected_version": listed["version"]}).encode()
        start = time.monotonic()
        status, reply = await conn.request(
            "POST", f"{path}moves/", headers + (f"Idempotency-Key: bench-{game['id']}-{listed['version']}\r\n"), body
        )
        done = time.monotonic()
        if status == 201:
            answer = json.loads(reply)
            posts.append(done - start)
            moves.setdefault(game["id"], {})[answer["version"]] = (start, done)
            active = answer["state"]["active"]  # the duel's view names who moves next


async def loop_lag(samples: list[float], period: float = 0.05):
    """How late this loop wakes a task that sleeps `period`: what every reader's clock also waits."""
    while True:
        began = time.monotonic()
        await asyncio.sleep(period)
        samples.append(time.monotonic() - began - period)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def barrier(say: str) -> None:
    print(say, flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if not line:
        raise SystemExit(f"the bench went away at {say}")


def all_delivered(channel: list[tuple[str, dict]], moves: dict) -> bool:
    return all(seq in received for game_id, received in channel for seq in moves.get(game_id, ()))


def deliveries(channel: list[tuple[str, dict]], moves: dict) -> dict:
    from_post, from_reply, missing = [], [], 0
    for game_id, received in channel:
        for seq, (sent, replied) in moves.get(game_id, {}).items():
            if seq not in received:
                missing += 1
                continue
            from_post.append(round(received[seq] - sent, 6))
            from_reply.append(round(max(0.0, received[seq] - replied), 6))
    return {"from_post": from_post, "from_reply": from_reply, "missing": missing}


async def main(plan: dict) -> dict:
    url = urlsplit(plan["base"])
    host, port = url.hostname, url.port
    result = {"ceiling": await kinds_ceiling(host, port, plan["kinds_seconds"], plan["kinds_concurrency"])}
    await barrier("measured")  # the bench notes the server's memory before the streams

    games = {g["id"]: g for g in plan["games"]}
    sse_received: list[tuple[str, dict]] = [(game_id, {}) for game_id, _ in plan["streams"]]
    readers = [
        SSEReader(host, port, game_id, token, received)
        for (game_id, token), (_, received) in zip(plan["streams"], sse_received)
    ]
    tasks = [asyncio.create_task(r.run()) for r in readers]
    opened = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(r.ready.wait() for r in readers)), plan["open_timeout"])
    result["streams_open_seconds"] = time.monotonic() - opened
    result["streams_failed"] = sum(1 for r in readers if r.failed)
    await barrier("open")

    lp_received: list[tuple[str, dict]] = [(game_id, {}) for game_id, _ in plan["polls"]]
    odd: dict = {}
    connections = [Connection(host, port) for _ in range(len(plan["polls"]) + len(games))]
    pollers = [
        asyncio.create_task(long_poller(conn, game_id, token, games[game_id]["version"], received, odd))
        for conn, (game_id, token), (_, received) in zip(connections, plan["polls"], lp_received)
    ]
    await asyncio.sleep(plan.get("settle", 3))
    await barrier("polling")

    moves: dict = {}
    posts: list[float] = []
    lags: list[float] = []
    lag_task = asyncio.create_task(loop_lag(lags))
    cpu, began = cpu_seconds(), time.monotonic()
    movers = [
        asyncio.create_task(mover(conn, g, plan["rounds"], plan["interval"], moves, posts))
        for conn, g in zip(connections[len(plan["polls"]) :], games.values())
    ]
    finished, unfinished = await asyncio.wait(movers, timeout=plan.get("move_deadline", 240)) if movers else ((), ())
    for task in unfinished:  # bounded time: what was not done by the deadline is reported
        task.cancel()
    result["movers_unfinished"] = len(unfinished)
    result["movers_failed"] = [repr(t.exception()) for t in finished if t.exception()][:5]
    result["move_seconds"] = time.monotonic() - began
    # Until every reader has every move made, or the grace is up (then they are missing).
    grace_over = time.monotonic() + plan.get("grace", 5)
    while time.monotonic() < grace_over and not all_delivered([*sse_received, *lp_received], moves):
        await asyncio.sleep(0.1)
    result["fleet"] = {"cpu_s": cpu_seconds() - cpu, "wall_s": time.monotonic() - began, "lags": lags}
    print("moved", flush=True)
    for task in [lag_task, *pollers, *tasks]:
        task.cancel()
    await asyncio.gather(lag_task, *pollers, *tasks, return_exceptions=True)
    for conn in connections:
        conn.close()

    result["posts"] = posts
    result["moves_made"] = sum(len(m) for m in moves.values())
    result["move_starts"] = [sorted(start for start, _ in m.values()) for m in moves.values()]
    result["sse"] = deliveries(sse_received, moves)
    result["long_poll"] = {**deliveries(lp_received, moves), "odd": odd}
    return result


def split(plan: dict, procs: int) -> list[dict]:
    """One plan per fleet process: stream i (and long-poll i) reads game i % games as reader
    i % readers, as with one process; a process gets whole games, with all of their readers, and
    its share of the /kinds/ concurrency."""
    games, tokens = plan["games"], plan["readers"]
    procs = max(1, min(procs, len(games)))
    shares = []
    for k in range(procs):
        mine = {g["id"] for i, g in enumerate(games) if i % procs == k}
        streams = [(games[i % len(games)]["id"], tokens[i % len(tokens)]) for i in range(plan["streams"])]
        polls = [(games[i % len(games)]["id"], tokens[i % len(tokens)]) for i in range(plan["polls"])]
        shares.append(
            {
                **{k_: v for k_, v in plan.items() if k_ not in ("games", "readers")},
                "games": [g for g in games if g["id"] in mine],
                "streams": [s for s in streams if s[0] in mine],
                "polls": [p for p in polls if p[0] in mine],
                "kinds_concurrency": max(
                    1, plan["kinds_concurrency"] // procs + (k < plan["kinds_concurrency"] % procs)
                ),
            }
        )
    return shares


def summarize(results: list[dict]) -> dict:
    """The processes' raw figures merged into one run's: percentiles over every sample."""

    def union(key, sub=None):
        return [x for r in results for x in (r[key][sub] if sub else r[key])]

    kinds = union("ceiling", "latencies")
    kinds_seconds = max(r["ceiling"]["seconds"] for r in results)
    posts = union("posts")
    out = {
        "ceiling": {
            "rate": len(kinds) / kinds_seconds,
            "p50_ms": ms(kinds, 50),
            "p99_ms": ms(kinds, 99),
            "concurrency": sum(r["ceiling"]["concurrency"] for r in results),
        },
        "streams_open_seconds": max(r["streams_open_seconds"] for r in results),
        "streams_failed": sum(r["streams_failed"] for r in results),
        "movers_unfinished": sum(r["movers_unfinished"] for r in results),
        "movers_failed": union("movers_failed")[:5],
        "move_seconds": max(r["move_seconds"] for r in results),
        "moves": {
            "count": len(posts),
            "p50_ms": ms(posts, 50),
            "p99_ms": ms(posts, 99),
            "mean_ms": 1000 * sum(posts) / len(posts) if posts else 0,
        },
    }
    out["paced"] = kept_pace(union("move_starts"))
    for name in ("sse", "long_poll"):
        from_post, from_reply = union(name, "from_post"), union(name, "from_reply")
        out[name] = {
            "deliveries": len(from_post),
            "missing": sum(r[name]["missing"] for r in results),
            "p50_ms": ms(from_post, 50),
            "p99_ms": ms(from_post, 99),
            "p50_after_reply_ms": ms(from_reply, 50),
            "p99_after_reply_ms": ms(from_reply, 99),
        }
    odd: dict = {}
    for r in results:
        for k, v in r["long_poll"]["odd"].items():
            odd[k] = odd.get(k, 0) + v
    out["long_poll"]["odd"] = odd
    lags = union("fleet", "lags")
    out["fleet"] = {
        "procs": len(results),
        "cpu_s": sum(r["fleet"]["cpu_s"] for r in results),
        "wall_s": max(r["fleet"]["wall_s"] for r in results),
        "busiest_core": max(r["fleet"]["cpu_s"] / r["fleet"]["wall_s"] for r in results),
        "lag_p50_ms": ms(lags, 50),
        "lag_p99_ms": ms(lags, 99),
        "lag_max_ms": 1000 * max(lags, default=0),
        "worst_lag_p99_ms": max(ms(r["fleet"]["lags"], 99) for r in results),
    }
    return out


def kept_pace(starts: list[list[float]]) -> dict:
    """The pace the games kept together: each game's moves per second from its first move to its
    last (its sleeps and the server's answers), summed over the games. The whole phase's count over
    its length is lower by its ends: games start and finish at random, not all at once."""
    paces = [(len(s) - 1) / (s[-1] - s[0]) for s in starts if len(s) > 1 and s[-1] > s[0]]
    return {"rate": sum(paces), "games": len(paces)}


async def probe() -> dict:
    """An idle loop's lag over the move phase (from a line on stdin to the next): the machine's
    scheduling delay alone, to set beside the fleet's."""
    lags: list[float] = []
    task = asyncio.create_task(loop_lag(lags))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # the move phase begins
    lags.clear()
    await loop.run_in_executor(None, sys.stdin.readline)  # and ends
    task.cancel()
    return {"lag_p50_ms": ms(lags, 50), "lag_p99_ms": ms(lags, 99), "lag_max_ms": 1000 * max(lags, default=0)}


if __name__ == "__main__":
    if sys.argv[1] == "--probe":
        print(json.dumps(asyncio.run(probe())), flush=True)
    else:
        with open(sys.argv[1]) as f:
            print(json.dumps(asyncio.run(main(json.load(f)))), flush=True)
