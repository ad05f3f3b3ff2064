"""The projection rebuilt from the events alone: what the Game row's columns should say, checked
against the row by the tests and by `manage.py verify_games` (games.play.audit)."""

from __future__ import annotations

from typing import Any

from games.models import Event, Game
from games.play import store
from games.play.kinds import engine_of


def rebuild_projection(game: Game) -> dict[str, Any]:
    """The Game columns as the events alone say they should be (checked against the row in tests
    and by `manage.py verify_games`)."""
    engine = engine_of(game)
    types = list(Event.objects.filter(game=game).values_list("type", flat=True))
    finished = Event.objects.filter(game=game, type=store.GAME_FINISHED).order_by("-seq").first()
    rolled = Event.objects.filter(game=game, type=store.GAME_ROLLED_BACK).order_by("-seq").first()
    state = store.replay_from_scratch(game)
    aborted = Event.objects.filter(game=game, type=store.GAME_ABORTED).first()
    if store.GAME_CANCELLED in types:
        status = Game.Status.CANCELLED
    elif aborted is not None:
        status = Game.Status.ABORTED
    elif finished and not (rolled and rolled.seq > finished.seq):
        status = Game.Status.FINISHED
    elif store.GAME_STARTED in types:
        status = Game.Status.ACTIVE
    else:
        status = Game.Status.OPEN
    outcome = engine.outcome(state) if state is not None else None
    if aborted is not None:
        return {"version": len(types), "status": status, "active_seats": [], "result": aborted.data["result"]}
    if finished is not None and "settled" in finished.data["result"]:
        # Staff stated this result (games.community.tournament_staff): no move of the game made it.
        return {"version": len(types), "status": status, "active_seats": [], "result": finished.data["result"]}
    if outcome is not None and finished is not None and "rating_changes" in finished.data["result"]:
        outcome = {**outcome, "rating_changes": finished.data["result"]["rating_changes"]}
    return {
        "version": len(types),
        "status": status,
        "active_seats": sorted(engine.active_players(state)) if state is not None and outcome is None else [],
        "result": outcome,
    }
