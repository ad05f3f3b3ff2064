"""Read replicas (docs/operations.md#read-replicas) on a real one: a private primary, a streaming
replica made from it with pg_basebackup -R on another loopback port, and a server with
REPLICA_DATABASE_URL. Reads that may lag (lobby lists, spectators' views) come from the replica
while it keeps up; a player reads their own game, and anything after their own write, from the
primary; a replica lagging past REPLICA_MAX_LAG, or stopped, leaves every read to the primary, and
nothing answers 500. The lag is on /metrics."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.faults.scenario import MARKS, HttpPlayer
from tests.faults.stack import PrivatePostgres
from tests.live_server import Server
from tests.loopback import TLS
from tests.worker import wait_for

pytestmark = MARKS
MAX_LAG = 8


def metric(server: Server, name: str) -> float | None:
    text = httpx.get(f"{server.url}/metrics", timeout=10, verify=TLS).text
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    return float(found.group(1)) if found else None


def listed(player: HttpPlayer, game_id: str) -> bool:
    answer = player.client.get("/seeks/", params={"kind": "duel", "limit": 200})
    assert answer.status_code == 200, answer.text
    return game_id in {g["id"] for g in answer.json()["results"]}


def version(player: HttpPlayer, game_id: str) -> int:
    answer = player.client.get(f"/games/{game_id}/")
    assert answer.status_code == 200, answer.text
    return answer.json()["version"]


def pause_replay(primary: PrivatePostgres, replica: PrivatePostgres) -> None:
    """Stop the replica's replay just after it replayed a commit made now, so that its lag starts
    from zero (an idle primary's last commit may be long ago) and grows while the test writes."""
    primary.sql("CREATE TABLE IF NOT EXISTS test_heartbeat (at timestamptz)")
    primary.sql("INSERT INTO test_heartbeat VALUES (now())")
    target = primary.sql("SELECT pg_current_wal_lsn()::text")[0]
    assert wait_for(lambda: replica.sql("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])[0], timeout=20)
    replica.sql("SELECT pg_wal_replay_pause()")


@pytest.fixture
def cluster():
    primary = PrivatePostgres().create()
    replica = None
    try:
        replica = primary.replica()
        yield primary, replica
    finally:
        if replica:
            replica.destroy()
        primary.destroy()


def test_lag_tolerant_reads_go_to_the_replica_and_fall_back_to_the_primary(cluster):
    primary, replica = cluster
    server = Server(
        DATABASE_URL=primary.url,
        REPLICA_DATABASE_URL=replica.url,
        REPLICA_MAX_LAG=str(MAX_LAG),
        REPLICA_CHECK_SECONDS="0.5",
        REPLICA_PIN_SECONDS=str(MAX_LAG + 1),
    )
    statuses: list[int] = []
    try:
        server.start()
        host, other = (HttpPlayer(server, f"{n}{time.monotonic_ns()}") for n in ("host", "other"))
        spectator = HttpPlayer(server, f"spec{time.monotonic_ns()}")
        assert wait_for(lambda: metric(server, "darkroom_replica_lag_seconds") == 0, timeout=30), server.output()
        assert metric(server, "darkroom_replica_up") == metric(server, "darkroom_replica_reads_enabled") == 1
        time.sleep(MAX_LAG + 1)  # the registrations' pins are over

        # Replay paused: the replica has what it had. A game opened now is the host's own write.
        pause_replay(primary, replica)
        opened = host.post("/games/", {"kind": "duel"})
        assert opened.status_code == 201, opened.text
        game_id = opened.json()["id"]
        assert listed(host, game_id)  # read your writes: pinned to the primary
        assert not listed(spectator, game_id), (  # the lobby from the replica, a little behind
            metric(server, "darkroom_replica_lag_seconds"),
            replica.sql("SELECT pg_get_wal_replay_pause_state()"),
            replica.sql("SELECT count(*) FROM games_game WHERE id = %s", [game_id]),
        )
        assert 0 < metric(server, "darkroom_replica_lag_seconds") <= MAX_LAG
        # A link to the game from the primary's list: the replica lacks it, the primary has it.
        assert spectator.client.get(f"/games/{game_id}/").status_code == 200

        # The replica falls further behind than REPLICA_MAX_LAG: every read to the primary.
        assert wait_for(lambda: metric(server, "darkroom_replica_reads_enabled") == 0, timeout=MAX_LAG + 10)
        assert metric(server, "darkroom_replica_lag_seconds") > MAX_LAG
        assert listed(spectator, game_id)
        replica.sql("SELECT pg_wal_replay_resume()")
        assert wait_for(lambda: metric(server, "darkroom_replica_lag_seconds") == 0, timeout=30)
        assert listed(spectator, game_id)  # the replica again, caught up

        # A move: its player reads it at once (their own game, on the primary); a spectator reads
        # from the replica, paused before the move, so one version behind.
        assert other.post(f"/games/{game_id}/join/").status_code == 200
        assert host.post(f"/games/{game_id}/start/").status_code == 200
        time.sleep(MAX_LAG + 1)  # no pins left: only the seats keep the players on the primary
        assert wait_for(lambda: version(spectator, game_id) == version(host, game_id), timeout=10)
        pause_replay(primary, replica)
        before = version(host, game_id)
        for player in (host, other):
            moves = player.client.get(f"/games/{game_id}/legal-moves/").json()
            if moves["moves"]:
                answer = player.post(
                    f"/games/{game_id}/moves/", {"move": moves["moves"][0], "expected_version": moves["version"]}
                )
                assert answer.status_code == 201, answer.text
                moved = answer.json()["version"]
                break
        assert moved > before
        assert version(host, game_id) == version(other, game_id) == moved
        assert version(spectator, game_id) == before
        replica.sql("SELECT pg_wal_replay_resume()")
        assert wait_for(lambda: version(spectator, game_id) == moved, timeout=30)

        # The replica stopped: the spectator's reads fall back at once, none fails.
        replica.stop()
        for _ in range(10):
            answer = spectator.client.get("/seeks/", params={"kind": "duel"})
            statuses.append(answer.status_code)
            statuses.append(spectator.client.get(f"/games/{game_id}/").status_code)
            time.sleep(0.2)
        assert set(statuses) == {200}, statuses
        assert metric(server, "darkroom_replica_up") == 0
        assert metric(server, "darkroom_replica_reads_enabled") == 0
        assert "Traceback" not in server.output(), server.output()
    finally:
        server.stop()
