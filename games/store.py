"""The event store: the only writer of events, and the only place state is rebuilt.

State after event N = the events 1..N folded through the engine (`evolve`). Loading does not replay
from event 1 on every request: it starts from the latest snapshot (written every
settings.SNAPSHOT_EVERY events, in the append's transaction) or a cache entry keyed by game and
version, and replays only the tail. `replay_from_scratch` ignores both; tests hold them equal.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction

from games import live
from games.engines.base import Engine, State
from games.errors import VersionConflict
from games.kinds import get_engine
from games.models import Event, Game, Snapshot

# Event types the server itself writes (engines name the rest, one per move).
GAME_CREATED = "GameCreated"
PLAYER_JOINED = "PlayerJoined"
PLAYER_LEFT = "PlayerLeft"
GAME_STARTED = "GameStarted"
GAME_FINISHED = "GameFinished"
GAME_CANCELLED = "GameCancelled"
TIMER_EXPIRED = "TimerExpired"
SEAT_FORFEITED = "SeatForfeited"
GAME_ROLLED_BACK = "GameRolledBack"
DISPUTE_OPENED = "DisputeOpened"
DISPUTE_RESOLVED = "DisputeResolved"
SERVER_TYPES = {GAME_CREATED, PLAYER_JOINED, PLAYER_LEFT, GAME_STARTED, GAME_FINISHED, GAME_CANCELLED,
                TIMER_EXPIRED, SEAT_FORFEITED, GAME_ROLLED_BACK, DISPUTE_OPENED, DISPUTE_RESOLVED}


@dataclass
class NewEvent:
    type: str
    data: dict[str, Any]
    actor: int | None = None
    user_id: int | None = None
    idempotency_key: str | None = None
    request_hash: str = ""


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def append(game: Game, expected_version: int, events: Iterable[NewEvent], at: datetime,
           state: State | None = None, **projection: Any) -> list[Event]:
    """Append `events` after `expected_version`, or raise VersionConflict and write nothing.

    The caller holds the game row locked (select_for_update) in the same transaction; the unique
    (game, seq) constraint is the backstop should anyone append without the lock. `state` is the
    engine state after these events, to snapshot and cache; `projection` are Game columns to set.
    """
    if game.version != expected_version:
        raise VersionConflict(game.version)
    rows = [
        Event(game=game, seq=expected_version + i, type=e.type, actor=e.actor, data=e.data,
              created_at=at, idempotency_key=e.idempotency_key, request_hash=e.request_hash,
              user_id=e.user_id)
        for i, e in enumerate(events, start=1)
    ]
    try:
        with transaction.atomic():
            Event.objects.bulk_create(rows)
    except IntegrityError:
        current = Game.objects.values_list("version", flat=True).get(pk=game.pk)
        raise VersionConflict(current) from None
    game.version = expected_version + len(rows)
    for name, value in projection.items():
        setattr(game, name, value)
    game.save(update_fields=["version", *projection])
    live.announce(game.pk, game.version, users=[r.user_id for r in rows])
    if state is not None:
        if game.version // settings.SNAPSHOT_EVERY > expected_version // settings.SNAPSHOT_EVERY:
            Snapshot.objects.create(game=game, version=game.version, state=state)
        key, value = _cache_key(game.pk, game.version), json.dumps(state)
        transaction.on_commit(lambda: cache.set(key, value, 3600))
    return rows


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------
def _cache_key(game_id, version: int) -> str:
    return f"state:{game_id}:{version}"


def evolve(engine: Engine, state: State | None, event: Event, game: Game) -> State | None:
    """One event's effect on the engine state."""
    if event.type == GAME_STARTED:
        seed = Event.objects.get(game=game, seq=1).data["seed"]
        return engine.setup(len(event.data["players"]), event.data["options"], seed)
    if event.type == SEAT_FORFEITED:
        return engine.forfeit(state, event.data["seat"])
    if event.type == GAME_ROLLED_BACK:
        return state_at(game, event.data["to"])
    if event.type not in SERVER_TYPES:  # an engine's event: a move, by a seat or the system
        return engine.apply(state, event.actor, event.data["move"], event.created_at)
    return state


def state_at(game: Game, version: int | None = None, *, use_snapshots: bool = True) -> State | None:
    """The engine state after event `version` (default: the latest); None before the start."""
    version = game.version if version is None else version
    engine = get_engine(game.kind)
    state, start = None, 0
    if use_snapshots:
        cached = cache.get(_cache_key(game.pk, version))
        if cached is not None:
            return json.loads(cached)
        snap = (Snapshot.objects.filter(game=game, version__lte=version)
                .order_by("-version").only("version", "state").first())
        if snap is not None:
            state, start = snap.state, snap.version
    for event in Event.objects.filter(game=game, seq__gt=start, seq__lte=version).order_by("seq"):
        state = evolve(engine, state, event, game)
    return state


def replay_from_scratch(game: Game, version: int | None = None) -> State | None:
    return state_at(game, version, use_snapshots=False)


def events(game: Game, after: int = 0, limit: int | None = None):
    qs = Event.objects.filter(game=game, seq__gt=after).order_by("seq")
    return qs[:limit] if limit else qs
