"""The bots' turns, served fairly among the people they play for (docs/bots.md, "Fair share").

Every bot turn is owed to a person: the creator of its game. A turn falls due after its delay;
the bots' worker then plays, of all the turns due, the one whose owner has used the least bot
time lately, the oldest of that owner's first. Used time is the seconds the worker spent on an
owner's turns, halved every BOT_FAIR_HALF_LIFE_SECONDS. So a person with one game against a bot
waits for at most the move being thought when theirs fell due, however many turns another
account (or ten of them) has queued: the heavy users share what is left among themselves.

Why fairness in the worker and not a rate limit on enqueueing: a rate limit small enough to keep
a burst from filling the queue would slow honest play (a Pick Pic table of four bots queues four
turns at once, each move), and it still would not bound anyone's wait once enough accounts each
stay under it. Choosing at run time bounds the wait by the longest single move, whatever the
load; the per-account limit on games with bots (BOT_GAMES_PER_USER) bounds what one account can
hold in the queue at all.

Searching bots (level 3) think BOT_THINK_SECONDS a move; the others a few milliseconds. The
bots' worker runs two processes, and one at a time may search (the search lane, a Redis key):
while one process searches, the other plays the fairest of the quick turns, so a level-1 or
level-2 bot never waits behind a search, and a searching bot waits for at most the search under
way and the fairer searches.

The turns wait in a Redis sorted set (scored by when they fall due); each turn also sends a wake
task to the bots' queue at that time. A wake plays due turns, fairest first, until none is due
(or its time is up, when it sends another wake): a lost wake is made good by the next one, and a
wake that finds nothing due returns. A turn is claimed by removing it from the set, so two bots
workers never play one turn twice; a turn whose game has moved on is stale and costs one read.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import datetime
from typing import cast

import redis
from django.conf import settings

from config.keys import deployment_key
from config.scheduling import client

# Candidates read per choice: the due turns, oldest first (a backlog beyond this is chosen among
# the oldest, which are the ones that have waited longest anyway).
_WINDOW = 2000


# Bots of this level and above search (BOT_THINK_SECONDS a move): they take the search lane.
SEARCH_LEVEL = 3


@dataclass(frozen=True)
class Turn:
    game_id: str
    seat: int
    version: int
    owner: int
    level: int = SEARCH_LEVEL

    def member(self) -> str:
        return f"{self.game_id}:{self.seat}:{self.version}:{self.owner}:{self.level}"

    @classmethod
    def parse(cls, member: bytes | str) -> "Turn":
        text = member.decode() if isinstance(member, bytes) else member
        game_id, seat, version, owner, *level = text.split(":")
        return cls(game_id, int(seat), int(version), int(owner), int(level[0]) if level else SEARCH_LEVEL)

    @property
    def searches(self) -> bool:
        return self.level >= SEARCH_LEVEL


@dataclass(frozen=True)
class Claim:
    """A turn taken from the queue, and the search lane's token if the turn holds it."""

    turn: Turn
    lane: str | None = None


def _turns_key() -> str:
    return deployment_key("bots", "turns")


def _used_key() -> str:
    return deployment_key("bots", "used")


def put(turn: Turn, due: datetime) -> bool:
    """Queue `turn` to fall due at `due`; False if Redis is unreachable."""
    try:
        client().zadd(_turns_key(), {turn.member(): due.timestamp()})
        return True
    except redis.RedisError:
        return False


def _decayed(raw: bytes | str | None, now: float) -> float:
    if not raw:
        return 0.0
    text = raw.decode() if isinstance(raw, bytes) else raw
    seconds, stamp = (float(x) for x in text.split("@"))
    return seconds * 0.5 ** (max(0.0, now - stamp) / settings.BOT_FAIR_HALF_LIFE_SECONDS)


def usage(owners: list[int], now: float | None = None) -> dict[int, float]:
    """Each owner's bot time lately, in seconds (decayed to `now`)."""
    now = time.time() if now is None else now
    if not owners:
        return {}
    raw = client().hmget(_used_key(), [str(o) for o in owners])
    return {owner: _decayed(value, now) for owner, value in zip(owners, raw)}


def charge(owner: int, seconds: float) -> None:
    """Add `seconds` of bot time to `owner`'s use. Read and written apart: two bots workers may
    lose each other's few tenths of a second, which moves nobody's place by much."""
    now = time.time()
    try:
        total = usage([owner], now)[owner] + seconds
        pipe = client().pipeline()
        pipe.hset(_used_key(), str(owner), f"{total:.4f}@{now:.3f}")
        # Forgotten once nobody has used a bot for a long while (a half-life is a few minutes).
        pipe.expire(_used_key(), int(settings.BOT_FAIR_HALF_LIFE_SECONDS * 20) + 60)
        pipe.execute()
    except redis.RedisError:
        pass


def choose(due: list[tuple[Turn, float]], used: dict[int, float]) -> Turn:
    """Of the due turns (with when each fell due), the fairest: the least-used owner's, then the
    one that fell due first."""
    return min(due, key=lambda item: (used.get(item[0].owner, 0.0), item[1]))[0]


def _lane_key() -> str:
    return deployment_key("bots", "search")


def _take_lane() -> str | None:
    """The search lane's token if this process may search now (one process at a time does)."""
    token = secrets.token_hex(8)
    ttl = int(settings.TASK_QUEUES["bots"]["hard"]) + 1  # a killed holder frees it by then
    return token if client().set(_lane_key(), token, nx=True, ex=ttl) else None


# Deletes the lane only if it still holds this claim's token (one whose time ran out and was
# taken by another process is not freed by the late holder).
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end return 0"


def release(claim: Claim) -> None:
    """The claim's turn is played: give the search lane back if it held it."""
    if claim.lane is None:
        return
    try:
        client().eval(_RELEASE, 1, _lane_key(), claim.lane)
    except redis.RedisError:
        pass


def take(now: float | None = None) -> Claim | None:
    """Claim the fairest due turn this process may play, or None when there is none (or Redis
    is unreachable). A searching bot's turn needs the search lane: while another process holds
    it, this one plays the fairest of the other due turns, so a quick bot never waits behind a
    search (the bots' worker runs two processes)."""
    now = time.time() if now is None else now
    try:
        for _ in range(5):  # another worker may claim the one chosen: choose again
            due = _due(now)
            if not due:
                return None
            turn = choose(due, usage(sorted({t.owner for t, _ in due}), now))
            lane = None
            if turn.searches:
                lane = _take_lane()
                if lane is None:
                    quick = [(t, score) for t, score in due if not t.searches]
                    if not quick:
                        return None  # the lane's holder plays the searches
                    turn = choose(quick, usage(sorted({t.owner for t, _ in quick}), now))
            if client().zrem(_turns_key(), turn.member()):
                return Claim(turn, lane)
            release(Claim(turn, lane))
    except redis.RedisError:
        return None
    return None


def _due(now: float) -> list[tuple[Turn, float]]:
    """The turns due by `now`, the longest due first, each with when it fell due."""
    rows = client().zrangebyscore(_turns_key(), "-inf", now, start=0, num=_WINDOW, withscores=True)
    # With withscores=True redis-py answers (member, score) pairs; its return type is the union of
    # every form the command can take, whatever the flag.
    return [(Turn.parse(member), float(score)) for member, score in cast("list[tuple[bytes, float]]", rows)]


def waiting() -> int:
    """How many turns are queued, due or not (for the metrics and the tests)."""
    try:
        return int(client().zcard(_turns_key()))
    except redis.RedisError:
        return 0
