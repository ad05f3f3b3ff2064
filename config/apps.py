from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """Wires the operational hooks (request ids through Celery) in every process that loads Django:
    web servers, Celery workers and beat. What the games count is wired by GamesConfig."""

    name = "config"
    label = "operations"

    def ready(self):
        from config import logs, redis  # noqa: F401  (redis: its system check registers on import)

        logs.connect_celery()
