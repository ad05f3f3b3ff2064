"""Memory per open SSE stream, process by process (run by `make bench`, never by `make test`).

The Procfile's proxy, web and live processes, as bench_streams starts them; BENCH_MEM_STREAMS game
streams (2,000 by default) over BENCH_MEM_GAMES games opened on raw sockets, nothing moving. The
resident memory of each part (nginx, `web`, `live`: each master with its workers) is read idle, with
a first hundred streams open (the first ones also pay what a process loads once, whatever the
number of streams), and with all of them open: the rest opened BENCH_MEM_AT_ONCE at a time (all at
once by default, as bench_streams' fleet opens them). Printed per part: the growth over every stream (what
bench_streams prints) and the growth per stream past the first hundred (what one more stream
costs), in a minute or two rather than bench_streams' whole run.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

from games.realtime import channels
from tests.bench import stream_load
from tests.bench.bench_streams import BENCH_ENV, PARTS, make_games, rss_kib
from tests.live_server import Server, procfile_stack

pytestmark = [pytest.mark.bench, pytest.mark.django_db(transaction=True)]

FIRST = 100


class Fleet:
    """Streams on raw sockets, on an event loop of their own thread (the test's process is not the
    server's: its memory is not counted)."""

    def __init__(self, base: str):
        self.loop = asyncio.new_event_loop()
        self.host, self.port = base.split("//")[1].split(":")
        self.readers: list[stream_load.SSEReader] = []
        self.tasks: list[asyncio.Task] = []
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def open(self, streams: list[tuple[str, str]], at_once: int, timeout: float = 600) -> int:
        """Open these (game, token) streams, `at_once` at a time; how many failed."""

        async def opening():
            failed = 0
            for at in range(0, len(streams), at_once):
                batch = [
                    stream_load.SSEReader(self.host, int(self.port), game, token, {})
                    for game, token in streams[at : at + at_once]
                ]
                self.readers += batch
                self.tasks += [asyncio.create_task(r.run()) for r in batch]
                await asyncio.wait_for(asyncio.gather(*(r.ready.wait() for r in batch)), timeout)
                failed += sum(1 for r in batch if r.failed)
            return failed

        return asyncio.run_coroutine_threadsafe(opening(), self.loop).result(timeout)

    def close(self) -> None:
        async def closing():
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(closing(), self.loop).result(60)
        self.loop.call_soon_threadsafe(self.loop.stop)


def settled(server: Server, seconds: float = 3) -> dict[str, int]:
    time.sleep(seconds)  # the last streams' first reads and the hub's subscriptions done
    return rss_kib(server.process.pid)


@pytest.mark.timeout(1200)
def test_bench_memory_per_open_stream(capsys):
    streams = int(os.environ.get("BENCH_MEM_STREAMS", 2000))
    count = int(os.environ.get("BENCH_MEM_GAMES", 100))
    at_once = int(os.environ.get("BENCH_MEM_AT_ONCE", streams))
    plan = make_games(count, readers=100)
    pairs = [(plan["games"][i % count]["id"], plan["readers"][i % 100]) for i in range(streams)]
    env = {**BENCH_ENV, "LIVE_STREAMS_PER_USER": str(streams), "LIVE_STREAMS_PER_ADDRESS": str(streams)}
    server = Server(command=None, **env)
    server.command = procfile_stack(server.port)
    for pattern in (channels.key("streams", "*"), channels.key("polls", "*")):
        for name in channels.client().scan_iter(match=pattern):
            channels.client().delete(name)
    server.start()
    fleet = Fleet(server.url)
    try:
        idle = settled(server)
        failed = fleet.open(pairs[:FIRST], FIRST)
        first = settled(server)
        failed += fleet.open(pairs[FIRST:], at_once)
        full = settled(server)
    finally:
        fleet.close()
        server.stop()
    lines = [
        f"\nMemory per open SSE stream, proxy, web and live: {streams} game streams over {count} games "
        f"opened {at_once} at a time (failed: {failed})"
    ]
    for name in (*PARTS, "all"):
        pick = (lambda r: sum(r.values())) if name == "all" else (lambda r, n=name: r[n])
        lines.append(
            f"  {name}: {pick(idle) / 1024:.0f} MiB idle, {pick(first) / 1024:.0f} MiB with {FIRST} streams, "
            f"{pick(full) / 1024:.0f} MiB with {streams}: {(pick(full) - pick(idle)) / streams:.1f} KiB per "
            f"stream over all, {(pick(full) - pick(first)) / (streams - FIRST):.1f} KiB per stream past "
            f"the first {FIRST}"
        )
    with capsys.disabled():
        print("\n".join(lines))
    assert failed == 0
