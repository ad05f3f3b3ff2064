"""A crash after commit loses nothing: a delivery whose task never reached a worker (the broker's
queue was lost) is sent by the sweeper of the next worker that runs."""

import pytest

from games.models import Delivery
from tests.games.test_webhooks import Receiver, bob_gets_a_turn, register
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_a_pending_delivery_whose_task_was_lost_is_sent_by_the_sweeper(alice, bob, duel):
    receiver = Receiver()
    try:
        register(bob, receiver.url)
        purge_queue()
        delivery = bob_gets_a_turn(alice, duel)
        purge_queue()  # the task enqueued after commit is gone, as after a broker crash
        assert Delivery.objects.get(pk=delivery.pk).status == "pending"
        worker = Worker().start()
        try:
            assert wait_for(lambda: Delivery.objects.get(pk=delivery.pk).status == "sent", timeout=60), worker.output()[
                -3000:
            ]
        finally:
            worker.stop()
        assert len(receiver.requests) == 1
    finally:
        receiver.close()
        purge_queue()
