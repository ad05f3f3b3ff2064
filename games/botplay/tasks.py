"""The bots' Celery task, routed to settings.BOTS_QUEUE (its own worker process: Procfile)."""
from __future__ import annotations

from celery import shared_task

from . import service


@shared_task(ignore_result=True)
def play_bot_turn(game_id: str, seat: int, version: int) -> str:
    return service.play_turn(game_id, seat, version)


@shared_task(ignore_result=True)
def fill_seats_with_bots(game_id: str, level: int) -> str:
    return service.fill_seats(game_id, level)
