"""The fault suite (issue 30), what its scenarios (tests/faults/test_*.py) share: clocks that never stop. Each scenario runs the Procfile's worker,
outbound and beat lines as real processes, breaks something the way production breaks (Redis
restarted, a process SIGKILLed, PostgreSQL restarted, hostile webhook receivers, a mail server that
refuses), and asserts the same three things: every due clock fires, every event is written
exactly once, and no notification is lost or doubled. Nothing is timed: every wait is a generous
"eventually within N s". `make chaos` runs the same scenarios bigger and prints their figures.

The games are Duels (tests/duel.py) on one-second per-move clocks that nobody plays: each of
their twelve cards is played by a timeout, so a game is over exactly when all twelve of its clocks
fired, and a game with twelve TimerExpired events, no two for the same (seat, deadline), had each
fired once."""
from __future__ import annotations

import os

import httpx
import pytest

from accounts.models import User
from games.models import Delivery, Event, Game, Notification
from tests.conftest import start_game
from tests.faults.stack import CountingReceiver
from tests.live_server import Server

# `make chaos` sets CHAOS_SCALE: more games, longer outages.
SCALE = int(os.environ.get("CHAOS_SCALE", "1"))
MARKS = [pytest.mark.django_db(transaction=True), pytest.mark.fault, pytest.mark.timeout(300 * SCALE)]
PLAYS = 12  # a Duel's cards: its clocks when nobody plays
CLOCKED = {"time_control": "per_move", "move_seconds": 1}


# ---------------------------------------------------------------------------------------------
# The three promises
# ---------------------------------------------------------------------------------------------
def expiries(game_ids, rows=None) -> dict[str, list[tuple[int, str]]]:
    """game -> its TimerExpired events' (seat, deadline), in order."""
    out = {str(g): [] for g in game_ids}
    for game_id, data in rows if rows is not None else (
            Event.objects.filter(game_id__in=game_ids, type="TimerExpired").order_by("game_id", "seq")
            .values_list("game_id", "data")):
        out[str(game_id)].append((data["seat"], data["deadline"]))
    return out


def assert_every_clock_fired_once(fired: dict[str, list], clocks: int = PLAYS) -> None:
    for game_id, deadlines in fired.items():
        assert len(deadlines) == len(set(deadlines)), f"{game_id}: a deadline expired twice: {deadlines}"
        assert len(deadlines) == clocks, f"{game_id}: {len(deadlines)} of its {clocks} clocks fired"


def all_over(game_ids) -> bool:
    return Game.objects.filter(pk__in=game_ids).exclude(status=Game.Status.FINISHED).count() == 0


def assert_notices_once(game_ids, players: int = 2) -> None:
    """One "finished" notice per player and game: written with the last event, exactly once."""
    counts = list(Notification.objects.filter(game_id__in=game_ids, type="finished")
                  .values_list("game_id", "user_id"))
    assert len(counts) == len(set(counts)) == players * len(game_ids)


def assert_webhooks_once(receiver: CountingReceiver, user: User) -> None:
    """Every webhook delivery of `user` was acknowledged by the receiver once: none lost (all sent),
    none doubled (no delivery answered 2xx twice)."""
    sent = set(Delivery.objects.filter(notification__user=user, channel="webhook").values_list("pk", flat=True))
    assert sent, "no webhook delivery at all"
    assert set(receiver.answered) == sent
    assert max(receiver.answered.values()) == 1, receiver.answered.most_common(3)


def deliveries_settled(user: User) -> bool:
    return not Delivery.objects.filter(notification__user=user, channel="webhook",
                                       status=Delivery.Status.PENDING).exists()


def clocked_duels(make_player, count: int, webhook: str | None = None):
    """`count` Duels on one-second clocks, all created by one player (who has `webhook`)."""
    host = make_player()
    if webhook:
        assert host.post("/api/v1/accounts/webhooks/", {"url": webhook}).status_code == 201
    return host, [start_game(host, [make_player()], options=CLOCKED) for _ in range(count)]


class HttpPlayer:
    def __init__(self, server: Server, name: str):
        answer = httpx.post(f"{server.url}/api/v1/accounts/register/", timeout=30, json={
            "username": name, "password": "correct horse battery", "email": f"{name}@example.com"})
        assert answer.status_code == 201, answer.text
        self.client = server.client(answer.json()["token"])

    def post(self, path: str, body: dict | None = None) -> httpx.Response:
        return self.client.post(path, json=body or {})


def http_duel(host: HttpPlayer, other: HttpPlayer) -> str:
    created = host.post("/games/", {"kind": "duel", "options": CLOCKED})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert other.post(f"/games/{game_id}/join/").status_code == 200
    assert host.post(f"/games/{game_id}/start/").status_code == 200
    return game_id
