"""The fault suite, what its scenarios (tests/faults/test_*.py) share: clocks that never stop. Each scenario runs the Procfile's worker,
outbound and beat lines as real processes, breaks something the way production breaks (Redis
restarted, a process SIGKILLed, PostgreSQL restarted, hostile webhook receivers, a mail server that
refuses), and asserts the same three things with one check (`assert_written_once`): every due
clock fires, every event is written exactly once, and no notification is lost or doubled. Nothing is timed: every wait is a generous
"eventually within N s". `make chaos` runs the same scenarios bigger and prints their figures.

The games are Duels (tests/duel.py) on one-second per-move clocks that nobody plays: each of
their twelve cards is played by a timeout, so a game is over exactly when all twelve of its clocks
fired, and a game with twelve TimerExpired events, no two for the same (seat, deadline), had each
fired once."""

from __future__ import annotations

import json
import os
from collections import Counter

import httpx
import pytest
from django.db import connection

from accounts.models import NotificationPreference, User
from games.models import Delivery, Game
from tests.conftest import start_game
from tests.faults.stack.receivers import CountingReceiver
from tests.live_server import Server
from tests.loopback import TLS

# `make chaos` sets CHAOS_SCALE: more games, longer outages.
SCALE = int(os.environ.get("CHAOS_SCALE", "1"))
MARKS = [pytest.mark.django_db(transaction=True), pytest.mark.fault, pytest.mark.timeout(300 * SCALE)]
PLAYS = 12  # a Duel's cards: its clocks when nobody plays
CLOCKED = {"time_control": "per_move", "move_seconds": 1}


# ---------------------------------------------------------------------------------------------
# The three promises
# ---------------------------------------------------------------------------------------------
def expiries(game_ids, rows) -> dict[str, list[tuple[int, str]]]:
    """game -> its TimerExpired events' (seat, deadline), in order, from (game, data) `rows`."""
    out = {str(g): [] for g in game_ids}
    for game_id, data in rows:
        data = json.loads(data) if isinstance(data, str) else data  # Django's cursor: jsonb as text
        out[str(game_id)].append((data["seat"], data["deadline"]))
    return out


def assert_every_clock_fired_once(fired: dict[str, list], clocks: int = PLAYS) -> None:
    for game_id, deadlines in fired.items():
        assert len(deadlines) == len(set(deadlines)), f"{game_id}: a deadline expired twice: {deadlines}"
        assert len(deadlines) == clocks, f"{game_id}: {len(deadlines)} of its {clocks} clocks fired"


def all_over(game_ids) -> bool:
    return Game.objects.filter(pk__in=game_ids).exclude(status=Game.Status.FINISHED).count() == 0


def _rows(db, sql: str, params: list) -> list[tuple]:
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def assert_written_once(game_ids, clocks: int = PLAYS, db=None) -> None:
    """The three promises, checked alike by every scenario, in the test database or `db` (a
    connection to another, such as a private cluster):

    - every due clock fired, once: each game has `clocks` TimerExpired events, no two for one
      (seat, deadline);
    - every event was written once: a game's events are numbered 1 to its version, none missing,
      none twice;
    - no notice lost or doubled: each expiry wrote one "timed_out" notice to each of its game's
      players, each finished game one "finished" notice to each (the scenarios' players mute
      nothing), and each of those notices has exactly the deliveries its player's channels call
      for: one email, one per active webhook, one push if they can be pushed to."""
    db = db or connection
    games = [str(g) for g in game_ids]
    assert_every_clock_fired_once(
        expiries(
            games,
            _rows(
                db,
                """
        SELECT game_id, data FROM games_event WHERE type = 'TimerExpired' AND game_id = ANY(%s::uuid[])
         ORDER BY game_id, seq""",
                [games],
            ),
        ),
        clocks,
    )
    for game_id, version, count, distinct, top in _rows(
        db,
        """
            SELECT g.id, g.version, count(e.id), count(DISTINCT e.seq), max(e.seq)
              FROM games_game g LEFT JOIN games_event e ON e.game_id = g.id
             WHERE g.id = ANY(%s::uuid[]) GROUP BY g.id""",
        [games],
    ):
        assert count == distinct == top == version, f"{game_id}: version {version}, {count} events, seqs up to {top}"

    seats = {}
    for game_id, user_id in _rows(
        db, "SELECT game_id, user_id FROM games_seat WHERE game_id = ANY(%s::uuid[])", [games]
    ):
        seats.setdefault(str(game_id), []).append(user_id)
    expected = Counter()
    for game_id, seq in _rows(
        db,
        """
            SELECT game_id, seq FROM games_event WHERE type = 'TimerExpired' AND data->>'seat' IS NOT NULL
               AND game_id = ANY(%s::uuid[])""",
        [games],
    ):
        expected.update(("timed_out", str(game_id), user_id, seq) for user_id in seats[str(game_id)])
    for (game_id,) in _rows(
        db, "SELECT id FROM games_game WHERE status = 'finished' AND id = ANY(%s::uuid[])", [games]
    ):
        expected.update(("finished", str(game_id), user_id) for user_id in seats[str(game_id)])
    notices = _rows(
        db,
        """
        SELECT n.id, n.type, n.game_id, n.user_id, n.seq,
               ARRAY(SELECT d.channel || ':' || coalesce(d.webhook_id::text, '') FROM games_delivery d
                      WHERE d.notification_id = n.id ORDER BY 1)
          FROM games_notification n WHERE n.type IN ('timed_out', 'finished') AND n.game_id = ANY(%s::uuid[])""",
        [games],
    )
    written = Counter(
        (kind, str(game_id), user_id, seq) if kind == "timed_out" else (kind, str(game_id), user_id)
        for _, kind, game_id, user_id, seq, _ in notices
    )
    assert written == expected, f"missing {expected - written}, doubled or unexpected {written - expected}"

    users = sorted({user_id for players in seats.values() for user_id in players})
    channels = {
        u: json.loads(c) if isinstance(c, str) else (c or {})
        for u, c in _rows(
            db, "SELECT user_id, channels FROM accounts_notificationpreference WHERE user_id = ANY(%s)", [users]
        )
    }
    hooks = {}
    for user_id, hook in _rows(
        db, "SELECT user_id, id FROM accounts_webhook WHERE active AND user_id = ANY(%s)", [users]
    ):
        hooks.setdefault(user_id, []).append(f"webhook:{hook}")
    pushed = {
        u
        for (u,) in _rows(
            db,
            """
        SELECT user_id FROM accounts_pushsubscription WHERE user_id = ANY(%s)
        UNION SELECT user_id FROM accounts_pushdevice WHERE user_id = ANY(%s)""",
            [users, users],
        )
    }
    for pk, kind, _, user_id, _, deliveries in notices:
        chosen = channels.get(user_id, {}).get(kind, NotificationPreference.DEFAULT_CHANNELS[kind])
        due = (
            (["email:"] if "email" in chosen else [])
            + (hooks.get(user_id, []) if "webhook" in chosen else [])
            + (["push:"] if "push" in chosen and user_id in pushed else [])
        )
        assert sorted(deliveries) == sorted(due), f"notice {pk} ({kind}): deliveries {deliveries}, due {due}"


def assert_webhooks_once(receiver: CountingReceiver, user: User) -> None:
    """Every webhook delivery of `user` was acknowledged by the receiver once: none lost (all sent),
    none doubled (no delivery answered 2xx twice)."""
    sent = set(Delivery.objects.filter(notification__user=user, channel="webhook").values_list("pk", flat=True))
    assert sent, "no webhook delivery at all"
    assert set(receiver.answered) == sent
    assert max(receiver.answered.values()) == 1, receiver.answered.most_common(3)


def deliveries_settled(user: User) -> bool:
    return not Delivery.objects.filter(
        notification__user=user, channel="webhook", status=Delivery.Status.PENDING
    ).exists()


def clocked_duels(make_player, count: int, webhook: str | None = None):
    """`count` Duels on one-second clocks, all created by one player (who has `webhook`)."""
    host = make_player()
    if webhook:
        assert host.post("/api/v1/accounts/webhooks/", {"url": webhook}).status_code == 201
    return host, [start_game(host, [make_player()], options=CLOCKED) for _ in range(count)]


class HttpPlayer:
    def __init__(self, server: Server, name: str):
        answer = httpx.post(
            f"{server.url}/api/v1/accounts/register/",
            timeout=30,
            json={"username": name, "password": "correct horse battery", "email": f"{name}@example.com"},
            verify=TLS,
        )
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
