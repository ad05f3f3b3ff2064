"""The fault suite (issue 30): clocks that never stop. Each scenario runs the Procfile's worker,
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
import time
from datetime import timedelta

import httpx
import psycopg
import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import NotificationPreference, User
from games.play import scheduling
from games.models import Delivery, Event, Game, Notification
from tests.conftest import start_game
from tests.faults import figures
from tests.faults.stack import CountingReceiver, PrivatePostgres, Stack, Tarpit, closed_port, stack_env, wait_quietly
from tests.games.timetravel import rewind
from tests.live_server import PrivateRedis, Server
from tests.worker import purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.fault, pytest.mark.timeout(300 * int(os.environ.get("CHAOS_SCALE", "1")))]

# `make chaos` sets CHAOS_SCALE: more games, longer outages.
SCALE = int(os.environ.get("CHAOS_SCALE", "1"))
PLAYS = 12  # a Duel's cards: its clocks when nobody plays
CLOCKED = {"time_control": "per_move", "move_seconds": 1}
# Games whose clocks run out in the same second while the webhook receivers hang.
SAME_SECOND = int(os.environ.get("CHAOS_SAME_SECOND", 20 * SCALE))


@pytest.fixture(autouse=True)
def _run_queues():
    purge_queue()
    yield
    purge_queue()


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


# ---------------------------------------------------------------------------------------------
# Redis restarted during clocked play
# ---------------------------------------------------------------------------------------------
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


def test_a_redis_restart_during_clocked_play_stops_no_clock():
    """Redis stops (no data kept) and comes back: the worker, outbound, beat and web stay up and
    reconnect by themselves, and every clock fires once (the waiting wakes died with Redis: the
    sweeper's first runs catch up)."""
    redis = PrivateRedis().start()
    receiver = CountingReceiver()
    stack, server = Stack(stack_env(redis.url)), Server(redis.url)
    try:
        stack.start()
        server.start()
        host = HttpPlayer(server, f"host{time.monotonic_ns()}")
        assert host.post("/accounts/webhooks/", {"url": receiver.url}).status_code == 201
        games = [http_duel(host, HttpPlayer(server, f"p{i}x{time.monotonic_ns()}")) for i in range(3 * SCALE)]
        # A few clocks in, with wakes waiting in the worker (unacknowledged): Redis goes away.
        assert wait_for(lambda: Event.objects.filter(game_id__in=games, type="TimerExpired").count() >= len(games),
                        timeout=60), stack.logs()
        redis.command("SHUTDOWN", "NOSAVE")
        assert wait_for(lambda: not redis.ping(), timeout=10)
        redis.process.wait(10)
        wait_quietly(4 * SCALE)
        back = timezone.now()
        redis.start()
        assert wait_for(lambda: all_over(games), timeout=60 + 20 * SCALE), stack.logs()
        assert stack.dead() == [], stack.logs()
        assert "Unrecoverable error" not in stack.logs()
        assert server.process.poll() is None and httpx.get(f"{server.url}/api/v1/kinds/", timeout=10).status_code == 200
        fired = expiries(games)
        assert_every_clock_fired_once(fired)
        assert_notices_once(games)
        user = User.objects.get(username=host.client.get("/accounts/me/").json()["username"])
        assert wait_for(lambda: deliveries_settled(user), timeout=60), stack.logs()
        assert_webhooks_once(receiver, user)
        figures.record("redis restart", games, after=back)
    finally:
        server.stop()
        stack.stop()
        receiver.close()
        redis.stop()


# ---------------------------------------------------------------------------------------------
# A worker SIGKILLed mid-sweep, and during a webhook delivery
# ---------------------------------------------------------------------------------------------
def test_a_worker_killed_mid_sweep_loses_no_clock_and_doubles_none(make_player):
    """Many games fall due while no worker runs; the worker that starts sweeping them is killed
    mid-sweep (its batch's transaction dies with it). Its twin sweeps them: each once."""
    host, other = make_player(), make_player()
    count = 40 * SCALE
    games = [start_game(host, [other], options={"time_control": "per_move", "move_seconds": 3600})
             for _ in range(count)]
    for game_id in games:
        rewind(game_id, 3601)  # due now; no wake was ever sent for an hour-long clock
    stack = Stack(stack_env(), workers=2, beats=0)
    beat = Stack(stack_env(), workers=0, beats=1, outbound=False)
    try:
        stack.start()
        beat.start()

        def sweeping():
            return next((p for p in stack.procs if p.name == "worker" and "task games.tasks.sweep started" in p.output()),
                        None)

        victim = wait_for(sweeping, timeout=60, every=0.02)
        assert victim, stack.logs()
        victim.kill()
        killed = timezone.now()
        # Killed mid-sweep: the sweep it started never finished.
        assert "Task games.tasks.sweep[" not in victim.output().split("task games.tasks.sweep started", 1)[1]
        at_kill = Event.objects.filter(game_id__in=games, type="TimerExpired").values("game_id").distinct().count()
        assert wait_for(lambda: Event.objects.filter(game_id__in=games, type="TimerExpired")
                        .values("game_id").distinct().count() == count, timeout=90), stack.logs()
        wait_quietly(3)  # more sweeps: none may expire a deadline again
        fired = expiries(games)
        for game_id, deadlines in fired.items():
            assert len(deadlines) == len(set(deadlines)) == 1, (game_id, deadlines)
        assert [p.tag for p in stack.procs if p is not victim and not p.alive()] == []
        last = Event.objects.filter(game_id__in=games, type="TimerExpired").order_by("-created_at").first()
        figures.record("worker killed mid-sweep", games, note=(
            f"{at_kill} of {count} expired when it was killed, all {count} "
            f"{(last.created_at - killed).total_seconds():.2f} s after the kill"))
    finally:
        stack.stop()
        beat.stop()


def test_a_worker_killed_during_a_webhook_delivery_loses_and_doubles_no_notice(make_player):
    """The outbound worker is killed while a receiver holds its POST unanswered: nothing is
    recorded, the lease runs out, the sweeper resends it, it is acknowledged once."""
    receiver = CountingReceiver()
    receiver.hold.set()
    stack = Stack(stack_env())
    try:
        host, games = clocked_duels(make_player, 2 * SCALE, webhook=receiver.url)
        stack.start()
        assert wait_for(lambda: sum(receiver.received.values()) >= 1, timeout=60), stack.logs()
        stack["outbound"].kill()
        receiver.hold.clear()
        receiver.released.set()
        stack["outbound"].start()
        assert wait_for(lambda: all_over(games), timeout=90), stack.logs()
        assert wait_for(lambda: deliveries_settled(host.user), timeout=90), stack.logs()
        assert_every_clock_fired_once(expiries(games))
        assert_notices_once(games)
        assert_webhooks_once(receiver, host.user)
        assert Delivery.objects.filter(notification__user=host.user, status=Delivery.Status.FAILED).count() == 0
        assert any(n > 1 for n in receiver.received.values())  # the held one came again
    finally:
        stack.stop()
        receiver.close()


# ---------------------------------------------------------------------------------------------
# A scheduler killed, with a second one running
# ---------------------------------------------------------------------------------------------
def test_a_scheduler_and_a_worker_killed_with_their_twins_running_stop_no_clock(make_player):
    """Two beats and two timer workers. The games' first wakes are lost (the queue purged before
    any worker ran), so only a sweep can fire their first clocks; one beat is SIGKILLed as the
    stack comes up, one worker once the clocks are running (with the wakes it holds): the twins
    fire every clock, once."""
    host, games = clocked_duels(make_player, 3 * SCALE)
    purge_queue()
    stack = Stack(stack_env(), workers=2, beats=2, outbound=False)
    try:
        stack.start()
        stack["beat0"].kill()
        assert wait_for(lambda: Event.objects.filter(game_id__in=games, type="TimerExpired").count() >= 2 * len(games),
                        timeout=60), stack.logs()
        killed = timezone.now()
        stack["worker0"].kill()
        assert wait_for(lambda: all_over(games), timeout=90), stack.logs()
        assert sorted(stack.dead()) == ["beat0", "worker0"], stack.logs()
        assert_every_clock_fired_once(expiries(games))
        assert_notices_once(games)
        figures.record("a scheduler and a worker killed, twins running", games, since=killed)
    finally:
        stack.stop()


# ---------------------------------------------------------------------------------------------
# PostgreSQL restarted
# ---------------------------------------------------------------------------------------------
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

        def rows():
            with psycopg.connect(pg.url) as conn:
                return conn.execute("SELECT game_id, data FROM games_event WHERE type = 'TimerExpired' "
                                    "AND game_id = ANY(%s) ORDER BY game_id, seq", [games]).fetchall()

        def over():
            with psycopg.connect(pg.url) as conn:
                return conn.execute("SELECT count(*) FROM games_game WHERE id = ANY(%s) AND status <> 'finished'",
                                    [games]).fetchone()[0] == 0

        assert wait_for(over, timeout=90), stack.logs()
        assert stack.dead() == [], stack.logs()
        assert_every_clock_fired_once(expiries(games, rows()))
        with psycopg.connect(pg.url) as conn:
            finished = conn.execute("SELECT game_id, user_id FROM games_notification WHERE type = 'finished' "
                                    "AND game_id = ANY(%s)", [games]).fetchall()
            timings = conn.execute("SELECT data, created_at FROM games_event WHERE type = 'TimerExpired' "
                                   "AND game_id = ANY(%s)", [games]).fetchall()
        assert len(finished) == len(set(finished)) == 2 * len(games)
        assert 500 not in statuses and statuses
        figures.record("postgresql restart", games, after=back, rows=timings,
                       note=f"{len(statuses)} answers while down, {statuses.count(500)} with status 500")
    finally:
        server.stop()
        stack.stop()
        pg.destroy()


# ---------------------------------------------------------------------------------------------
# Hostile outside parties: 20 webhook receivers that hang or trickle, a mail server that refuses
# ---------------------------------------------------------------------------------------------
def test_hostile_receivers_and_a_refusing_mail_server_delay_no_clock(make_player):
    """20 tarpit receivers (hanging, trickling, redirecting for ever, flooding 10 MB) and SMTP
    refusing every connection, while clocks run out, many in the same second: every clock fires
    all the same, each attempt is cut at its deadline, retried with backoff and then marked failed
    (never more than WEBHOOK_MAX_ATTEMPTS attempts, never sent)."""
    tarpit = Tarpit(20)
    env = stack_env(TEST_WORKER_EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
                    EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(closed_port()))
    stack = Stack(env)
    try:
        owners = []
        quiet = {kind: ["inbox"] for kind in NotificationPreference.TYPES}
        for url in tarpit.urls:  # each told of their turn by webhook and email at once, nothing else
            player = make_player()
            assert player.post("/api/v1/accounts/webhooks/", {"url": url}).status_code == 201
            answer = player.client.put("/api/v1/accounts/preferences/", {
                "email_digest_minutes": 0, "channels": {**quiet, "your_turn": ["inbox", "email", "webhook"]}},
                format="json")
            assert answer.status_code == 200, answer.content
            owners.append(player)
        games = [start_game(owners[i], [owners[i + 1]], options=CLOCKED) for i in range(0, 20, 2)]
        # Games whose clocks all run out in the same second, as the outbound queue clogs.
        host, other = make_player(), make_player()
        same = [start_game(host, [other], options={"time_control": "per_move", "move_seconds": 3600})
                for _ in range(SAME_SECOND)]
        stack.start()
        due = timezone.now() + timedelta(seconds=3)
        for game in Game.objects.filter(pk__in=same):
            rewind(game.pk, (game.next_deadline - due).total_seconds())
        scheduling.wake([due])  # as the commit that set the deadline would
        assert wait_for(lambda: all_over(games), timeout=120), stack.logs()
        assert wait_for(lambda: Event.objects.filter(game_id__in=same, type="TimerExpired").count() >= len(same),
                        timeout=60), stack.logs()
        assert_every_clock_fired_once(expiries(games))
        assert_every_clock_fired_once(expiries(same), clocks=1)
        assert_notices_once(games)
        users = [p.user for p in owners]
        hostile = Delivery.objects.filter(notification__user__in=users)
        assert hostile.count() >= 20
        assert wait_for(lambda: not hostile.filter(status=Delivery.Status.PENDING).exists(), timeout=150), stack.logs()
        assert not hostile.filter(status=Delivery.Status.SENT).exists()
        for delivery in hostile:
            attempts = list(delivery.attempt_log.all())
            assert delivery.attempts == settings.WEBHOOK_MAX_ATTEMPTS, (delivery.channel, delivery.last_error)
            assert len(attempts) <= settings.WEBHOOK_MAX_ATTEMPTS and not any(a.ok for a in attempts)
        errors = " ".join(hostile.values_list("last_error", flat=True))
        assert "deadline" in errors and "HTTP 302" in errors and "refused" in errors.lower(), errors
        assert stack.dead() == [], stack.logs()
        figures.record("20 hostile receivers, SMTP refusing", games + same,
                       note=f"{len(same)} of the games' clocks ran out in the same second")
    finally:
        stack.stop()
        tarpit.close()
