"""Timers and deliveries with a real Celery worker on the real Redis broker."""

import time

import pytest

from games.models import Delivery, Event
from tests.conftest import start_game
from tests.games.test_webhooks import Receiver
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture
def worker():
    purge_queue()
    w = Worker().start()
    yield w
    w.stop()
    purge_queue()


def expiries(game_id):
    return Event.objects.filter(game_id=game_id, type="TimerExpired").count()


def expired_deadlines(game_id):
    return [
        (e.data["seat"], e.data["deadline"])
        for e in Event.objects.filter(game_id=game_id, type="TimerExpired").order_by("seq")
    ]


def test_a_two_second_move_times_out_with_no_request_while_a_worker_runs(alice, bob, worker):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 2})
    # >= 1: on a loaded machine bob's own 2 s may run out too before the first poll sees alice's.
    assert wait_for(lambda: expiries(game_id) >= 1, timeout=30), worker.output()[-3000:]
    expired = Event.objects.filter(game_id=game_id, type="TimerExpired").order_by("seq").first()
    assert expired.data["seat"] == 0
    auto = Event.objects.get(game_id=game_id, seq=expired.seq + 1)
    assert auto.actor == 0 and auto.data["auto"] is True


def test_a_timeout_missed_while_the_worker_was_down_is_swept_once_it_is_back(alice, bob):
    purge_queue()
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 2})
    purge_queue()  # the scheduled task is lost with the broker's queue
    time.sleep(3)  # the deadline passes while no worker runs
    assert expiries(game_id) == 0
    worker = Worker().start()
    try:
        assert wait_for(lambda: expiries(game_id) >= 1, timeout=30), worker.output()[-3000:]
        time.sleep(3)  # several more sweeps (bob's own 2 s may run out meanwhile: his is another deadline)
        expired = expired_deadlines(game_id)
        assert expired[0][0] == 0
        assert len(expired) == len(set(expired)), "a deadline expired twice"
    finally:
        worker.stop()
        purge_queue()


@pytest.fixture
def webhook_receiver(request):
    """A local endpoint answering with the test's status, registered as bob's webhook."""
    receiver = Receiver(status=request.param)
    yield receiver
    receiver.close()


def give_bob_a_turn_notice(alice, bob, receiver):
    bob.post("/api/v1/accounts/webhooks/", {"url": receiver.url})
    game_id = start_game(alice, [bob])
    alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]})
    return Delivery.objects.get(channel="webhook")


@pytest.mark.parametrize("webhook_receiver", [503], indirect=True)
def test_a_failing_webhook_is_retried_by_the_worker_then_marked_failed(alice, bob, worker, webhook_receiver):
    delivery = give_bob_a_turn_notice(alice, bob, webhook_receiver)
    assert wait_for(lambda: Delivery.objects.get(pk=delivery.pk).status == "failed", timeout=30), worker.output()[
        -3000:
    ]
    assert len(webhook_receiver.requests) == 3
    assert [a.status_code for a in delivery.attempt_log.all()] == [503, 503, 503]


@pytest.mark.parametrize("webhook_receiver", [204], indirect=True)
def test_a_webhook_is_delivered_by_the_worker_after_commit(alice, bob, worker, webhook_receiver):
    delivery = give_bob_a_turn_notice(alice, bob, webhook_receiver)
    # The worker records "sent" after the receiver has answered: wait for the state, not the request.
    assert wait_for(lambda: Delivery.objects.get(pk=delivery.pk).status == "sent", timeout=60), worker.output()[-3000:]
    assert len(webhook_receiver.requests) == 1
