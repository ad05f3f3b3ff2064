"""Photoshoot in real time against a real server (gunicorn as the Procfile's `web:` line, a real
Celery worker for the hourglass): a full 6-player team round, 6 clients acting as fast as they
can. Reports actions/s, POST p99, the delay from an action to the other clients learning of it
by long-poll (`/events/?after=N&wait=S`), and how late the hourglass expiry lands; beside the
GET /kinds/ rate of the same run (the cheapest endpoint: the ceiling)."""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import subprocess
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from games.models import Event
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.bench, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parent.parent.parent
HOURGLASS = 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One HTTP/1.1 keep-alive connection (one per thread)."""

    def __init__(self, port: int, token: str | None = None):
        self.port, self.token = port, token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=40)

    def call(self, method: str, path: str, body=None):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        for attempt in range(2):
            try:
                self.conn.request(method, path, json.dumps(body) if body is not None else None, headers)
                response = self.conn.getresponse()
                data = response.read()
                return response.status, (json.loads(data) if data else None)
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=40)
                if attempt:
                    raise


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


@pytest.fixture
def server():
    purge_queue()
    worker = Worker(sweep_seconds=1.0).start()
    port = free_port()
    web = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--worker-class",
            "gthread",
            "--workers",
            "2",
            "--threads",
            "16",
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        env=worker.env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(lambda: _up(port), timeout=30), "the server did not start"
        yield port
    finally:
        web.terminate()
        web.wait(20)
        worker.stop()
        purge_queue()


def _up(port):
    try:
        return Client(port).call("GET", "/api/v1/kinds/")[0] == 200
    except OSError:
        return False


def kinds_rate(port, seconds=3.0, threads=6):
    counts = [0] * threads

    def hammer(i):
        client, end = Client(port), time.monotonic() + seconds
        while time.monotonic() < end:
            assert client.call("GET", "/api/v1/kinds/")[0] == 200
            counts[i] += 1

    workers = [threading.Thread(target=hammer, args=(i,)) for i in range(threads)]
    [w.start() for w in workers]
    [w.join() for w in workers]
    return sum(counts) / seconds


def test_bench_a_six_player_team_round(server, capsys):
    port = server
    tokens = []
    for i in range(6):
        status, body = Client(port).call(
            "POST",
            "/api/v1/accounts/register/",
            {
                "username": f"shooter{i}-{port}",
                "password": "correct horse battery",
                "email": f"s{i}-{port}@example.com",
            },
        )
        assert status == 201, body
        tokens.append(body["token"])
    clients = [Client(port, t) for t in tokens]
    status, game = clients[0].call(
        "POST", "/api/v1/games/", {"kind": "photoshoot", "options": {"hourglass_seconds": HOURGLASS}}
    )
    assert status == 201, game
    gid = game["id"]
    for c in clients[1:]:
        assert c.call("POST", f"/api/v1/games/{gid}/join/")[0] == 200
    assert clients[0].call("POST", f"/api/v1/games/{gid}/start/")[0] == 200
    seat_of = [c.call("GET", f"/api/v1/games/{gid}/")[1]["your_seat"] for c in clients]
    by_seat = {seat: Client(port, tokens[i]) for i, seat in enumerate(seat_of)}
    # The ready step: the photographers (0, 2, 4) and one control member (1).
    version = by_seat[0].call("GET", f"/api/v1/games/{gid}/")[1]["version"]
    for seat in (1, 0, 2, 4):
        status, body = by_seat[seat].call(
            "POST", f"/api/v1/games/{gid}/moves/", {"move": {"type": "ready"}, "expected_version": version}
        )
        assert status == 201, body
        version = body["version"]
    view = by_seat[0].call("GET", f"/api/v1/games/{gid}/")[1]
    assert view["state"]["phase"] == "round"
    deadline = datetime.fromisoformat(view["state"]["deadline"].replace("Z", "+00:00"))
    start_version = view["version"]

    posted: dict[int, float] = {}  # version -> when its POST answered
    learned: list[float] = []  # delays: another client saw that version by long-poll
    post_times: list[float] = []
    conflicts = [0]
    over = threading.Event()
    lock = threading.Lock()

    def photographer(seat):
        client = Client(port, tokens[seat_of.index(seat)])
        version, turn = start_version, view["state"]["turn"]
        cells = [[0, 1], [1, 2], [3, 4], [4, 5], [6, 7], [7, 8]]
        n = 0
        while not over.is_set():
            if turn == seat:
                n += 1
                began = time.monotonic()
                status, body = client.call(
                    "POST",
                    f"/api/v1/games/{gid}/moves/",
                    {"move": {"type": "swap", "cells": cells[n % len(cells)]}, "expected_version": version},
                )
                took = time.monotonic() - began
                with lock:
                    post_times.append(took)
                if status == 201:
                    with lock:
                        posted[body["version"]] = time.monotonic()
                    version, turn = body["version"], body["state"]["turn"]
                    if body["state"]["phase"] != "round":
                        over.set()
                    continue
                if status == 409 and body.get("code") == "version_conflict":
                    conflicts[0] += 1
                status, body = client.call("GET", f"/api/v1/games/{gid}/")
                version, turn = body["version"], body["state"]["turn"]
                if body["state"]["phase"] != "round":
                    over.set()
            else:
                status, body = client.call("GET", f"/api/v1/games/{gid}/events/?after={version}&wait=5")
                now = time.monotonic()
                if body["events"]:
                    with lock:
                        for event in body["events"]:
                            if event["seq"] in posted:
                                learned.append(now - posted[event["seq"]])
                    state = client.call("GET", f"/api/v1/games/{gid}/")[1]
                    version, turn = state["version"], state["state"]["turn"]
                    if state["state"]["phase"] != "round":
                        over.set()

    def watcher(seat):
        client = Client(port, tokens[seat_of.index(seat)])
        after = start_version
        while not over.is_set():
            status, body = client.call("GET", f"/api/v1/games/{gid}/events/?after={after}&wait=5")
            now = time.monotonic()
            for event in body["events"]:
                with lock:
                    if event["seq"] in posted:
                        learned.append(now - posted[event["seq"]])
                if event["type"] == "HourglassRanOut":
                    over.set()
            after = body["version"] if body["events"] else after

    threads = [threading.Thread(target=photographer, args=(s,)) for s in (0, 2, 4)]
    threads += [threading.Thread(target=watcher, args=(s,)) for s in (1, 3, 5)]
    began = time.monotonic()
    [t.start() for t in threads]
    [t.join(HOURGLASS + 40) for t in threads]
    elapsed = time.monotonic() - began
    assert wait_for(lambda: Event.objects.filter(game_id=gid, type="TimerExpired").exists(), 30)
    expired = Event.objects.filter(game_id=gid, type="TimerExpired").first()
    lateness = (expired.created_at - deadline).total_seconds()
    actions = Event.objects.filter(game_id=gid, type="CharactersSwapped").count()
    late_refused = Event.objects.filter(game_id=gid, type="CharactersSwapped", created_at__gte=deadline).count()
    ceiling = kinds_rate(port)
    rate = actions / HOURGLASS
    with capsys.disabled():
        print(
            f"\nphotoshoot 6-player round ({HOURGLASS} s hourglass, {elapsed:.1f} s wall): "
            f"{actions} actions = {rate:.1f} actions/s; POST p50 {statistics.median(post_times) * 1000:.0f} ms, "
            f"p99 {p99(post_times) * 1000:.0f} ms over {len(post_times)} POSTs ({conflicts[0]} version conflicts); "
            f"action -> other clients by long-poll: median {statistics.median(learned) * 1000:.0f} ms, "
            f"p99 {p99(learned) * 1000:.0f} ms over {len(learned)} deliveries; "
            f"hourglass expiry {lateness * 1000:.0f} ms after its deadline\n"
            f"ceiling GET /kinds/ {ceiling:.0f} req/s same run; actions/s : kinds/s = {rate / ceiling:.3f}"
        )
    assert lateness >= 0 and late_refused == 0 and actions > 0
