"""Dispute review for staff (the admin only): two moments of a game, each as the full state and as
every seat's and a spectator's view, so the web client's own tables can draw it and the page can
show what changed. Staff see everything; nothing here is reachable without the admin's login."""
from __future__ import annotations

from typing import Any

from games.play import selectors, store
from games.play.kinds import engine_of
from games.models import Event, Game


def moment(game: Game, seq: int) -> dict[str, Any]:
    """The state after event `seq`, replayed from the log (not a snapshot: what the log proves)."""
    state = store.replay_from_scratch(game, seq)
    engine = engine_of(game)
    seats = [p["seat"] for p in selectors.players(game)]
    views = None
    if state is not None:
        views = {"spectator": engine.view(state, None), "seats": {str(s): engine.view(state, s) for s in seats}}
    return {"seq": seq, "state": state, "views": views}


def review(game: Game, since: int, at: int) -> dict[str, Any]:
    """What the review page draws: the game, both moments, and the events between them."""
    events = Event.objects.filter(game=game, seq__gt=min(since, at), seq__lte=max(since, at)).order_by("seq")
    return {
        "game": {"id": str(game.id), "kind": game.kind, "title": engine_of(game).title,
                 "status": game.status, "version": game.version, "players": selectors.players(game),
                 "options": game.options},
        "since": moment(game, since),
        "at": moment(game, at),
        "events": [{"seq": e.seq, "type": e.type, "actor": e.actor, "created_at": e.created_at.isoformat(),
                    "data": e.data} for e in events],
    }
