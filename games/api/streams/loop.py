"""A stream's response and the loop that feeds it: the reader (game.GameReader, user.UserReader)
says which channels it follows and reads what is new; the loop sends that, then sleeps on the hub
until news, a heartbeat or a poll, asking the reader's guard now and then whether it may go on."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext
from redis.exceptions import RedisError
from rest_framework import renderers
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from games.api.renderers import json_bytes
from games.api.tickets import TicketAuthentication
from games.errors import DomainError
from games.realtime import hub, limits, threads

RETRY_MS = 2000


def event_stream(request, reader) -> StreamingHttpResponse:
    if threads.sync_caller.get():
        raise StreamsElsewhere(
            gettext(
                "streams are served by the `live` process (or any ASGI server of this site), not by `web`: reach this address through the proxy, or long-poll GET /games/{id}/events/?wait= here"
            )
        )
    reader.places = limits.take_stream(request.user.pk, caller(request)[1])
    response = StreamingHttpResponse(_stream(reader), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # proxies: do not buffer a stream
    return response


class StreamsElsewhere(DomainError):
    """A stream asked of `web` (WSGI): it would hold one of its few threads, and its database
    connection, for as long as it stays open."""

    status, code = 421, "streams_elsewhere"


async def _stream(reader):
    """Send what `reader.read()` finds, then sleep until news, a heartbeat or a poll."""
    loop = asyncio.get_running_loop()
    the_hub = await hub.hub()
    listener = the_hub.listen(reader.channels())
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    woke = False
    try:
        yield f"retry: {RETRY_MS}\n\n"
        # Heard before the first read; channels it follows later wake it once heard (a re-read).
        await listener.ready()
        last_sent = loop.time()
        while True:
            listener.clear()  # before reading: news from now on wakes us, even mid-read
            # Woken by news, the reader may share what another reader of the same game just read;
            # otherwise (the first read, a poll, a reconnection) it asks the database itself.
            hints = the_hub.hints(reader.channels()) if woke else {}
            read_at = the_hub.mark()
            chunks, more = await reader.read(hints)
            # The games it began to follow in this read: news heard on them during it wakes it.
            listener.follow(reader.channels(), read_at)
            ended = await _ended(reader, delivering=bool(chunks))  # before the news goes out
            if ended:
                yield ended
                return
            if chunks:
                yield "".join(chunks)
                last_sent = loop.time()
            if more:
                woke = False
                continue
            while True:
                woke = await listener.wait(the_hub.sleep_for(heartbeat - (loop.time() - last_sent)))
                if reader.places is not None:
                    try:
                        await reader.places.renew()
                    except (RedisError, OSError):
                        pass  # Redis away: nothing is counted meanwhile
                if not woke and loop.time() - last_sent >= heartbeat * 0.99:
                    yield ": keep-alive\n\n"
                    last_sent = loop.time()
                # An idle stream reads nothing, but its guard is still asked after now and then.
                ended = None if woke else await _ended(reader)
                if ended:
                    yield ended
                    return
                # Not woken while subscribed: nothing happened (a reconnection or a loss would
                # have woken us), so a heartbeat reads nothing. Without Redis, poll.
                if woke or not the_hub.live:
                    break
    finally:
        listener.close()
        closing = getattr(reader, "close", None)
        try:
            if closing is not None:
                await closing()
            if reader.places is not None:
                await reader.places.arelease()
        except (RedisError, OSError, asyncio.CancelledError):
            pass  # the keys expire by themselves


async def _ended(reader, delivering: bool = False) -> str | None:
    """The `end` message if the stream's guard no longer holds. Asked at most once a heartbeat
    (a token's revocation also reaches the process's token cache at once: games.realtime.tokens); on a
    private game's stream before every delivery too, so news never reaches someone who has just
    declined, left or been uninvited."""
    guard = reader.guard
    if guard is None or not (guard.due() or (delivering and guard.game_id is not None)):
        return None
    if guard.settled():
        guard.checked = time.monotonic()
        return None
    why = await threads.run_sync(guard.ended)
    return ENDED[why] if why else None


def sse(data: Any, event: str | None = None, id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {json_bytes(data).decode()}\n\n"


ENDED = {
    "token": sse({"reason": "your token was revoked or has expired"}, event="end"),
    "game": sse({"reason": "you may no longer see this game"}, event="end"),
}


def caller(request) -> tuple[str, str | None]:
    """Who opens a channel, for its limits: `user:<id>` (or `address:<ip>`), and the address."""
    address = BaseThrottle().get_ident(request)
    user = getattr(request, "user", None)
    return (f"user:{user.pk}" if user is not None and user.is_authenticated else f"address:{address}"), address


class EventStreamRenderer(renderers.BaseRenderer):
    """Lets a client that accepts only text/event-stream (a browser's EventSource does) through
    content negotiation; the stream itself is a StreamingHttpResponse, and an error is JSON text."""

    media_type, format, charset = "text/event-stream", "sse", "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return b"" if data is None else json_bytes(data)


STREAM_RENDERERS = [*api_settings.DEFAULT_RENDERER_CLASSES, EventStreamRenderer]
STREAM_AUTH = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, TicketAuthentication]
