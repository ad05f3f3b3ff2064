"""Push services that take every notification and never answer: tests/faults/scenario.py.
The players' pushes go to a browser's push service (the tarpit's hanging receiver) or, once more,
to their iPhones' APNs (an HTTP/2 stand-in behind a CA of the test's, told to hang), and the push
queue's worker waits on them, its deadline set beyond the length of the games (a browser's push
service is cut sooner, after TIMEOUT_SECONDS of silence, as a webhook receiver is). The Procfile's
worker, push and beat lines run them: every clock fires all the same, once, while the pushes
hang, and no push is counted sent."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Callable

import pytest
import trustme

from accounts import webhooks
from games.models import Delivery, DeliveryAttempt, Event
from tests.faults import figures
from tests.faults.scenario import (
    MARKS,
    SCALE,
    all_over,
    assert_written_once,
    clocked_duels,
)
from tests.faults.stack.procfile import Stack, stack_env
from tests.faults.stack.receivers import Tarpit
from tests.games.test_push import VAPID, subscribe
from tests.games.push_mobile.standins import apns_service, register
from tests.worker import wait_for

pytestmark = MARKS
# Longer than the games last (twelve one-second clocks), so a phone's first push still holds the
# push worker when the last clock runs out; within the push task's 30 s soft limit.
DEADLINE = 25


@dataclass
class Hanging:
    name: str
    enrol: Callable  # gives a player a browser or phone that this service pushes to
    env: dict[str, str]  # what points the stack's processes at it
    taken: Callable[[], int]  # the notifications it has taken (and never answered)
    held: float  # how long an attempt waits on its silence before it is cut


@pytest.fixture(params=["web_push", "apns"])
def hanging(request, tmp_path):
    if request.param == "web_push":
        tarpit = Tarpit(1)  # the first of its modes: hang
        # An endpoint of its own for each browser (the tarpit hangs on any path).
        yield Hanging(
            request.param,
            lambda player: subscribe(player, f"{tarpit.urls[0]}/{secrets.token_hex(8)}"),
            dict(VAPID),
            lambda: len(tarpit.conns),
            min(DEADLINE, webhooks.TIMEOUT_SECONDS),
        )
        tarpit.close()
    else:
        ca = trustme.CA()
        ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
        apns, env = apns_service(ca, tmp_path)
        apns.hang = True
        yield Hanging(
            request.param,
            lambda player: register(player, "apns", secrets.token_hex(32)),
            {**env, "PUSH_CA_FILE": str(tmp_path / "ca.pem")},
            lambda: len(apns.received),
            DEADLINE,
        )
        apns.close()


def test_a_hanging_push_service_delays_no_clock(make_player, hanging):
    def enrolled():
        player = make_player()
        hanging.enrol(player)
        return player

    stack = Stack(stack_env(PUSH_DEADLINE_SECONDS=str(DEADLINE), **hanging.env), outbound=False, push=True)
    try:
        _, games = clocked_duels(enrolled, 2 * SCALE)
        stack.start()
        assert wait_for(lambda: all_over(games), timeout=120), stack.logs()
        assert_written_once(games)
        assert hanging.taken() >= 1, stack.logs()  # the push worker reached the service, and waits there
        pushes = Delivery.objects.filter(channel="push", notification__game_id__in=games)
        cut = DeliveryAttempt.objects.filter(delivery__in=pushes)
        assert wait_for(lambda: cut.exists(), timeout=DEADLINE + 60), stack.logs()
        assert not cut.filter(ok=True).exists()
        # Each attempt failed, and only once cut: the service never answered.
        attempts = list(cut.values_list("error", "duration_ms"))
        assert all(error and ms >= (hanging.held - 1) * 1000 for error, ms in attempts), attempts
        # Clocks ran out while a push hung: between an attempt's start and its cut.
        first = cut.order_by("at").first()
        hung = (first.at, first.at + timedelta(milliseconds=first.duration_ms))
        assert Event.objects.filter(game_id__in=games, type="TimerExpired", created_at__range=hung).exists()
        assert not pushes.filter(status=Delivery.Status.SENT).exists()
        assert stack.dead() == [], stack.logs()
        figures.record(
            f"{hanging.name.replace('_', ' ')} hanging",
            games,
            note=f"each push held the push worker {hanging.held:g} s",
            targets={figures.LATENESS_P99: 1},
        )
    finally:
        stack.stop()
