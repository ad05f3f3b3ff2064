"""A game's latest events, read once per process and move however many readers wait on the game."""

from __future__ import annotations

import asyncio
import copy
import weakref
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import get_language

from config import database, jsoncodec
from games.models import Event, Game
from games.play import access, selectors, store
from games.realtime import channels, hub, memory, threads

BATCH = 100


class Tails:
    """The latest tail read per game in this process. Readers woken by the same announcement
    share one read: the first asks the database (for the rows after the last tail), the others
    wait for its answer on the loop, holding no thread."""

    def __init__(self):
        self.latest: memory.Memory = memory.Memory(5000)
        self.reading: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict] = weakref.WeakKeyDictionary()

    def _fits(self, tail: Tail | None, after: int, announced: int) -> bool:
        return tail is not None and tail.game.version >= announced and tail.covers(after)

    async def get(self, game_id, after: int, announced: int | None, spectator: bool = False) -> Tail:
        """The game's events after `after`: with `announced` (a version heard of since the
        caller's last read) a shared tail at least that new will do; without, the database now.
        A `spectator`'s read may be the replica's, if it holds every version the hub announced
        (and the caller's): a tail as new as the primary's would be for anything heard of."""
        if announced is not None:
            latest = self.latest.get(game_id)
            if self._fits(latest, after, announced):
                return latest
            pending = self.reading.setdefault(asyncio.get_running_loop(), {}).get(game_id)
            if pending is not None:
                tail = await asyncio.shield(pending)
                if self._fits(tail, after, announced):
                    return tail
            ridden = self._ridden(latest, (await hub.hub()).rides_of(channels.channel(game_id)), announced)
            if ridden is not None and self._fits(ridden, after, announced):
                self.latest[game_id] = ridden
                return ridden
        fence = None
        if spectator and database.replica_configured():
            heard = (await hub.hub()).replica_fence(channels.channel(game_id))
            fence = None if heard is None else max(heard, after, announced or 0)
        return await self._read(game_id, after, announced is not None, fence)

    @staticmethod
    def _ridden(latest: Tail | None, rides: dict[int, bytes], announced: int) -> Tail | None:
        """The latest tail and the writes heard since (their messages carry their events:
        news.ride), up to the announced version, without the database; None when they do not
        join up with it (a write not heard, or too long ago), or an event names a user the tail
        cannot name: then the database is read."""
        if latest is None or not latest.complete or not rides:
            return None
        game, rows, version = copy.copy(latest.game), [], latest.game.version
        by_first = {}
        for riding in rides.values():
            heard = jsoncodec.loads(riding)
            if heard["events"]:
                by_first[heard["events"][0]["seq"]] = heard
        while version < announced:
            heard = by_first.get(version + 1)
            if heard is None:
                return None
            rows += [
                Event(
                    game_id=game.pk,
                    seq=e["seq"],
                    type=e["type"],
                    actor=e["actor"],
                    data=e["data"],
                    created_at=datetime.fromisoformat(e["created_at"]),
                )
                for e in heard["events"]
            ]
            version = rows[-1].seq
            game.status, game.active_seats = heard["status"], heard["active_seats"]
        if not rows or any(selectors.users_named(row) - latest.names.keys() for row in rows):
            return None
        game.version = version
        return Tail(game, (latest.rows + rows)[-BATCH:], rows[-1].created_at, names=latest.names)

    async def _read(self, game_id, after: int, shared: bool, fence: int | None = None) -> Tail:
        reading = self.reading.setdefault(asyncio.get_running_loop(), {})
        last = self.latest.get(game_id)
        # After a shared tail that covers us, only the newer rows are read.
        kept = last.rows if last is not None and last.covers(after) and last.complete else []
        since = last.game.version if kept else after
        future = asyncio.get_running_loop().create_future()
        if shared:
            reading[game_id] = future
        try:
            tail = await threads.run_sync(_read_tail, game_id, since, kept, fence)
            future.set_result(tail)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: waiters re-raise it themselves
            raise
        finally:
            if reading.get(game_id) is future:
                del reading[game_id]
        newest = self.latest.get(game_id)
        if tail.complete and (newest is None or tail.game.version >= newest.game.version):
            self.latest[game_id] = tail
        return tail


tails = Tails()


@dataclass
class Tail:
    """One read of a game's latest events, shared by the process's readers of the game: each
    entry is described once per seat and language (a Photoshoot verdict's faults are said in the
    reader's), and each message built once per seat and language."""

    game: Game
    rows: list
    last_at: Any  # when the latest write happened: its entries are `fresh` (selectors.describe)
    described: dict = field(default_factory=dict)
    messages: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)  # the users its events name, as they are called now

    @property
    def complete(self) -> bool:
        """Holds every event up to the game's version read."""
        return not self.rows or self.rows[-1].seq == self.game.version

    def covers(self, after: int) -> bool:
        return self.rows[0].seq <= after + 1 if self.rows else self.game.version <= after

    def entries(self, after: int, seat: int | None, limit: int = BATCH) -> list[dict]:
        found = []
        for row in self.rows:
            if row.seq <= after:
                continue
            key = row.seq, seat, get_language()
            entry = self.described.get(key)
            if entry is None:
                entry = self.described[key] = selectors.describe(self.game, row, seat, self.last_at, self.names)
            found.append(entry)
            if len(found) == limit:
                break
        return found


def _read_tail(game_id, after: int, kept: list, fence: int | None = None) -> Tail:
    """With `fence` (a spectator's read, Tails.get), from the read replica if it holds that
    version at least; else, and without, from the primary."""
    if fence is None:
        return _read_tail_now(game_id, after, kept)

    def read(lagging):
        tail = _read_tail_now(game_id, after, kept)
        if lagging.on and tail.game.version < fence:
            lagging.stop()
            tail = _read_tail_now(game_id, after, kept)
        return tail

    return database.lagging_read(None, read)


def _read_tail_now(game_id, after: int, kept: list) -> Tail:
    game = access.get_game(game_id)
    # Only rows up to the version read: every message's version then covers its event.
    rows = kept + store.events_read(game, after, BATCH, upto=game.version)
    rows = rows[-BATCH:] if kept else rows
    last_at = None
    if rows:
        last_at = rows[-1].created_at if rows[-1].seq == game.version else selectors.last_write_at(game)
    named = set().union(*(selectors.users_named(r) for r in rows)) if rows else set()
    return Tail(game, rows, last_at, names=selectors.names_of(named))
