"""The layers themselves are import-linter's contracts (pyproject.toml, `lint-imports` in `make
test`): nothing below the tasks imports them, the write path has no cycle, accounts imports nothing
of games, config no app. What is left here is what an import graph cannot show: work handed to the
worker goes by name, and every name it uses (and beat's, and tasks already queued) is a task."""

from django.conf import settings

# The names queued tasks and beat's schedule carry: they must keep meaning the same task whatever
# module the task's code sits in (each task names itself explicitly).
QUEUED_NAMES = {
    "games.tasks.settle_due",
    "games.tasks.wake_game",
    "games.tasks.sweep",
    "games.tasks.deliver_webhook",
    "games.tasks.deliver_email",
    "accounts.tasks.mail_password_reset",
    "games.tasks.tournament_games_finished",
    "games.tasks.tournaments_due",
}


def test_scheduling_sends_tasks_by_name_and_every_name_is_a_task():
    from accounts import services as account_services
    from config.celery import app
    from games.play import scheduling

    app.loader.import_default_modules()  # what a worker does at start: the apps' tasks modules
    names = {
        scheduling.SETTLE_DUE,
        scheduling.DELIVER_EMAIL,
        scheduling.DELIVER_WEBHOOK,
        scheduling.TOURNAMENT_GAMES_FINISHED,
        account_services.RESET_MAIL_TASK,
    }
    assert names <= set(app.tasks)


def test_every_name_queued_or_scheduled_by_beat_is_a_task():
    from config.celery import app

    app.loader.import_default_modules()  # what a worker does at start: the apps' tasks modules
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert beat <= QUEUED_NAMES
    assert QUEUED_NAMES <= set(app.tasks)
