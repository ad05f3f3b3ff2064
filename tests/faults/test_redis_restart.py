"""Redis restarted during clocked play (a private redis-server): tests/faults/scenario.py."""

from __future__ import annotations

import time

import httpx
from django.utils import timezone

from accounts.models import User
from games.models import Event
from tests.faults import figures
from tests.faults.scenario import (
    MARKS,
    PLAYS,
    SCALE,
    HttpPlayer,
    all_over,
    assert_webhooks_once,
    assert_written_once,
    deliveries_settled,
    http_duel,
)
from tests.faults.stack.procfile import Stack, stack_env, wait_quietly
from tests.faults.stack.receivers import CountingReceiver
from tests.live_server import PrivateRedis, Server, token_remembered
from tests.worker import wait_for
from tests.loopback import TLS

pytestmark = MARKS


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
        assert wait_for(
            lambda: Event.objects.filter(game_id__in=games, type="TimerExpired").count() >= len(games), timeout=60
        ), stack.logs()
        redis.command("SHUTDOWN", "NOSAVE")
        assert wait_for(lambda: not redis.ping(), timeout=10)
        redis.process.wait(10)
        wait_quietly(4 * SCALE)
        back = timezone.now()
        redis.start()
        assert wait_for(lambda: all_over(games), timeout=60 + 20 * SCALE), stack.logs()
        assert stack.dead() == [], stack.logs()
        assert "Unrecoverable error" not in stack.logs()
        assert (
            server.process.poll() is None
            and httpx.get(f"{server.url}/api/v1/kinds/", timeout=10, verify=TLS).status_code == 200
        )
        assert_written_once(games)
        user = User.objects.get(username=host.client.get("/accounts/me/").json()["username"])
        assert wait_for(lambda: deliveries_settled(user), timeout=60), stack.logs()
        assert_webhooks_once(receiver, user)
        figures.record(
            "redis restart",
            games,
            after=back,
            clocks=PLAYS,
            targets={figures.CATCH_UP: 5, figures.LOST: 0, figures.DOUBLED: 0},
        )
    finally:
        server.stop()
        stack.stop()
        receiver.close()
        redis.stop()


def test_web_trusts_a_remembered_token_only_while_it_hears_revocations_across_a_redis_restart():
    """`web` (WSGI) remembers a token only while its workers hear revocations through Redis. With
    Redis away each request looks the token up (a token expired meanwhile is refused at once);
    with Redis back its workers subscribe again by themselves and hear the next revocation."""
    from datetime import timedelta

    from django.db import connection

    from accounts import tokens
    from accounts.models import AuthToken
    from games.realtime import channels
    from tests.bench.stack import procfile_command

    redis = PrivateRedis().start()
    server = Server(redis.url, command=["/bin/sh", "-c", f"exec {procfile_command('web')}"], WEB_CONCURRENCY="1")
    try:
        server.start()
        player = HttpPlayer(server, f"ann{time.monotonic_ns()}")
        key = player.client.headers["Authorization"].split()[1]
        mine = AuthToken.objects.filter(digest=tokens.digest(key))
        token = mine.get()
        expires = token.expires_at
        me = lambda: player.client.get("/accounts/me/").status_code  # noqa: E731 (one kept connection)
        remembered = lambda: token_remembered(me, token)  # noqa: E731

        assert wait_for(remembered, timeout=20), server.output()
        redis.command("SHUTDOWN", "NOSAVE")
        assert wait_for(lambda: not redis.ping(), timeout=10)
        mine.update(expires_at=timezone.now() - timedelta(seconds=1))
        assert wait_for(lambda: me() == 401, timeout=10), server.output()  # deaf: looked up
        mine.update(expires_at=expires)
        assert me() == 200
        redis.start()
        assert wait_for(remembered, timeout=30), server.output()  # subscribed again
        # A revocation no signal announces: the row goes, then the message every process hears.
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM accounts_authtoken WHERE digest = %s", [tokens.digest(key)])
        assert me() == 200  # still remembered: nobody has said so yet
        redis.command("PUBLISH", channels.revoked_channel(), "")
        assert wait_for(lambda: me() == 401, timeout=10), server.output()
    finally:
        server.stop()
        redis.stop()
