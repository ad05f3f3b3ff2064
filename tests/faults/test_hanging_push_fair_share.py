"""Two players whose push endpoints all hang (twenty each, the limit), and a third whose push
service answers (docs/time-and-notifications.md, "Fair share"): on the Procfile's worker, push
and beat lines, every notice of the third is pushed, each in one attempt, while the others'
deliveries hang to their deadline again and again; and no delivery is ever attempted twice at
once (the sweeper never resends an attempt still running). `make chaos` prints how late the third
player's pushes went out (target p99 < 2 s); the suite asserts what happened, never how fast."""

from __future__ import annotations

import secrets
import time
from collections import defaultdict
from datetime import timedelta

from django.db import transaction

from accounts.models import NotificationPreference
from games.models import Delivery, DeliveryAttempt
from games.notifications import notify
from tests.faults import figures
from tests.faults.scenario import MARKS
from tests.faults.stack.procfile import Stack, stack_env
from tests.faults.stack.receivers import Tarpit
from tests.games.test_push import VAPID, PushService, subscribe
from tests.worker import wait_for

pytestmark = MARKS
ROUNDS = 12
PER_PLAYER = 20  # PUSH_MAX_PER_USER's default


def pushes_only(*players):
    for player in players:
        NotificationPreference.objects.update_or_create(user=player.user, defaults={"channels": {"finished": ["push"]}})


def attempts(delivery_ids) -> dict[int, list[tuple]]:
    """delivery -> its attempts, each (start, end): one DeliveryAttempt per target, grouped."""
    spans = defaultdict(dict)
    for delivery, at, ms in DeliveryAttempt.objects.filter(delivery_id__in=delivery_ids).values_list(
        "delivery_id", "at", "duration_ms"
    ):
        spans[delivery][at] = max(spans[delivery].get(at, at), at + timedelta(milliseconds=ms))
    return {d: sorted(s.items()) for d, s in spans.items()}


def test_hanging_endpoints_of_two_players_hold_up_no_one_elses_push(make_player):
    tarpit, service = Tarpit(1), PushService()  # the tarpit's first mode: hang
    hanging, other = [make_player(), make_player()], make_player()
    for player in hanging:
        for _ in range(PER_PLAYER):
            subscribe(player, f"{tarpit.urls[0]}/{secrets.token_hex(8)}")
    subscribe(other, service.endpoint("other"))
    pushes_only(*hanging, other)
    stack = Stack(stack_env(PUSH_DEADLINE_SECONDS="5", **VAPID), outbound=False, push=True)
    try:
        stack.start()
        for _ in range(ROUNDS):
            with transaction.atomic():
                notify.send([p.user.pk for p in hanging], None, "finished", {})
                notify.send([other.user.pk], None, "finished", {})
            time.sleep(1)
        theirs = Delivery.objects.filter(channel="push", notification__user=other.user)
        assert wait_for(lambda: theirs.filter(status=Delivery.Status.SENT).count() == ROUNDS, timeout=120), (
            stack.logs()[-5000:]
        )
        assert len(service.messages) == ROUNDS  # each pushed once
        # Let the hanging players' deliveries run their course a while (attempts, retries, sweeps).
        held = Delivery.objects.filter(channel="push", notification__user__in=[p.user for p in hanging])
        assert wait_for(
            lambda: DeliveryAttempt.objects.filter(delivery__in=held).count() >= 4 * PER_PLAYER, timeout=120
        ), stack.logs()[-5000:]
        time.sleep(15)
        spans = attempts(list(Delivery.objects.filter(channel="push").values_list("pk", flat=True)))
        for delivery, tries in spans.items():
            for (_, end), (start, _) in zip(tries, tries[1:]):
                assert start >= end, f"delivery {delivery} attempted again while an attempt ran: {tries}"
        counted = dict(Delivery.objects.filter(pk__in=spans).values_list("pk", "attempts"))
        assert all(counted[d] >= len(t) for d, t in spans.items()), (counted, spans)
        assert all(len(spans[d.pk]) == 1 for d in theirs), "the answering service's pushes took one attempt each"
        assert not held.filter(status=Delivery.Status.SENT).exists()
        late = [
            (spans[d.pk][0][1] - d.notification.created_at).total_seconds()
            for d in theirs.select_related("notification")
        ]
        line = figures.judged(
            f"push fair share: {len(hanging)} players with {PER_PLAYER} hanging endpoints each, "
            f"{ROUNDS} pushes to a third player sent after p50 {figures.percentile(late, 50):.2f} s, "
            f"p99 {figures.percentile(late, 99):.2f} s, max {max(late):.2f} s; "
            f"{sum(len(t) for t in spans.values())} attempts, none while another ran",
            figures.percentile(late, 99),
            2,
        )
        print(figures.report(line))
        assert stack.dead() == [], stack.logs()
    finally:
        stack.stop()
        tarpit.close()
        service.close()
