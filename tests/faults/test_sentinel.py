"""Redis under Sentinel (docs/operations.md#redis-sentinel): a master, a replica and three
Sentinels, and every process (web with its live hub, the worker, outbound, beat) finding the master
through them. The master is SIGKILLed during clocked play with a stream open: the Sentinels promote
the replica, every role reconnects to it by itself (the hub treats the reconnection as a gap: its
waiters re-read from the database once), the stream goes on, and every clock fires once."""

from __future__ import annotations

import queue
import shutil
import time

import pytest
from django.utils import timezone

from games.models import Event
from tests.faults import figures
from tests.faults.scenario import MARKS, PLAYS, SCALE, HttpPlayer, all_over, assert_written_once, http_duel
from tests.faults.stack.procfile import Stack, stack_env
from tests.faults.stack.sentinel import SentinelRedis
from tests.live_server import Server, game_stream
from tests.worker import wait_for

pytestmark = [
    *MARKS,
    pytest.mark.skipif(
        not shutil.which("redis-sentinel"), reason="needs Debian's redis-sentinel (make redis-sentinel)"
    ),
]


def test_the_redis_master_killed_under_sentinel_stops_no_clock_and_no_stream():
    sentinel = SentinelRedis()
    env = sentinel.env()
    stack, server = Stack(stack_env(**env)), Server(**env)
    stream = None
    try:
        stack.start()
        server.start()
        host = HttpPlayer(server, f"host{time.monotonic_ns()}")
        games = [http_duel(host, HttpPlayer(server, f"p{i}x{time.monotonic_ns()}")) for i in range(3 * SCALE)]
        assert wait_for(
            lambda: Event.objects.filter(game_id__in=games, type="TimerExpired").count() >= len(games), timeout=60
        ), stack.logs()
        watched = http_duel(host, HttpPlayer(server, f"w{time.monotonic_ns()}"))  # twelve seconds of clocks ahead
        games.append(watched)
        stream = game_stream(server, host.client.headers["Authorization"].split()[1], watched)
        stream.next(timeout=20)  # the stream is up and hearing the game

        sentinel.master.process.kill()
        killed = time.monotonic()
        assert wait_for(lambda: sentinel.master_port() == sentinel.replica.port, timeout=30)
        promoted, promoted_at = time.monotonic(), timezone.now()
        while True:  # what the stream had before the promotion
            try:
                stream.messages.get_nowait()
            except queue.Empty:
                break
        stream.next(timeout=15)  # live updates again, within 15 s of the promotion
        heard = time.monotonic()

        assert wait_for(lambda: all_over(games), timeout=60 + 20 * SCALE), stack.logs()
        assert stack.dead() == [], stack.logs()
        assert "Unrecoverable error" not in stack.logs()
        assert_written_once(games)
        # The hub subscribed again, on the new master, and said so.
        assert wait_for(lambda: "reachable again for live updates" in server.output(), timeout=15), server.output()
        assert sentinel.replica.command("PUBSUB", "NUMSUB", "x").startswith(b"*2"), "the new master answers"
        channels = sentinel.replica.command("PUBSUB", "CHANNELS")
        assert not channels.startswith(b"*0"), "nobody listens on the new master"
        figures.record(
            "redis master killed under sentinel",
            games,
            after=promoted_at,
            clocks=PLAYS,
            targets={figures.CATCH_UP: 15, figures.LOST: 0, figures.DOUBLED: 0},
            note=f"promoted {promoted - killed:.1f} s after the kill; the open stream heard news "
            f"{heard - promoted:.1f} s after the promotion",
        )
    finally:
        if stream:
            stream.close()
        server.stop()
        stack.stop()
        sentinel.stop()
