"""Read replicas (docs/operations.md#read-replicas) on a real one: a private primary, a streaming
replica made from it with pg_basebackup -R on another loopback port, and a server with
REPLICA_DATABASE_URL. Reads that may lag (lobby lists, spectators' views) come from the replica
while it keeps up; a player reads their own game, and anything after their own write, from the
primary; a replica lagging past REPLICA_MAX_LAG (replay paused, or applying every commit minutes
late), or stopped, leaves every read to the primary, and nothing answers 500. Spectators' streams
read the replica too, never older than what the server announced of the game. The lag is on
/metrics."""

from __future__ import annotations

import re
import threading
import time

import httpx
import pytest

from tests.faults import figures
from tests.faults.scenario import MARKS, SCALE, HttpPlayer
from tests.faults.stack.postgres import PrivatePostgres
from tests.live_server import Server, game_stream
from tests.loopback import TLS
from tests.worker import wait_for

pytestmark = MARKS
MAX_LAG = 8
DELAY = 120  # seconds: a replica minutes behind applies each commit this long after the primary


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


def delay_replay(primary: PrivatePostgres, replica: PrivatePostgres, seconds: int) -> None:
    """From now on the replica applies each commit `seconds` after the primary made it (as a
    replica whose disk or CPU cannot keep up falls minutes behind), from a commit made now."""
    primary.sql("CREATE TABLE IF NOT EXISTS test_heartbeat (at timestamptz)")
    primary.sql("INSERT INTO test_heartbeat VALUES (now())")
    target = primary.sql("SELECT pg_current_wal_lsn()::text")[0]
    assert wait_for(lambda: replica.sql("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])[0], timeout=20)
    replica.sql(f"ALTER SYSTEM SET recovery_min_apply_delay = '{seconds}s'")
    replica.sql("SELECT pg_reload_conf()")
    applied = "SELECT setting::int FROM pg_settings WHERE name = 'recovery_min_apply_delay'"
    assert wait_for(lambda: replica.sql(applied)[0] == seconds * 1000, timeout=10)


@pytest.fixture
def cluster():
    primary = PrivatePostgres().create()
    replica = None
    try:
        replica = primary.replica(log_statement="all")  # its log names every read it served
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


def play(players: list[HttpPlayer], game_id: str) -> tuple[HttpPlayer, int] | None:
    """One move by whoever's turn it is: (the mover, the version it made), None once it is over."""
    if players[0].client.get(f"/games/{game_id}/").json()["status"] == "finished":
        return None
    for player in players:
        moves = player.client.get(f"/games/{game_id}/legal-moves/").json()
        if moves["moves"]:
            answer = player.post(
                f"/games/{game_id}/moves/", {"move": moves["moves"][0], "expected_version": moves["version"]}
            )
            assert answer.status_code == 201, answer.text
            return player, answer.json()["version"]
    return None


def versions_read(player: HttpPlayer, username: str, game_id: str) -> list[int]:
    """The game's version as `player` reads it every way there is: its detail, its log, its state,
    and the list of `username`'s games (a list that may come from the replica)."""
    detail = player.client.get(f"/games/{game_id}/")
    log = player.client.get(f"/games/{game_id}/events/", params={"limit": 1000})
    state = player.client.get(f"/games/{game_id}/state/")
    listed_games = player.client.get("/games/", params={"player": username, "limit": 200})
    for answer in (detail, log, state, listed_games):
        assert answer.status_code == 200, answer.text
    in_list = [g["version"] for g in listed_games.json()["results"] if g["id"] == game_id]
    return [detail.json()["version"], log.json()["version"], state.json()["version"], *in_list]


class Spectators(threading.Thread):
    """Spectators reading the lobby and the games all along, as fast as they are answered: every
    status they were given."""

    def __init__(self, players: list[HttpPlayer], game_ids: list[str]):
        super().__init__(daemon=True)
        self.players, self.game_ids = players, game_ids
        self.statuses: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            for player in self.players:
                self.statuses.append(player.client.get("/seeks/", params={"kind": "duel"}).status_code)
                for game_id in self.game_ids:
                    self.statuses.append(player.client.get(f"/games/{game_id}/").status_code)
                    self.statuses.append(player.client.get(f"/games/{game_id}/events/").status_code)

    def stop(self) -> list[int]:
        self.done.set()
        self.join(60)
        return self.statuses


def test_a_replica_minutes_behind_gets_no_reads_and_players_read_their_own_moves(cluster):
    primary, replica = cluster
    server = Server(
        DATABASE_URL=primary.url,
        REPLICA_DATABASE_URL=replica.url,
        REPLICA_MAX_LAG=str(MAX_LAG),
        REPLICA_CHECK_SECONDS="0.5",
        REPLICA_PIN_SECONDS=str(MAX_LAG + 1),
    )
    spectators = None
    try:
        server.start()
        stamp = time.monotonic_ns()
        names = {"host": f"host{stamp}", "other": f"other{stamp}"}
        host, other = (HttpPlayer(server, names[n]) for n in ("host", "other"))
        seated = {host: names["host"], other: names["other"]}
        spectator = HttpPlayer(server, f"spec{stamp}")
        games = []
        for _ in range(SCALE):
            opened = host.post("/games/", {"kind": "duel"})
            assert opened.status_code == 201, opened.text
            games.append(opened.json()["id"])
            assert other.post(f"/games/{games[-1]}/join/").status_code == 200
            assert host.post(f"/games/{games[-1]}/start/").status_code == 200
        assert wait_for(lambda: metric(server, "darkroom_replica_lag_seconds") == 0, timeout=30), server.output()
        spectators = Spectators([HttpPlayer(server, f"watch{n}x{stamp}") for n in range(2)], games)
        spectators.start()
        # The spectator reads each game from the replica, up to date.
        assert wait_for(lambda: all(version(spectator, g) == version(host, g) for g in games), timeout=30)

        # The replica falls minutes behind: the next move is on the primary only, and stays so.
        delay_replay(primary, replica, DELAY)
        behind = time.monotonic()
        before = version(host, games[0])
        mover, moved = play([host, other], games[0])
        assert min(versions_read(mover, seated[mover], games[0])) == moved
        # Until the lag passes REPLICA_MAX_LAG the spectator may read the replica: the move is
        # not there. Then every read goes to the primary, the move with it.
        assert version(spectator, games[0]) in (before, moved)
        assert wait_for(lambda: metric(server, "darkroom_replica_reads_enabled") == 0, timeout=MAX_LAG + 20)
        fell_back = time.monotonic() - behind
        assert metric(server, "darkroom_replica_lag_seconds") > MAX_LAG
        assert version(spectator, games[0]) == moved

        # Every game played to its end: each move read at once by both its players, every way
        # (never older than their own move) and by the spectator, from the primary.
        player_reads = spectator_reads = moves = 0
        for game_id in games:
            while (made := play([host, other], game_id)) is not None:
                mover, moved = made
                moves += 1
                for player in (host, other):
                    seen = versions_read(player, seated[player], game_id)
                    player_reads += len(seen)
                    assert min(seen) == moved, (seated[player], seen, moved)
                seen = versions_read(spectator, seated[mover], game_id)
                spectator_reads += len(seen)
                assert min(seen) == moved, (seen, moved)
        final = {g: version(host, g) for g in games}
        # The replica is still minutes behind: none of these moves is there.
        replica_versions = {g: replica.sql("SELECT version FROM games_game WHERE id = %s", [g])[0] for g in games}
        assert all(replica_versions[g] < final[g] for g in games), (replica_versions, final)
        assert metric(server, "darkroom_replica_reads_enabled") == 0

        # Stopped outright under the spectators' reads, then back but still minutes behind: the
        # primary answers them all, none fails.
        replica.stop()
        assert wait_for(lambda: metric(server, "darkroom_replica_up") == 0, timeout=10)
        stopped_at = len(spectators.statuses)
        assert wait_for(lambda: len(spectators.statuses) > stopped_at + 20, timeout=60)
        replica.start()
        assert wait_for(lambda: metric(server, "darkroom_replica_up") == 1, timeout=30)
        assert metric(server, "darkroom_replica_reads_enabled") == 0
        assert all(version(spectator, g) == final[g] for g in games)
        statuses = spectators.stop()
        errors = sum(status != 200 for status in statuses)
        line = figures.report(
            f"replica {DELAY} s behind (REPLICA_MAX_LAG {MAX_LAG} s): duels {len(games)}, moves {moves + 1}; "
            f"its reads moved to the primary {fell_back:.1f} s after it fell behind; "
            f"{player_reads} reads by the players, 0 older than their own move; "
            f"{spectator_reads} reads by a spectator after the fallback, 0 stale; "
            f"replica stopped then back behind: {len(statuses)} spectators' reads all along, {errors} errors, "
            f"{statuses.count(500)} status 500"
        )
        print(line)
        assert errors == 0, statuses
        assert "Traceback" not in server.output(), server.output()
    finally:
        if spectators:
            spectators.stop()
        server.stop()


def events_read_on(replica: PrivatePostgres) -> int:
    """How many reads of games' events the replica served, as its log shows them: only a
    stream's or a long-poll's read of a game's latest events asks for them there in these tests."""
    return (replica.dir / "log").read_text(errors="replace").count('FROM "games_event"')


def replayed_all(primary: PrivatePostgres, replica: PrivatePostgres) -> bool:
    """Whether the replica replayed everything the primary wrote until now (asked without reading
    a table on the replica)."""
    target = primary.sql("SELECT pg_current_wal_lsn()::text")[0]
    return wait_for(lambda: replica.sql("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target])[0], timeout=20)


def token(player: HttpPlayer) -> str:
    return player.client.headers["Authorization"].split()[1]


def test_spectators_streams_read_the_replica_never_older_than_what_was_announced(cluster):
    primary, replica = cluster
    pin = MAX_LAG + 1
    server = Server(
        DATABASE_URL=primary.url,
        REPLICA_DATABASE_URL=replica.url,
        REPLICA_MAX_LAG=str(MAX_LAG),
        REPLICA_CHECK_SECONDS="0.5",
        REPLICA_PIN_SECONDS=str(pin),
    )
    streams = []

    def watch(player: HttpPlayer, after: int | None = None):
        streams.append(game_stream(server, token(player), game_id, after=after))
        return streams[-1]

    try:
        server.start()
        stamp = time.monotonic_ns()
        host, other, spectator, late = (HttpPlayer(server, f"{n}{stamp}") for n in ("host", "other", "spec", "late"))
        opened = host.post("/games/", {"kind": "duel"})
        game_id = opened.json()["id"]
        assert other.post(f"/games/{game_id}/join/").status_code == 200
        assert host.post(f"/games/{game_id}/start/").status_code == 200
        assert wait_for(lambda: metric(server, "darkroom_replica_lag_seconds") == 0, timeout=30), server.output()

        # The host's stream: the server hears the game from now on. Once it has heard it longer
        # than the replica may lag, whatever came before is on the replica.
        hosting = watch(host)
        assert hosting.next().event == "ready"
        time.sleep(pin + 1)
        _, moved = play([host, other], game_id)
        assert hosting.until(lambda m: m.id == str(moved))
        assert replayed_all(primary, replica)

        # A player's new stream from the start reads the primary; a spectator's, the replica.
        playing = watch(other, after=0)
        assert playing.next().data["version"] == moved
        assert playing.until(lambda m: m.id == str(moved))
        assert events_read_on(replica) == 0
        watching = watch(spectator, after=0)
        ready = watching.next()
        assert ready.event == "ready" and ready.data["version"] == moved
        assert watching.until(lambda m: m.id == str(moved))
        assert events_read_on(replica) > 0

        # Replay paused: the replica lacks the next move. Every stream hears it at once, and a
        # spectator who opens one now reads up to it: the replica, short of what the server
        # announced, leaves that read to the primary.
        pause_replay(primary, replica)
        _, latest = play([host, other], game_id)
        for stream in (hosting, watching):
            assert stream.until(lambda m: m.id == str(latest))
        arriving = watch(late, after=0)
        ready = arriving.next()
        assert ready.event == "ready" and ready.data["version"] == latest
        assert [m.id for m in arriving.until(lambda m: m.id == str(latest))][-1] == str(latest)
        assert replica.sql("SELECT version FROM games_game WHERE id = %s", [game_id])[0] < latest

        # The replica stopped: a spectator's new stream reads the primary, and fails nothing.
        replica.stop()
        again = watch(spectator, after=0)
        ready = again.next()
        assert ready.event == "ready" and ready.data["version"] == latest
        assert again.until(lambda m: m.id == str(latest))
        assert "Traceback" not in server.output(), server.output()
    finally:
        for stream in streams:
            stream.close()
        server.stop()
