"""Two of each app process (docs/scaling.md): two servers on one database and one Redis, as
behind the proxy. A stream held by one hears every move made through the other; with one of them
SIGKILLed the other serves the moves and the stream, and no move is lost."""

from __future__ import annotations

import os
import signal
import time

from games.models import Event, Game
from tests.faults.scenario import MARKS, HttpPlayer
from tests.live_server import Server, game_stream

pytestmark = MARKS


def token(player: HttpPlayer) -> str:
    return player.client.headers["Authorization"].split()[1]


def move(clients: dict, game_id: str) -> int:
    """One move by whoever's turn it is, through the clients given (player -> httpx client)."""
    for client in clients.values():
        listed = client.get(f"/games/{game_id}/legal-moves/").json()
        if listed["moves"]:
            answer = client.post(
                f"/games/{game_id}/moves/", json={"move": listed["moves"][0], "expected_version": listed["version"]}
            )
            assert answer.status_code == 201, answer.text
            return answer.json()["version"]
    raise AssertionError("nobody could move")


def test_a_stream_on_one_server_hears_moves_made_on_the_other_and_survives_its_death():
    one, other = Server(), Server()
    stream = None
    try:
        one.start()
        other.start()
        host, guest = HttpPlayer(one, f"h{time.monotonic_ns()}"), HttpPlayer(one, f"g{time.monotonic_ns()}")
        created = host.post("/games/", {"kind": "duel"})
        game_id = created.json()["id"]
        assert guest.post(f"/games/{game_id}/join/").status_code == 200
        assert host.post(f"/games/{game_id}/start/").status_code == 200
        stream = game_stream(one, token(host), game_id)
        assert stream.next(timeout=20).event == "ready"

        through_other = {p: other.client(token(p)) for p in (host, guest)}
        for _ in range(3):
            version = move(through_other, game_id)
            heard = stream.until(lambda m: m.data.get("version") == version, timeout=20)
            assert heard[-1].id == str(version)

        os.killpg(other.process.pid, signal.SIGKILL)  # the other server dies mid-game
        other.process.wait(10)
        through_one = {p: p.client for p in (host, guest)}
        for _ in range(3):
            version = move(through_one, game_id)
            assert stream.until(lambda m: m.data.get("version") == version, timeout=20)[-1].id == str(version)
        game = Game.objects.get(pk=game_id)
        assert game.version == version == Event.objects.filter(game_id=game_id).count()
    finally:
        if stream:
            stream.close()
        one.stop()
        other.stop()
