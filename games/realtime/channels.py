"""The names of the live machinery in Redis: this deployment's keys and its pub/sub channels (a
game's, a user's, a game's chat, a tournament's, an open user stream's, the revocations'), and the
process's client that publishes on them (see games.realtime.hub for how they are heard)."""

from __future__ import annotations

import redis

from config import redis as redis_roles
from config.keys import deployment_key


def client() -> redis.Redis:
    """The process's Redis client for publishing and tickets (config.redis's `publisher`)."""
    return redis_roles.publisher()


def _prefix() -> str:
    return deployment_key("live")


def key(*parts) -> str:
    """A Redis key of this deployment's live machinery (stream tickets)."""
    return ":".join([_prefix(), *map(str, parts)])


def channel(game_id) -> str:
    return f"{_prefix()}:game:{game_id}"


def user_channel(user_id) -> str:
    return f"{_prefix()}:user:{user_id}"


def chat_channel(game_id) -> str:
    """A game's chat news: its own channel, whose payload is the newest message id, so a
    stream woken by a move does not read the chat, nor one woken by chat the events."""
    return f"{_prefix()}:chat:{game_id}"


def tournament_channel(tournament_id) -> str:
    """A tournament's news: a change of its players, rounds, games or standings (no payload: the
    streams that follow it read what changed)."""
    return f"{_prefix()}:tournament:{tournament_id}"


def revoked_channel() -> str:
    return key("revoked")


def stream_channel(stream_id: str) -> str:
    """An open user stream's own channel: a change of the games it follows (its payload a serial,
    the `games` count of the stream's key) reaches whichever process holds the stream."""
    return f"{_prefix()}:stream:{stream_id}"


def stream_key(stream_id: str) -> str:
    """The Redis hash of an open user stream: `user` (its owner), `games` (a serial bumped by each
    change), one `g:<game id>` field per game followed on request (its resume point, or "") and one
    `t:<tournament id>` per tournament."""
    return key("stream", stream_id)
