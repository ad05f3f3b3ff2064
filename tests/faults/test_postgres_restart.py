"""PostgreSQL restarted (a private cluster): tests/faults/scenario.py."""

from __future__ import annotations

import time

import psycopg
from django.utils import timezone

from tests.faults import figures
from tests.faults.scenario import (
    MARKS,
    PLAYS,
    SCALE,
    HttpPlayer,
    assert_written_once,
    http_duel,
)
from tests.faults.stack.postgres import PrivatePostgres
from tests.faults.stack.procfile import Stack, stack_env
from tests.live_server import Server
from tests.worker import wait_for

pytestmark = MARKS


def test_a_postgresql_restart_answers_503_then_resumes_by_itself():
    """A private cluster: while it is down the API answers 503 {code, detail} (never a 500) and the
    workers keep going; once it is back both serve again by themselves and every clock fires once."""
    pg = PrivatePostgres().create()
    stack = Stack(stack_env(database_url=pg.url))
    # A request waits at most 2 s for a pooled connection (10 by default) before its 503.
    server = Server(DATABASE_URL=pg.url, DATABASE_POOL_TIMEOUT="2")
    statuses: list[int] = []
    try:
        stack.start()
        server.start()
        host = HttpPlayer(server, f"host{time.monotonic_ns()}")
        games = [http_duel(host, HttpPlayer(server, f"p{i}x{time.monotonic_ns()}")) for i in range(2 * SCALE)]
        pg.stop()
        down_until = time.monotonic() + 5 * SCALE
        while time.monotonic() < down_until:
            for answer in (host.client.get(f"/games/{games[0]}/"), host.post("/games/", {"kind": "duel"})):
                statuses.append(answer.status_code)
                assert answer.status_code == 503, answer.text
                assert answer.json()["code"] == "unavailable" and answer.headers["Retry-After"]
            time.sleep(0.3)
        back = timezone.now()
        pg.start()
        assert wait_for(lambda: host.client.get(f"/games/{games[0]}/").status_code == 200, timeout=60)

        def over():
            with psycopg.connect(pg.url) as conn:
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
        assert 500 not in statuses and statuses
        figures.record(
            "postgresql restart",
            games,
            after=back,
            rows=timings,
            clocks=PLAYS,
            targets={figures.CATCH_UP: 5},
            counted={"answers with status 500": (statuses.count(500), 0)},
            note=f"{len(statuses)} answers while it was down",
        )
    finally:
        server.stop()
        stack.stop()
        pg.destroy()
