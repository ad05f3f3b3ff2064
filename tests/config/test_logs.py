"""Structured logs: JSON lines carrying the request id, which follows the request into the
Celery tasks it caused (a real worker)."""

import json
import logging

import pytest

from config import logs
from tests.games.test_webhooks import Receiver, register
from tests.worker import Worker, purge_queue, wait_for


def test_a_given_request_id_is_echoed_and_a_missing_one_is_made(alice, duel):
    given = alice.client.get(f"/api/v1/games/{duel}/", HTTP_X_REQUEST_ID="client-abc.123")
    assert given["X-Request-ID"] == "client-abc.123"
    made = alice.client.get(f"/api/v1/games/{duel}/")
    assert len(made["X-Request-ID"]) == 32 and made["X-Request-ID"] != given["X-Request-ID"]


@pytest.mark.parametrize("bad", ["", "x" * 129, "with space", "new\nline", "<script>"])
def test_an_unsafe_request_id_is_replaced(alice, duel, bad):
    response = alice.client.get(f"/api/v1/games/{duel}/", HTTP_X_REQUEST_ID=bad)
    assert response["X-Request-ID"] != bad and logs.SANE_ID.match(response["X-Request-ID"])


def test_each_request_writes_one_json_access_line_with_its_id(alice, duel, caplog):
    handler = logging.StreamHandler()
    handler.addFilter(logs.RequestIdFilter())
    handler.setFormatter(logs.JsonFormatter())
    lines = []
    handler.emit = lambda record: lines.append(handler.format(record))
    logging.getLogger("darkroom.access").addHandler(handler)
    try:
        alice.client.get(f"/api/v1/games/{duel}/", HTTP_X_REQUEST_ID="trace-1")
    finally:
        logging.getLogger("darkroom.access").removeHandler(handler)
    parsed = [json.loads(line) for line in lines]
    assert len(parsed) == 1
    line = parsed[0]
    assert line["request_id"] == "trace-1" and line["status"] == 200 and line["method"] == "GET"
    assert line["route"] == "api/v1/games/<text:game_id>/" and line["level"] == "INFO"
    assert isinstance(line["duration_ms"], float) and line["ts"].endswith("+00:00")


def test_the_formatter_writes_exceptions_and_extras_as_json():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.getLogger("x").makeRecord(
            "x",
            logging.ERROR,
            __file__,
            1,
            "failed %s",
            ("it",),
            exc_info=__import__("sys").exc_info(),
            extra={"game": "g1"},
        )
    line = json.loads(logs.JsonFormatter().format(record))
    assert line["message"] == "failed it" and line["game"] == "g1" and "ValueError: boom" in line["exc"]
    assert line["request_id"] is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_the_request_id_reaches_the_celery_task_the_request_caused(alice, bob):
    from tests.conftest import start_game

    purge_queue()
    receiver = Receiver()
    worker = Worker().start()
    try:
        register(bob, receiver.url)
        game_id = start_game(alice, [bob])
        card = alice.game(game_id)["state"]["hand"][0]
        response = alice.client.post(
            f"/api/v1/games/{game_id}/moves/",
            {"move": {"type": "play", "card": card}, "expected_version": 4},
            format="json",
            HTTP_X_REQUEST_ID="move-req-42",
        )
        assert response.status_code == 201, response.content
        assert wait_for(lambda: receiver.requests, timeout=30), worker.output()[-3000:]

        def task_lines():
            out = []
            for raw in worker.output().splitlines():
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                if line.get("logger") == "darkroom.tasks":
                    out.append(line)
            return out

        ours = wait_for(lambda: [line for line in task_lines() if line["request_id"] == "move-req-42"], 10)
        assert [line["task"] for line in ours] == ["games.tasks.deliver_webhook"], worker.output()[-3000:]
        # A task no request caused (the beat's sweeper) carries no request id.
        assert wait_for(lambda: [line for line in task_lines() if line["task"] == "games.tasks.sweep"], 15)
        assert all(line["request_id"] is None for line in task_lines() if line["task"] == "games.tasks.sweep")
    finally:
        worker.stop()
        receiver.close()
        purge_queue()
