"""The outbound worker SIGKILLed during a webhook delivery: tests/faults/scenario.py."""

from __future__ import annotations

from games.models import Delivery
from tests.faults.scenario import (
    MARKS,
    SCALE,
    all_over,
    assert_webhooks_once,
    assert_written_once,
    clocked_duels,
    deliveries_settled,
)
from tests.faults.stack.procfile import Stack, stack_env
from tests.faults.stack.receivers import CountingReceiver
from tests.worker import wait_for

pytestmark = MARKS


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
        assert_written_once(games)
        assert_webhooks_once(receiver, host.user)
        assert Delivery.objects.filter(notification__user=host.user, status=Delivery.Status.FAILED).count() == 0
        assert any(n > 1 for n in receiver.received.values())  # the held one came again
    finally:
        stack.stop()
        receiver.close()
