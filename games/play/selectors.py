"""Reads: what a caller may see of a game. Every view of state or log goes through here, and
everything here goes through the engine's `view` / `describe` for the caller's seat."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engines import base
from games.play import access
from games.play import store
from games.errors import GAME_STATUS, GameNotActive, Invalid, said, worded
from games.play.kinds import engine_of
from games.models import Event, Game, Seat

# What a server-written event shows; the seed in GameCreated stays secret until GameFinished.
PUBLIC_FIELDS = {
    store.GAME_CREATED: ("kind", "options", "seats", "seed_hash"),
}


def players(game: Game) -> list[dict[str, Any]]:
    """The seated players, each marked a bot (its level) or not, from the game's own options."""
    bots = {int(uid): level for uid, level in (game.options or {}).get("bots", {}).items()}
    return [{**p, "bot": bots.get(p["user"])} for p in _seated(game)]


def _seated(game: Game) -> list[dict[str, Any]]:
    # Through the relation when a list view's prefetch_related("seat_set__user") has read every
    # game's seats; one game alone reads its seats and usernames in one query, its SQL written
    # query.
    if "seat_set" in getattr(game, "_prefetched_objects_cache", {}):
        seated = sorted(game.seat_set.all(), key=lambda s: s.number)
        return [{"seat": s.number, "user": s.user_id, "username": s.user.username} for s in seated]
    table = getattr(game, "table", None)  # read with the game (access.get_game(..., table=True))
    if table is not None:
        return [
            {"seat": number, "user": user_id, "username": username}
            for number, (user_id, username) in sorted(table.seats.items())
        ]
    found = Seat.objects.filter(game_id=game.pk).order_by("number").values_list("number", "user_id", "user__username")
    return [{"seat": number, "user": user_id, "username": username} for number, user_id, username in found]


def summary(game: Game, seat: int | None) -> dict[str, Any]:
    engine = engine_of(game)
    finished = game.status == Game.Status.FINISHED
    return {
        "id": str(game.id),
        "kind": game.kind,
        "title": engine.title,
        "rules_version": game.rules_version,
        "status": game.status,
        "options": game.options,
        "seats": game.seats,
        "players": players(game),
        "creator": game.creator_id,
        "your_seat": seat,
        "version": game.version,
        "active_seats": game.active_seats,
        "your_turn": seat is not None and seat in (game.active_seats or []),
        "next_deadline": game.next_deadline,
        "clocks": game.clocks or None,
        "result": game.result,
        "rated": game.rated,
        "auto_start": game.auto_start,
        "seed_hash": game.seed_hash,
        "seed": Event.objects.get(game=game, seq=1).data["seed"] if finished else None,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "private": game.private,
        "join_code": game.join_code if seat is not None else None,
        "rematch_of": game.rematch_of_id,
    }


def detail(game: Game, user) -> dict[str, Any]:
    seat = access.seat_of(game, user)
    state = store.state_at(game)
    engine = engine_of(game)
    view = said(engine.view(state, seat)) if state is not None else None
    # The players bar's scores: the engine counts them from this caller's view alone, so they
    # tell no more than the view does (a blurred shot's number stays secret).
    standing = engine.standing(view) if view is not None else None
    return {**summary(game, seat), "state": view, "standing": standing}


def legal_moves(game: Game, user) -> dict[str, Any]:
    seat = access.require_player(game, user)
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(gettext("the game is %(status)s") % {"status": worded(GAME_STATUS, game.status)})
    engine = engine_of(game)
    state = store.started(store.state_at(game))
    moves = engine.legal_moves(state, seat) if seat in engine.active_players(state) else []
    return {"version": game.version, "seat": seat, "moves": moves}


def view_at(game: Game, user, at: Any) -> dict[str, Any]:
    if not isinstance(at, int) or not 0 <= at <= game.version:
        raise Invalid(gettext("at must be an event number from 0 to %(version)s") % {"version": game.version})
    seat = access.seat_of(game, user)
    state = store.state_at(game, at)
    engine = engine_of(game)
    shown = engine.view if at == game.version else engine.replay_view
    view = said(shown(state, seat)) if state is not None else None
    return {"version": at, "your_seat": seat, "state": view}


def last_write_at(game: Game):
    return Event.objects.filter(game=game).order_by("-seq").values_list("created_at", flat=True).first()


def users_named(event: Event) -> set[int]:
    """The users a server event names (PlayerJoined, PlayerLeft: `user`; GameStarted: `players`)."""
    data = event.data if event.type in store.SERVER_TYPES else {}
    named = {data["user"]} if isinstance(data.get("user"), int) else set()
    return named | {p["user"] for p in data.get("players") or () if isinstance(p, dict) and "user" in p}


def names_of(user_ids) -> dict[int, str]:
    """Usernames as they are now: an event names a user by id, and the name shown is read from
    the account (a deleted one reads deleted-N, old events included; docs/accounts.md)."""
    from accounts.models import User

    ids = set(user_ids)
    return dict(User.objects.filter(pk__in=ids).values_list("pk", "username")) if ids else {}


def _named(data: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    if isinstance(data.get("user"), int):
        data["username"] = names.get(data["user"], f"deleted-{data['user']}")
    if isinstance(data.get("players"), list):
        data["players"] = [
            {**p, "username": names.get(p["user"], f"deleted-{p['user']}")}
            if isinstance(p, dict) and "user" in p
            else p
            for p in data["players"]
        ]
    return data


def describe(
    game: Game, event: Event, seat: int | None, last_at: Any = None, names: dict[int, str] | None = None
) -> dict[str, Any]:
    """One log entry for `seat`. The events of the game's latest write (one append, one
    timestamp: `last_at`, looked up if not given) are `fresh` to the engine: nothing has happened
    since, so what the table shows only for a moment may still be shown. The users it names are
    named from `names` (looked up if not given)."""
    base = {"seq": event.seq, "type": event.type, "actor": event.actor, "created_at": event.created_at}
    if event.type in store.SERVER_TYPES:
        fields = PUBLIC_FIELDS.get(event.type)
        data = {k: event.data[k] for k in fields if k in event.data} if fields else dict(event.data)
        named = users_named(event)
        if named:
            data = _named(data, names if names is not None else names_of(named))
        return {**base, "data": data}
    engine = engine_of(game)
    last_at = last_write_at(game) if last_at is None else last_at
    shown = said(
        engine.describe(
            {
                "seq": event.seq,
                "type": event.type,
                "actor": event.actor,
                "data": event.data,
                "fresh": event.created_at == last_at,
            },
            seat,
        )
    )
    return {**shown, **base, "auto": bool(event.data.get("auto"))}


def log(game: Game, user, after: int = 0, limit: int = 200) -> dict[str, Any]:
    seat = access.seat_of(game, user)
    # Nothing is after the game's version: a caller who is up to date (a long-poll) reads no rows.
    rows = store.events_read(game, after, limit) if game.version > after else []
    last_at = rows[-1].created_at if rows and rows[-1].seq == game.version else last_write_at(game) if rows else None
    names = names_of(set().union(*(users_named(e) for e in rows))) if rows else {}
    return {
        "version": game.version,
        "your_seat": seat,
        "events": [describe(game, e, seat, last_at, names) for e in rows],
    }


def reveals_after(game: Game, engine: base.Engine, target: int) -> int | None:
    """The first event after `target` that showed someone hidden information (None: none did).
    Replaying from `target` would replay a phase whose secrets were seen, so such rollbacks are
    refused; voided events count too, since what they showed was seen all the same."""
    for event in Event.objects.filter(game=game, seq__gt=target).order_by("seq"):
        if event.type in store.SERVER_TYPES:
            continue
        if engine.reveals({"seq": event.seq, "type": event.type, "actor": event.actor, "data": event.data}):
            return event.seq
    return None


def rollback_refusal(game: Game, engine: base.Engine, seq: int) -> str | None:
    """Why the game cannot be rolled back to just before event `seq` (None: it can). Asked before
    a reviewer decides, so the decision screen offers a rollback only when one would succeed, and
    again under the game's lock when they do."""
    target = seq - 1
    started = Event.objects.filter(game=game, type=store.GAME_STARTED).values_list("seq", flat=True).first()
    if started is None or target < started:
        return gettext("only moves after the start can be rolled back")
    if Event.objects.filter(game=game, type=store.GAME_FINISHED).exists():
        # The seed is public once the game is over: replaying from a rollback would be played
        # with every hidden card known to everyone. Uphold without rolling back instead.
        return gettext("the game is over and its seed published; it cannot be rolled back")
    revealed = reveals_after(game, engine, target)
    if revealed == seq:
        return gettext(
            "the disputed event %(seq)s itself showed the players hidden information (in "
            "%(title)s, the log counts it as a reveal: docs/operations.md lists what does), "
            "so it cannot be played again unseen and the game cannot be rolled back; uphold "
            "without rolling back instead"
        ) % {"seq": seq, "title": engine.title}
    if revealed is not None:
        return gettext(
            "event %(revealed)s revealed hidden information after event %(target)s: the players "
            "have seen it, so the game cannot be rolled back past it; uphold without rolling back "
            "instead"
        ) % {"revealed": revealed, "target": target}
    return None
