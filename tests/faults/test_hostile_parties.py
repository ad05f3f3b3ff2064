"""20 hostile webhook receivers and a mail server refusing connections: tests/faults/scenario.py."""

from __future__ import annotations

import os
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import NotificationPreference
from games.models import Delivery, Event, Game
from games.play import scheduling
from tests.conftest import start_game
from tests.faults import figures
from tests.faults.scenario import (
    CLOCKED,
    MARKS,
    PLAYS,
    SCALE,
    all_over,
    assert_written_once,
)
from tests.faults.stack.procfile import Stack, stack_env
from tests.faults.stack.receivers import Tarpit, closed_port
from tests.worker import wait_for

pytestmark = MARKS
# Games whose clocks run out in the same second while the receivers hang (`make chaos`: 200).
SAME_SECOND = int(os.environ.get("CHAOS_SAME_SECOND", 20 * SCALE))
# Seconds: the receivers' games' timer lateness, 99th percentile, must stay below this.
RECEIVERS_LATENESS_P99 = 2


def test_hostile_receivers_and_a_refusing_mail_server_delay_no_clock(make_player):
    """20 tarpit receivers (hanging, trickling, redirecting for ever, flooding 10 MB) and SMTP
    refusing every connection, while clocks run out, many in the same second: every clock fires
    all the same, each attempt is cut at its deadline, retried with backoff and then marked failed
    (never more than WEBHOOK_MAX_ATTEMPTS attempts, never sent)."""
    tarpit = Tarpit(20)
    env = stack_env(
        TEST_WORKER_EMAIL_BACKEND="accounts.mail.SMTPBackend", EMAIL_HOST="127.0.0.1", EMAIL_PORT=str(closed_port())
    )
    stack = Stack(env)
    try:
        owners = []
        quiet = {kind: ["inbox"] for kind in NotificationPreference.TYPES}
        for url in tarpit.urls:  # each told of their turn by webhook and email at once, nothing else
            player = make_player()
            assert player.post("/api/v1/accounts/webhooks/", {"url": url}).status_code == 201
            answer = player.client.put(
                "/api/v1/accounts/preferences/",
                {"email_digest_minutes": 0, "channels": {**quiet, "your_turn": ["inbox", "email", "webhook"]}},
                format="json",
            )
            assert answer.status_code == 200, answer.content
            owners.append(player)
        # Games whose clocks all run out in the same second, as the outbound queue clogs.
        host, other = make_player(), make_player()
        same = [
            start_game(host, [other], options={"time_control": "per_move", "move_seconds": 3600})
            for _ in range(SAME_SECOND)
        ]
        stack.start()
        # The receivers' own games, clocks running from now: their turn notices clog outbound.
        games = [start_game(owners[i], [owners[i + 1]], options=CLOCKED) for i in range(0, 20, 2)]
        # Every clock moved to the same second, far enough ahead that moving them all ends first.
        due = timezone.now() + timedelta(seconds=4 + 0.05 * len(same))
        for game in Game.objects.filter(pk__in=same):
            seats = {
                k: {**v, "since": (due - timedelta(seconds=v["left"])).isoformat()} if v["since"] else v
                for k, v in game.clocks["seats"].items()
            }
            Game.objects.filter(pk=game.pk).update(clocks={**game.clocks, "seats": seats}, next_deadline=due)
        moved = timezone.now()
        scheduling.wake([due])  # as the commit that set the deadline would
        assert wait_for(lambda: all_over(games), timeout=120), stack.logs()
        assert wait_for(
            lambda: Event.objects.filter(game_id__in=same, type="TimerExpired").count() >= len(same), timeout=60
        ), stack.logs()
        assert_written_once(games)
        assert_written_once(same, clocks=1)
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
        target = {figures.LATENESS_P99: 1}
        line = figures.record(
            "20 hostile receivers, SMTP refusing: the receivers' own games", games, clocks=PLAYS, targets=target
        )
        # Their deliveries hang for their whole deadline on queues of their own: the clocks of
        # the same players' games fire on time all the same (a bound far above the 1 s target,
        # as the machine is shared; a delivery on the timers' queue makes it seconds).
        late = figures.percentile(figures.lateness(games), 99)
        assert late < RECEIVERS_LATENESS_P99, f"the receivers' clocks waited behind their deliveries: {line}"
        figures.record(
            f"20 hostile receivers, SMTP refusing: {len(same)} games due in the same second",
            same,
            clocks=1,
            targets=target,
            note=f"their clocks were all moved {(due - moved).total_seconds():.1f} s before they ran out",
        )
    finally:
        stack.stop()
        tarpit.close()
