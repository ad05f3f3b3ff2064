"""Dispute review for staff (the admin only): two moments of a game, each as the full state and as
every seat's and a spectator's view, so the web client's own tables can draw it and the page can
show what changed. Staff see everything; nothing here is reachable without the admin's login."""

from __future__ import annotations

from typing import Any

from games.play import selectors, store
from games.play.kinds import engine_of
from games.models import Event, Game


SEED_HIDDEN = "(hidden while the game is on: needs the games.view_seed permission)"


def seed_hidden_from(game: Game, user) -> bool:
    """A game's seed computes every deal to come: until the game is over (when GameFinished
    publishes it) only staff with games.view_seed see it. Judging a dispute needs the state, not
    the future."""
    over = game.status in (Game.Status.FINISHED, Game.Status.CANCELLED, Game.Status.ABORTED)
    return not over and not user.has_perm("games.view_seed")


def without_seed(value: Any) -> Any:
    """`value` (an event's data, a state) with every seed in it replaced by a placeholder."""
    if isinstance(value, dict):
        return {k: SEED_HIDDEN if k in ("seed", "_seed") else without_seed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_seed(v) for v in value]
    return value


def by_whom(event: Event) -> str:
    """Who wrote an event, for staff: a seat and its player, a staff member by name (a decision),
    or the system (a timer, the game's own bookkeeping)."""
    user = event.user  # None, without a query, when the event has no user
    if event.actor is not None:
        return f"seat {event.actor}" + (f" ({user.username})" if user is not None else "")
    if user is not None:
        return f"staff ({user.username})" if user.is_staff else user.username
    return "the system"


def moment(game: Game, seq: int, hide_seed: bool = True) -> dict[str, Any]:
    """The state after event `seq`, replayed from the log (not a snapshot: what the log proves)."""
    state = store.replay_from_scratch(game, seq)
    engine = engine_of(game)
    seats = [p["seat"] for p in selectors.players(game)]
    views = None
    if state is not None:
        views = {"spectator": engine.view(state, None), "seats": {str(s): engine.view(state, s) for s in seats}}
    return {"seq": seq, "state": without_seed(state) if hide_seed else state, "views": views}


def review(game: Game, since: int, at: int, hide_seed: bool = True, seat: int | None = None) -> dict[str, Any]:
    """What the review page draws: the game, both moments, and the events between them; `seat`:
    the seat whose eyes it opens with (the disputed move's player)."""
    events = Event.objects.filter(game=game, seq__gt=min(since, at), seq__lte=max(since, at)).order_by("seq")
    shown = without_seed if hide_seed else (lambda value: value)
    return {
        "game": {
            "id": str(game.id),
            "kind": game.kind,
            "title": engine_of(game).title,
            "status": game.status,
            "version": game.version,
            "players": selectors.players(game),
            "options": game.options,
        },
        "seat": seat,
        "since": moment(game, since, hide_seed),
        "at": moment(game, at, hide_seed),
        "events": [
            {
                "seq": e.seq,
                "type": e.type,
                "actor": e.actor,
                "by": by_whom(e),
                "created_at": e.created_at.isoformat(timespec="seconds"),
                "data": shown(e.data),
            }
            for e in events.select_related("user")
        ],
    }
