"""The event store: the only writer of events, and the only place state is rebuilt.

State after event N = the events 1..N folded through the engine (`evolve`). Loading does not replay
from event 1 on every request: it starts from the latest snapshot (written every
settings.SNAPSHOT_EVERY events, in the append's transaction) or a cache entry keyed by game and
version, and replays only the tail. `replay_from_scratch` ignores both; tests hold them equal.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from config import jsoncodec
from config.metrics import EXPIRIES, EXPIRY_LATENESS, MOVES
from games.play import bulk, statecache
from games.realtime.news import news_messages, ride
from games.engines.base import Engine, State
from games.errors import GameNotActive, VersionConflict
from games.play.kinds import engine_of
from games.models import Event, Game, Snapshot

# Event types the server itself writes (engines name the rest, one per move).
GAME_CREATED = "GameCreated"
PLAYER_JOINED = "PlayerJoined"
PLAYER_LEFT = "PlayerLeft"
GAME_STARTED = "GameStarted"
GAME_FINISHED = "GameFinished"
GAME_CANCELLED = "GameCancelled"
GAME_ABORTED = "GameAborted"
TIMER_EXPIRED = "TimerExpired"
SEAT_FORFEITED = "SeatForfeited"
GAME_ROLLED_BACK = "GameRolledBack"
DISPUTE_OPENED = "DisputeOpened"
DISPUTE_RESOLVED = "DisputeResolved"
SERVER_TYPES = {
    GAME_CREATED,
    PLAYER_JOINED,
    PLAYER_LEFT,
    GAME_STARTED,
    GAME_FINISHED,
    GAME_CANCELLED,
    GAME_ABORTED,
    TIMER_EXPIRED,
    SEAT_FORFEITED,
    GAME_ROLLED_BACK,
    DISPUTE_OPENED,
    DISPUTE_RESOLVED,
}


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


EVENT_COLUMNS = ["game", "seq", "type", "actor", "data", "created_at", "idempotency_key", "request_hash", "user"]
EVENT_ATTNAMES = [name + "_id" if name in ("game", "user") else name for name in EVENT_COLUMNS]


@dataclass
class Append:
    """One game's share of a write: its events after `expected_version`, the engine state after
    them (to snapshot and cache; None if the caller has none) and the Game columns to set."""

    game: Game
    expected_version: int
    events: list[NewEvent]
    at: datetime
    state: State | None = None
    projection: dict[str, Any] = field(default_factory=dict)
    also: list[bulk.Part] = field(default_factory=list)  # other writes to make in the same statement


def append(
    game: Game,
    expected_version: int,
    events: Iterable[NewEvent],
    at: datetime,
    state: State | None = None,
    **projection: Any,
) -> list[Event]:
    """Append `events` after `expected_version`, or raise VersionConflict and write nothing.

    The caller holds the game row locked (select_for_update) in the same transaction; the unique
    (game, seq) constraint is the backstop should anyone append without the lock. `state` is the
    engine state after these events, to snapshot and cache; `projection` are Game columns to set.
    """
    return append_many([Append(game, expected_version, list(events), at, state, projection)])[0]


def append_many(batch: list[Append], messages: list[tuple[str, str]] | None = None) -> list[list[Event]]:
    """`append` for several games in one go (the sweeper expiring a batch of games): the events,
    the games and the snapshots due, in one statement. The games' news is added to `messages`,
    which goes to Redis after commit as it then stands: what the caller adds to it before the
    commit (the outbox's wake-ups) goes in the same pipeline."""
    for item in batch:
        if item.game.version != item.expected_version:
            raise VersionConflict(item.game.version)
    rows = [
        [
            Event(
                game_id=item.game.pk,
                seq=item.expected_version + i,
                type=e.type,
                actor=e.actor,
                data=e.data,
                created_at=item.at,
                idempotency_key=e.idempotency_key,
                request_hash=e.request_hash,
                user_id=e.user_id,
            )
            for i, e in enumerate(item.events, start=1)
        ]
        for item in batch
    ]
    version = batch[0].game.version  # what a clash reports
    events = bulk.insert_sql(
        Event, EVENT_COLUMNS, [[getattr(row, name) for name in EVENT_ATTNAMES] for group in rows for row in group]
    )
    # A write that brings no state but is due a snapshot replays its game from the events, which
    # must be in the table first; otherwise the events, the games and the snapshots go in one
    # statement (bulk.write).
    dues = [_snapshot_due(item, len(group)) for item, group in zip(batch, rows)]
    if any(item.state is None and due for item, due in zip(batch, dues)):
        _write_events(version, events)
        events = None
    fields: list[str] = ["version"]
    snapshots, cached, news = [], {}, []
    for item, group, due in zip(batch, rows, dues):
        game = item.game
        game.version = item.expected_version + len(group)
        for name, value in item.projection.items():
            setattr(game, name, value)
            if name not in fields:
                fields.append(name)
        news.append((game.pk, game.version, [r.user_id for r in group], ride(game, group)))
        if due:
            state = item.state if item.state is not None else _state_after(game)
            if state is not None:
                snapshots.append([game.pk, game.version, state, batch[0].at])
                cached[_cache_key(game.pk, game.version)] = jsoncodec.dumps(state)
        elif item.state is not None:
            cached[_cache_key(game.pk, game.version)] = jsoncodec.dumps(item.state)
    # One game or many, one statement (bulk.write).
    _write_events(
        version,
        events,
        *[part for item in batch for part in item.also],
        bulk.update_sql(Game, fields, [item.game for item in batch]),
        bulk.insert_sql(Snapshot, ["game", "version", "state", "created_at"], snapshots),
    )
    for item, group in zip(batch, rows):
        _count(item.game.kind, group)
    # Tell the games' readers after commit, with the states: one Redis pipeline for a move or a
    # whole sweeper batch, not one per game (a round trip each, about a millisecond per expired game).
    messages = [] if messages is None else messages
    messages += news_messages(news)
    statecache.put_after_commit(cached, messages)
    return rows


def _snapshot_due(item: Append, count: int) -> bool:
    return (item.expected_version + count) // settings.SNAPSHOT_EVERY > item.expected_version // settings.SNAPSHOT_EVERY


def _write_events(version: int, *parts) -> None:
    try:
        # No savepoint: under the row lock a clash cannot happen, and if it does (someone wrote
        # without the lock) the whole transaction is void anyway: the error rolls it back.
        bulk.write(*parts)
    except IntegrityError:
        raise VersionConflict(version) from None


def _state_after(game: Game) -> State | None:
    """The state at the game's (new) version, for a write that did not bring one (a dispute, a
    join): a snapshot is still due, or a long run of such events would all be replayed on load."""
    return state_at(game, game.version) if game.status != Game.Status.OPEN else None


# ---------------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------------
def _cache_key(game_id, version: int) -> str:
    return statecache.key(game_id, version)


def started(state: State | None) -> State:
    """The state of a game that has started (a game has none before its start): what a move, a
    forfeit or a view needs."""
    if state is None:
        raise GameNotActive("the game has not started")
    return state


def evolve(engine: Engine, state: State | None, event: Event, game: Game) -> State | None:
    """One event's effect on the engine state."""
    if event.type == GAME_STARTED:
        seed = Event.objects.get(game=game, seq=1).data["seed"]
        return engine.setup(len(event.data["players"]), event.data["options"], seed)
    if event.type == SEAT_FORFEITED:
        return engine.forfeit(started(state), event.data["seat"])
    if event.type == GAME_ROLLED_BACK:
        return state_at(game, event.data["to"])
    if event.type not in SERVER_TYPES:  # an engine's event: a move, by a seat or the system
        return engine.apply(started(state), event.actor, event.data["move"], event.created_at)
    return state


def state_at(game: Game, version: int | None = None, *, use_snapshots: bool = True) -> State | None:
    """The engine state after event `version` (default: the latest); None before the start."""
    version = game.version if version is None else version
    engine = engine_of(game)
    state, start = None, 0
    if use_snapshots:
        cached = statecache.get(_cache_key(game.pk, version))
        if cached is not None:
            return jsoncodec.loads(cached)
        snap = (
            Snapshot.objects.filter(game=game, version__lte=version)
            .order_by("-version")
            .only("version", "state")
            .first()
        )
        if snap is not None:
            state, start = snap.state, snap.version
    for event in Event.objects.filter(game=game, seq__gt=start, seq__lte=version).order_by("seq"):
        state = evolve(engine, state, event, game)
    return state


def states_of(games: list[Game]) -> dict[Any, State | None]:
    """The latest state of many games: one cache round trip; the misses (a cold or flushed cache)
    from their latest snapshots and the events after them, two queries for all of them."""
    keys = {_cache_key(game.pk, game.version): game for game in games}
    found = statecache.get_many(list(keys))
    out = {game.pk: jsoncodec.loads(found[key]) for key, game in keys.items() if key in found}
    missing = {game.pk: game for game in games if game.pk not in out}
    if missing:
        out.update(_load_many(list(missing.values())))
    return out


def _load_many(games: list[Game]) -> dict[Any, State | None]:
    snaps = {
        game_id: (version, state)
        for game_id, version, state in Snapshot.objects.filter(game__in=games)
        .order_by("game_id", "-version")
        .distinct("game_id")
        .values_list("game_id", "version", "state")
    }
    since = {game.pk: snaps.get(game.pk, (0, None))[0] for game in games}
    tails: dict[Any, list[Event]] = {}
    query = Q()
    for game in games:
        if since[game.pk] < game.version:
            query |= Q(game_id=game.pk, seq__gt=since[game.pk], seq__lte=game.version)
    if query:
        for event in Event.objects.filter(query).order_by("game_id", "seq"):
            tails.setdefault(event.game_id, []).append(event)
    out = {}
    for game in games:
        engine, state = engine_of(game), snaps.get(game.pk, (0, None))[1]
        for event in tails.get(game.pk, ()):
            state = evolve(engine, state, event, game)
        out[game.pk] = state
    return out


def replay_from_scratch(game: Game, version: int | None = None) -> State | None:
    return state_at(game, version, use_snapshots=False)


def events(game: Game, after: int = 0, limit: int | None = None):
    qs = Event.objects.filter(game=game, seq__gt=after).order_by("seq")
    return qs[:limit] if limit else qs


def events_read(game: Game, after: int = 0, limit: int | None = None, upto: int | None = None) -> list[Event]:
    """`events`, at most up to event `upto`, as a list: what every long-poll answer and every
    stream's shared read runs."""
    found = Event.objects.filter(game_id=game.pk, seq__gt=after)
    if upto is not None:
        found = found.filter(seq__lte=upto)
    found = found.order_by("seq")
    return list(found[:limit] if limit else found)


# -- counted in the metrics (config.metrics defines them; the game's events are known here) --------
@functools.cache
def _moves(kind: str, auto: str):
    """MOVES's child for these labels: `labels` builds and checks them on every call, and every
    move counts itself."""
    return MOVES.labels(kind, auto)


def _count(kind: str, rows) -> None:
    """Count the moves and expiries among appended events, once their transaction commits (a
    rolled-back move is no move)."""
    moves: dict[str, int] = {}
    expiries = []
    for row in rows:
        if row.type == TIMER_EXPIRED:
            deadline = row.data.get("deadline")
            late = (row.created_at - datetime.fromisoformat(deadline)).total_seconds() if deadline else None
            expiries.append((row.data.get("timer", "clock"), row.data.get("policy", ""), late))
        elif row.type not in SERVER_TYPES:
            auto = "true" if row.data.get("auto") else "false"
            moves[auto] = moves.get(auto, 0) + 1

    def record():
        for auto, count in moves.items():
            _moves(kind, auto).inc(count)
        for timer, policy, late in expiries:
            EXPIRIES.labels(kind, timer, policy).inc()
            if late is not None:
                EXPIRY_LATENESS.labels(kind).observe(max(late, 0.0))

    if moves or expiries:
        transaction.on_commit(record)
