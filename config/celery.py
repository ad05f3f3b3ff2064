import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("darkroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze(**_kwargs) -> None:
    """Each worker process, once forked with the tasks loaded: the collector skips the start-up
    heap (config/gcfreeze.py)."""
    from config.gcfreeze import freeze_startup_heap

    freeze_startup_heap()
