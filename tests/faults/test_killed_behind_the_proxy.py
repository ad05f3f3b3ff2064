"""Two of each app process behind the proxy (docs/scaling.md), one of each SIGKILLed under load: the
Procfile's `proxy:` (nginx, its `web` and `live` upstreams two servers each), two `web`, two
`live`, two timer workers and two schedulers, all on loopback ports of their own. Players move in
several games at once through the proxy, each game's stream open through it, while other games'
one-second clocks fall due; then one `web`, the `live` holding more streams and one worker are
SIGKILLed at once, and the play goes on.

The clients are ordinary careful ones: a request that got no answer, or a 502 or 503 (nginx may
not yet know the upstream is gone), is sent again, a move with the same Idempotency-Key; a
stream that ends reconnects through the proxy with Last-Event-ID. Then every
move answered 201 is stored once, no answer is a 500, every stream heard every event of its game,
and every clock fired once (tests/faults/scenario.py)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections import Counter

import httpx
import pytest
from django.db import connection
from django.utils import timezone

from games.models import Event, Game, Seat
from tests.faults import figures
from tests.faults.scenario import MARKS, PLAYS, SCALE, HttpPlayer, all_over, assert_written_once, http_duel
from tests.faults.stack.procfile import Stack, procfile_command, stack_env
from tests.live_server import Server, game_stream
from tests.loopback import TLS
from tests.worker import ROOT, wait_for

pytestmark = [
    *MARKS,
    pytest.mark.skipif(
        not shutil.which("nginx") and not os.path.exists("/usr/sbin/nginx"), reason="needs nginx (make nginx)"
    ),
]

RETRIED = (502, 503, 504)  # the proxy's: an upstream that died under the request, or not yet marked down


class Procfiled(Server):
    """A Procfile line serving HTTP on `port`: up once it answers at all (`live` serves only the
    routes that wait, and answers 404 to the others)."""

    def start(self) -> "Procfiled":
        self.process = subprocess.Popen(
            self.command, cwd=ROOT, env=self.env(), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

        def up():
            assert self.process.poll() is None, f"{self.command} died at start:\n{self.output()}"
            try:
                return httpx.get(f"{self.url}/api/v1/kinds/", timeout=2, verify=TLS).status_code < 500
            except httpx.HTTPError:
                return False

        assert wait_for(up, timeout=90, every=0.2), f"{self.command} did not start:\n{self.output()}"
        return self


def procfile_server(name: str, **env: str) -> Server:
    """The Procfile's `web:` or `live:` line on a port of its own, one gunicorn worker each."""
    server = Procfiled(WEB_CONCURRENCY="1", **env)
    port = "WEB_PORT" if name == "web" else "LIVE_PORT LIVE_SETTINGS=tests.live_settings"
    port = port.replace("PORT", f"PORT={server.port}", 1)
    server.command = ["/bin/sh", "-c", f"export {port}; exec {procfile_command(name)}"]
    return server


def proxy_in_front_of(webs: list[Server], lives: list[Server]) -> Server:
    """The Procfile's `proxy:` (deploy/nginx.conf.template), each upstream naming two servers: the
    template's `server ${WEB_UPSTREAM};` line given the second `server` as well, as an operator
    lists their boxes. A server that failed is left alone for 30 s (nginx's default is 10 s), so
    the play after the kill is not split by nginx trying the dead one again."""

    def upstream(servers):
        return "; server ".join(f"127.0.0.1:{s.port} max_fails=1 fail_timeout=30s" for s in servers)

    proxy = Procfiled(WEB_UPSTREAM=upstream(webs), LIVE_UPSTREAM=upstream(lives))
    proxy.command = ["/bin/sh", "-c", f"export PORT={proxy.port}; exec {procfile_command('proxy')}"]
    return proxy


def streams_held(server: Server) -> int:
    """Connections established to `server`'s port now (nginx's streams to it, and kept-alive ones)."""
    listed = subprocess.run(
        ["ss", "-tnH", "state", "established", f"( sport = :{server.port} )"], capture_output=True, text=True
    )
    return len(listed.stdout.splitlines())


class Tally:
    """What the clients saw, across their threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()  # every answer's status, retried ones included ("none": no answer)
        self.moves: Counter = Counter()  # game -> moves answered 201 (one per key)
        self.replayed = 0
        self.reconnects: list[float] = []  # seconds from a stream's end to its reopening's `ready`
        self.failures: list[str] = []

    def count(self, status) -> None:
        with self.lock:
            self.statuses[status] += 1


def send(tally: Tally, client: httpx.Client, method: str, path: str, **kwargs) -> httpx.Response:
    """One request as a careful client sends it: again (the same request, the same key) while the
    proxy answers 502/503/504 or nothing at all."""
    for tries in range(1, 61):
        try:
            answer = client.request(method, path, **kwargs)
        except httpx.TransportError:
            tally.count("none")
            time.sleep(0.2)
            continue
        tally.count(answer.status_code)
        if answer.status_code not in RETRIED:
            answer.tries = tries
            return answer
        time.sleep(0.2)
    raise AssertionError(f"{method} {path}: no answer after 60 tries")


class ResumingStream:
    """A game's stream through the proxy as a browser's EventSource keeps it: opened from the
    start (after=0), reopened with Last-Event-ID whenever it ends."""

    def __init__(self, proxy: Server, token: str, game_id: str, tally: Tally):
        self.proxy, self.token, self.game_id, self.tally = proxy, token, game_id, tally
        self.seqs: list[int] = []
        self.reconnected = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        stream, ended = game_stream(self.proxy, self.token, self.game_id, after=0), None
        while not self.done.is_set():
            try:
                message = stream.next(timeout=0.2)
            except Exception:  # queue.Empty: nothing yet; or the connection is gone
                if stream.closed.is_set() and stream.messages.empty():
                    ended = time.monotonic()
                    stream = self._reopen()
                    if stream is None:
                        return
                continue
            if message.event == "ready" and ended is not None:
                with self.tally.lock:
                    self.tally.reconnects.append(time.monotonic() - ended)
                ended = None
            elif message.id is not None:
                self.seqs.append(int(message.id))
        stream.close()

    def heard_all(self, version: int) -> bool:
        return sorted(set(self.seqs)) == list(range(1, version + 1))

    def _reopen(self):
        last = {"Last-Event-ID": str(self.seqs[-1])} if self.seqs else {}
        for _ in range(60):
            try:
                stream = game_stream(self.proxy, self.token, self.game_id, **({} if last else {"after": 0}), **last)
            except AssertionError:  # no answer at all
                stream = None
            if stream is not None and stream.status == 200:
                self.reconnected += 1
                return stream
            time.sleep(0.2)
        with self.tally.lock:
            self.tally.failures.append(f"{self.game_id}: the stream could not be reopened")
        return None


def done(tally: Tally, answer: httpx.Response, game_id: str, seats: int, status: str) -> None:
    """A join or a start answered 200; or, sent again after its first answer was lost, 409 (the
    first had done it: the game shows it). They have no Idempotency-Key: the client looks."""
    if answer.status_code == 409 and answer.tries > 1:
        assert Seat.objects.filter(game_id=game_id).count() == seats, answer.text
        assert Game.objects.filter(pk=game_id, status=status).exists(), answer.text
        with tally.lock:
            tally.statuses["409 after a lost answer"] += 1
            tally.statuses[409] -= 1
        return
    assert answer.status_code == 200, f"{answer.request.url}: {answer.status_code} {answer.text}"


def play(proxy: Server, tally: Tally, stop: threading.Event, games: list, streams: list) -> None:
    """One pair of players through the proxy: game after game, untimed, a move whenever it is
    their turn, each game's stream open, until told to stop (the game in hand is finished first)."""
    try:
        host, guest = HttpPlayer(proxy, f"h{uuid.uuid4().hex[:12]}"), HttpPlayer(proxy, f"g{uuid.uuid4().hex[:12]}")
        while not stop.is_set():
            created = send(tally, host.client, "POST", "/games/", json={"kind": "duel"})
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            done(tally, send(tally, guest.client, "POST", f"/games/{game_id}/join/"), game_id, 2, Game.Status.OPEN)
            done(tally, send(tally, host.client, "POST", f"/games/{game_id}/start/"), game_id, 2, Game.Status.ACTIVE)
            games.append(game_id)
            token = host.client.headers["Authorization"].split()[1]
            streams.append(ResumingStream(proxy, token, game_id, tally))
            while not Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).exists():
                for player in (host, guest):
                    listed = send(tally, player.client, "GET", f"/games/{game_id}/legal-moves/").json()
                    if not listed["moves"]:
                        continue
                    key = uuid.uuid4().hex
                    body = {"move": listed["moves"][0], "expected_version": listed["version"]}
                    moved = send(
                        tally,
                        player.client,
                        "POST",
                        f"/games/{game_id}/moves/",
                        json=body,
                        headers={"Idempotency-Key": key},
                    )
                    assert moved.status_code == 201, moved.text
                    with tally.lock:
                        tally.moves[game_id] += 1
                        tally.replayed += moved.headers.get("Idempotent-Replayed") == "true"
                    break
    except Exception as error:  # reported by the test, not lost in a thread
        with tally.lock:
            tally.failures.append(f"{type(error).__name__}: {error}")
    finally:
        connection.close()


def test_one_web_one_live_and_one_worker_killed_under_load_lose_no_move():
    webs = [procfile_server("web") for _ in range(2)]
    lives = [procfile_server("live") for _ in range(2)]
    proxy = proxy_in_front_of(webs, lives)
    stack = Stack(stack_env(), workers=2, beats=2)
    tally, stop, moved, streams, threads = Tally(), threading.Event(), [], [], []
    try:
        for server in (*webs, *lives):
            server.start()
        proxy.start()
        stack.start()
        for _ in range(3 * SCALE):
            threads.append(threading.Thread(target=play, args=(proxy, tally, stop, moved, streams), daemon=True))
            threads[-1].start()
        assert wait_for(lambda: sum(tally.moves.values()) >= 12 * SCALE or tally.failures, timeout=120), tally.failures
        clocks = [
            http_duel(HttpPlayer(proxy, f"c{uuid.uuid4().hex[:12]}"), HttpPlayer(proxy, f"o{uuid.uuid4().hex[:12]}"))
            for _ in range(2 * SCALE)
        ]
        assert wait_for(lambda: Event.objects.filter(game_id__in=clocks, type="TimerExpired").exists(), timeout=60)

        live = max(lives, key=streams_held)
        assert streams_held(live), "nginx holds no stream on either `live`"
        at_kill, open_at_kill = sum(tally.moves.values()), len(streams)
        killed, since = time.monotonic(), timezone.now()
        for server in (webs[0], live):
            os.killpg(server.process.pid, signal.SIGKILL)  # gunicorn's master and its worker
            server.process.wait(10)
        stack["worker0"].kill()

        assert wait_for(lambda: all_over(clocks) or tally.failures, timeout=120), stack.logs()
        assert wait_for(lambda: sum(tally.moves.values()) >= at_kill + 24 * SCALE or tally.failures, timeout=120)
        stop.set()
        for thread in threads:
            thread.join(120)
        assert not tally.failures, tally.failures
        versions = {str(g): v for g, v in Game.objects.filter(pk__in=moved).values_list("id", "version")}
        # Every stream heard every event of its game, the killed `live`'s by reconnecting.
        assert wait_for(lambda: all(s.heard_all(versions[s.game_id]) for s in streams), timeout=60), [
            (s.game_id, versions[s.game_id], sorted(set(s.seqs)))
            for s in streams
            if not s.heard_all(versions[s.game_id])
        ]

        # Every move answered 201 stored once: a Duel's twelve plays, each one CardPlayed event.
        stored = Counter(
            str(g) for g in Event.objects.filter(game_id__in=moved, type="CardPlayed").values_list("game_id", flat=True)
        )
        assert stored == Counter(tally.moves), f"stored {stored - tally.moves}, answered {tally.moves - stored}"
        assert 500 not in tally.statuses, tally.statuses
        assert set(+tally.statuses) <= {200, 201, "none", "409 after a lost answer", *RETRIED}, tally.statuses
        assert any(s.reconnected for s in streams), "no stream was on the killed `live`"
        assert_written_once(moved, clocks=0)
        assert_written_once(clocks)
        assert [p.tag for p in stack.procs if not p.alive()] == ["worker0"], stack.logs()

        retried = {str(k): v for k, v in tally.statuses.items() if k not in (200, 201) and v}
        figures.record(
            "one web, one live and one worker killed behind the proxy",
            clocks,
            since=since,
            clocks=PLAYS,
            targets={figures.AFTER_KILL_P99: 2},
            counted={"answers 500": (tally.statuses[500], 0)},
            note=(
                f"{sum(tally.moves.values())} moves in {len(moved)} games ({at_kill} before the kill), "
                f"0 lost, 0 doubled, {tally.replayed} replayed; answers retried: {retried or 'none'}; "
                f"{sum(s.reconnected > 0 for s in streams)} of the {open_at_kill} streams open at the kill reconnected, "
                f"within {max(tally.reconnects, default=0):.2f} s; "
                f"{time.monotonic() - killed:.0f} s of play after the kill"
            ),
        )
    finally:
        stop.set()
        for stream in streams:
            stream.done.set()
        stack.stop()
        for server in (proxy, *webs, *lives):
            server.stop()
