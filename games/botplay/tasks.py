"""The bots' Celery task, routed to settings.BOTS_QUEUE (its own worker process: Procfile)."""
from __future__ import annotations

from celery import shared_task

from . import service


@shared_task(ignore_result=True)
def play_bot_turn(game_id: str, seat: int, version: int) -> str:
    return service.play_turn(game_id, seat, version)
