"""The client fleet for bench_streams.py, run as a process of its own:

    python tests/bench/stream_load.py plan.json  > result.json

It measures the GET /kinds/ ceiling, opens the SSE streams (raw asyncio sockets: a thousand
httpx streams would cost this shared machine more CPU than the server), says `open` on stdout and
waits for a line on stdin (the bench samples the server's memory then), starts the long-polls,
then makes every game move, paced, while all of them listen (between `moving` and `moved` on
stdout: the bench counts the server's CPU time then). Each reader notes when each seq
reaches it; the result is plain JSON. No Django here.
"""
from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import time
from urllib.parse import urlsplit

import httpx


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def kinds_ceiling(base: str, seconds: float, concurrency: int) -> dict:
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, limits=httpx.Limits(max_connections=concurrency)) as http:
        async def loop():
            while time.monotonic() < stop:
                start = time.monotonic()
                try:
                    response = await http.get("/api/v1/kinds/")
                except httpx.TransportError:  # a keep-alive closed as we reused it: not counted
                    continue
                if response.status_code == 200:
                    latencies.append(time.monotonic() - start)

        began = time.monotonic()
        await asyncio.gather(*(loop() for _ in range(concurrency)))
        elapsed = time.monotonic() - began
    return {"rate": len(latencies) / elapsed, "p50_ms": 1000 * percentile(latencies, 50),
            "p99_ms": 1000 * percentile(latencies, 99), "concurrency": concurrency}


class SSEReader:
    """One stream on a raw socket (HTTP/1.1, chunked): notes the arrival time of each id."""

    def __init__(self, base: str, game: str, token: str, received: dict):
        self.url = urlsplit(base)
        self.game, self.token, self.received = game, token, received
        self.ready = asyncio.Event()
        self.failed: str | None = None

    async def run(self):
        try:
            reader, writer = await asyncio.open_connection(self.url.hostname, self.url.port)
            writer.write((f"GET /api/v1/games/{self.game}/stream/ HTTP/1.1\r\nHost: {self.url.netloc}\r\n"
                          f"Authorization: Token {self.token}\r\nAccept: text/event-stream\r\n\r\n").encode())
            await writer.drain()
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


async def long_poller(http: httpx.AsyncClient, game: str, token: str, after: int, received: dict, stop: asyncio.Event):
    headers = {"Authorization": f"Token {token}"}
    while not stop.is_set():
        try:
            response = await http.get(f"/api/v1/games/{game}/events/", params={"after": after, "wait": 25},
                                      headers=headers)
        except (httpx.HTTPError, RuntimeError):  # RuntimeError: the client closed at the end
            await asyncio.sleep(0.5)
            continue
        now = time.monotonic()
        for event in response.json().get("events", []):
            received.setdefault(event["seq"], now)
            after = max(after, event["seq"])


async def request(http: httpx.AsyncClient, method: str, url: str, **kwargs) -> httpx.Response:
    """Retry a dropped connection (a keep-alive the server closed as we reused it): GETs are safe
    to repeat, and the POST carries an Idempotency-Key."""
    for attempt in range(4):
        try:
            return await http.request(method, url, **kwargs)
        except httpx.TransportError:
            if attempt == 3:
                raise
            await asyncio.sleep(0.2)


async def mover(http: httpx.AsyncClient, game: dict, rounds: int, interval: float, moves: dict, posts: list):
    tokens = {p["seat"]: p["token"] for p in game["players"]}
    rng = random.Random(game["id"])
    detail = (await request(http, "GET", f"/api/v1/games/{game['id']}/",
                            headers={"Authorization": f"Token {tokens[0]}"})).json()
    active = detail["active_seats"]
    for _ in range(rounds):
        await asyncio.sleep(rng.uniform(0.5 * interval, 1.5 * interval))
        if not active:
            return
        token = tokens[active[0]]
        headers = {"Authorization": f"Token {token}"}
        listed = (await request(http, "GET", f"/api/v1/games/{game['id']}/legal-moves/", headers=headers)).json()
        start = time.monotonic()
        answer = await request(http, "POST", f"/api/v1/games/{game['id']}/moves/",
                               headers={**headers, "Idempotency-Key": f"bench-{game['id']}-{listed['version']}"},
                               json={"move": listed["moves"][0], "expected_version": listed["version"]})
        done = time.monotonic()
        if answer.status_code == 201:
            posts.append(done - start)
            moves[(game["id"], answer.json()["version"])] = (start, done)
            active = answer.json()["state"]["active"]  # the duel's view names who moves next


async def main(plan: dict) -> dict:
    base = plan["base"]
    result = {"ceiling": await kinds_ceiling(base, plan["kinds_seconds"], plan["kinds_concurrency"])}
    print("measured", flush=True)  # the bench notes the server's memory before the streams
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    games = plan["games"]
    sse_received: list[tuple[str, dict]] = []
    readers = []
    for i in range(plan["streams"]):
        game = games[i % len(games)]
        received: dict = {}
        reader = SSEReader(base, game["id"], plan["readers"][i % len(plan["readers"])], received)
        readers.append(reader)
        sse_received.append((game["id"], received))
    tasks = [asyncio.create_task(r.run()) for r in readers]
    opened = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(r.ready.wait() for r in readers)), plan["open_timeout"])
    result["streams_open_seconds"] = time.monotonic() - opened
    result["streams_failed"] = sum(1 for r in readers if r.failed)
    print("open", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)

    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=plan["polls"] + 200, max_keepalive_connections=plan["polls"] + 200)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        lp_received: list[tuple[str, dict]] = []
        pollers = []
        for i in range(plan["polls"]):
            game = games[i % len(games)]
            received = {}
            lp_received.append((game["id"], received))
            pollers.append(asyncio.create_task(long_poller(
                http, game["id"], plan["readers"][i % len(plan["readers"])], game["version"], received, stop)))
        await asyncio.sleep(plan.get("settle", 3))
        moves: dict = {}
        posts: list[float] = []
        print("moving", flush=True)  # the bench notes the server's CPU time from here to "moved"
        began = time.monotonic()
        movers = [asyncio.create_task(mover(http, g, plan["rounds"], plan["interval"], moves, posts)) for g in games]
        finished, unfinished = await asyncio.wait(movers, timeout=plan.get("move_deadline", 240))
        for task in unfinished:  # bounded time: what was not done by the deadline is reported
            task.cancel()
        result["movers_unfinished"] = len(unfinished)
        result["movers_failed"] = [repr(t.exception()) for t in finished if t.exception()][:5]
        result["move_seconds"] = time.monotonic() - began
        await asyncio.sleep(plan.get("grace", 5))
        print("moved", flush=True)
        stop.set()
        for task in [*pollers, *tasks]:
            task.cancel()
        await asyncio.gather(*pollers, *tasks, return_exceptions=True)

    def latencies(channel):
        from_post, from_reply, missing = [], [], 0
        for game_id, received in channel:
            for (gid, seq), (sent, replied) in moves.items():
                if gid != game_id:
                    continue
                if seq not in received:
                    missing += 1
                    continue
                from_post.append(received[seq] - sent)
                from_reply.append(max(0.0, received[seq] - replied))
        return {"deliveries": len(from_post), "missing": missing,
                "p50_ms": 1000 * (percentile(from_post, 50) or 0), "p99_ms": 1000 * (percentile(from_post, 99) or 0),
                "p50_after_reply_ms": 1000 * (percentile(from_reply, 50) or 0),
                "p99_after_reply_ms": 1000 * (percentile(from_reply, 99) or 0)}

    result["moves"] = {"count": len(posts), "p50_ms": 1000 * (percentile(posts, 50) or 0),
                       "p99_ms": 1000 * (percentile(posts, 99) or 0),
                       "mean_ms": 1000 * (statistics.mean(posts) if posts else 0)}
    result["sse"] = latencies(sse_received)
    result["long_poll"] = latencies(lp_received)
    return result


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps(asyncio.run(main(json.load(f)))), flush=True)
