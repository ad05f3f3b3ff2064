"""Writers announce after commit: news of a write, published on the live channels.

Writers (sync, in a request or a task) publish on a game's channel when its version changes and on
a user's channel when they get a notification, once the transaction commits, so nobody hears of a
rolled-back write. A game's message carries the write's events as stored (`ride`): a reader that
heard every write since its last read renders from the messages; one that missed any (a gap)
reads the database, which stays the truth.

Redis down: writes still commit (publishing is best effort), and waiters poll the database every
LIVE_POLL_SECONDS (games.realtime.hub).
"""

from __future__ import annotations

from typing import Iterable

import redis
from django.db import transaction

from config import jsoncodec
from config.outages import came_back, went_down
from games.realtime.channels import (
    channel,
    chat_channel,
    client,
    stream_channel,
    stream_key,
    tournament_channel,
    user_channel,
)


def publish(messages: list[tuple[str, str]]) -> None:
    try:
        with client().pipeline(transaction=False) as pipe:
            for name, payload in messages:
                pipe.publish(name, payload)
            pipe.execute()
    except redis.RedisError as error:
        went_down("live updates", error)  # readers fall back to polling and miss nothing
    else:
        came_back("live updates")


RIDE_MAX_BYTES = 32_000  # a write's events above this go by their version alone (the readers read them)


def ride(game, rows) -> dict:
    """What a woken reader needs of a write, so that it reads nothing from the database: the
    game's new head and the events as stored (every viewer's view is made from them, per viewer,
    by the reader; Redis carries them between the server's own processes only)."""
    return {
        "status": game.status,
        "active_seats": game.active_seats or [],
        "events": [
            {"seq": r.seq, "type": r.type, "actor": r.actor, "data": r.data, "created_at": r.created_at.isoformat()}
            for r in rows
        ],
    }


def _game_payload(version: int, riding: dict | None) -> str:
    if riding is None:
        return str(version)
    body = jsoncodec.dumps(riding).decode()
    return f"{version} {body}" if len(body) <= RIDE_MAX_BYTES else str(version)


def news_messages(news: Iterable[tuple]) -> list[tuple[str, str]]:
    """The (channel, payload) messages announcing these games' new versions, to publish after
    commit (games.play.statecache sends them with the write's states, in the same pipeline). Each
    item is (game id, version, the users to tell, and optionally the write's `ride`): a game's
    message is its new version, then a space and the ride as JSON when there is one."""
    return [
        message
        for game_id, version, users, *riding in news
        for message in [(channel(game_id), _game_payload(version, riding[0] if riding else None))]
        + [(user_channel(u), str(game_id)) for u in set(users) if u]
    ]


def announce_chat(game_id, message_id: int) -> None:
    """Once the current transaction commits, tell the game's streams of a new chat message."""
    messages = [(chat_channel(game_id), str(message_id))]
    transaction.on_commit(lambda: publish(messages))


def announce_tournament(tournament_id) -> None:
    """Once the current transaction commits, tell the streams that follow the tournament."""
    messages = [(tournament_channel(tournament_id), "")]
    transaction.on_commit(lambda: publish(messages))


def announce_users(user_ids: Iterable[int]) -> None:
    """Once the current transaction commits, wake these users' own streams (a notification)."""
    messages = user_messages(user_ids)
    if messages:
        transaction.on_commit(lambda: publish(messages))


def user_messages(user_ids: Iterable[int]) -> list[tuple[str, str]]:
    """The (channel, payload) messages of `announce_users`, to publish with others."""
    return [(user_channel(u), "") for u in sorted(set(user_ids))]


def change_stream(
    stream_id: str, user_id: int, game_id: str, after: int | None, follow: bool, most: int, part: str = "g"
) -> str | None:
    """Follow (or stop following) a game (`part` "g"; a tournament: "t") on an open stream of
    `user_id`, and tell the process that holds it. None if done; else why not: "stream" (no such
    open stream of theirs) or "full" (it already follows `most` of that part)."""
    name = stream_key(stream_id)
    conn = client()
    owner, fields = conn.hget(name, "user"), conn.hkeys(name)
    if owner is None or owner.decode() != str(user_id):
        return "stream"
    field_name = f"{part}:{game_id}"
    with conn.pipeline(transaction=True) as pipe:
        if follow:
            following = sum(1 for f in fields if f.startswith(f"{part}:".encode()))
            if following >= most and field_name.encode() not in fields:
                return "full"
            pipe.hset(name, field_name, "" if after is None else str(after))
        else:
            pipe.hdel(name, field_name)
        pipe.hincrby(name, "games", 1)
        serial = pipe.execute()[-1]
    publish([(stream_channel(stream_id), str(serial))])
    return None
