from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """Wires the operational hooks (metrics signals, request ids through Celery) in every process
    that loads Django: web servers, Celery workers and beat."""

    name = "config"
    label = "operations"

    def ready(self):
        from config import logs, metrics

        metrics.connect()
        logs.connect_celery()
