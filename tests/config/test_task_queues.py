"""The timers' queue runs the timers alone (docs/operations.md, "Processes, queues and
supervision"): a task that waits on someone outside (a webhook receiver, a mail server, a push
service) or thinks (a bot) goes to a queue of its own, so a hanging receiver or a long search never
delays a clock. Read from Celery's own router, as a worker would route them; no broker needed."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery import app

# With the clocks: the tournaments' rounds, which only write games (a round's next one when its
# last game ends, a tournament's start at its time), never waiting on anyone outside.
TIMERS = [
    "games.tasks.settle_due",
    "games.tasks.wake_game",
    "games.tasks.sweep",
    "games.tasks.tournament_games_finished",
    "games.tasks.tournaments_due",
]
# Each task that waits on the outside world, and the queue it belongs to.
OUTBOUND = {
    "games.tasks.deliver_webhook": "webhooks",
    "games.tasks.deliver_email": "email",
    "accounts.tasks.mail_password_reset": "email",
    "games.tasks.deliver_push": "push",
}
BOTS = {
    "games.tasks.play_bot_turn": "bots",
    "games.tasks.play_bot_turns": "bots",
    "games.tasks.fill_seats_with_bots": "bots",
}


def queue_of(task: str) -> str:
    return app.amqp.router.route({}, task)["queue"].name


@pytest.mark.parametrize("task", TIMERS)
def test_the_timers_run_on_the_timers_queue(task):
    assert queue_of(task) == settings.TASK_QUEUES["timers"]["queue"]


@pytest.mark.parametrize("task, kind", sorted({**OUTBOUND, **BOTS}.items()))
def test_every_task_that_waits_on_the_outside_or_thinks_runs_off_the_timers_queue(task, kind):
    assert queue_of(task) != settings.TASK_QUEUES["timers"]["queue"], f"{task} would delay the clocks"
    assert queue_of(task) == settings.TASK_QUEUES[kind]["queue"]


def test_the_queues_are_distinct_and_every_task_is_placed_here():
    queues = [spec["queue"] for spec in settings.TASK_QUEUES.values()]
    assert len(set(queues)) == len(queues), queues
    app.loader.import_default_modules()
    ours = {name for name in app.tasks if name.startswith(("games.", "accounts."))}
    # A new task must be placed: a timer, or a kind with a queue of its own.
    assert ours == {*TIMERS, *OUTBOUND, *BOTS}
