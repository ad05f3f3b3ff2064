"""What this test run has put on its own Celery queue (the real broker, read without a worker)."""

from __future__ import annotations

import base64
import json
from datetime import datetime

import pytest
from django.conf import settings


def queued() -> list[tuple[str, list, datetime | None]]:
    """The tasks waiting on this run's queues (timers' and outside parties'), as (task name,
    args, eta), sorted; the queues are emptied."""
    from config.celery import app

    raw = []
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        for spec in settings.TASK_QUEUES.values():
            raw += client.lrange(spec["queue"], 0, -1)
            client.delete(spec["queue"])
    tasks = []
    for item in raw:
        message = json.loads(item)
        args = json.loads(base64.b64decode(message["body"]))[0]
        eta = message["headers"]["eta"]
        tasks.append((message["headers"]["task"], args, eta and datetime.fromisoformat(eta)))
    return sorted(tasks, key=repr)


@pytest.fixture
def queue():
    """The run's own queue, empty before and after the test; yields `queued` to read it."""
    from tests.worker import purge_queue

    purge_queue()
    yield queued
    purge_queue()
