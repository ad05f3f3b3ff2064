"""Server-Sent Events and the long-poll: the async views that wait (see games.realtime.live).

Each view's sync part (authentication, throttling, access checks, parsing) is an ordinary DRF
view, run off the event loop by `asynchronous`; what it returns may be a stream, whose async
iterator then runs on the loop, sleeping on Redis and reading the database only to send.

    GET /games/{id}/stream/   the game's log as you may see it (selectors.describe, as /events/),
                              `id:` = seq; resume with Last-Event-ID (or ?after=N)
    GET /stream/              your own news across games: notifications, and each of your games
                              when it starts, finishes or the turn comes to you
    POST /stream-tickets/     a single-use ticket (?ticket=) for browsers' EventSource (tickets.py)
"""

from __future__ import annotations

import asyncio
import copy
import time
import uuid
import weakref
from collections.abc import Callable
from datetime import datetime
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.db.models import Q
from django.http import StreamingHttpResponse
from django.utils import translation
from django.utils.translation import get_language, gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import renderers, serializers
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle
from redis.exceptions import RedisError
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.tokens import HashedTokenAuthentication
from config import jsoncodec
from games.community import chat
from games.play import access, selectors, store
from games.realtime import limits, live
from games.api.auth import CachedTokenAuthentication
from games.api.notifications import NotificationOut
from games.api.renderers import json_bytes
from games.api.serializers import ChatOut, EventField, ResultField
from games.api.tickets import TicketAuthentication
from games.errors import DomainError, Invalid, NotFound
from games.models import Event, Game, Notification, Seat

RETRY_MS = 2000
BATCH = 100
STREAM_KEY_SECONDS = 24 * 3600  # an open user stream's Redis hash outlives any stream (a crash's too)


# ---------------------------------------------------------------------------------------------
# Async entry for DRF views
# ---------------------------------------------------------------------------------------------
def _cached(classes: list) -> list:
    return [CachedTokenAuthentication if issubclass(c, HashedTokenAuthentication) else c for c in classes]


def _respond(view: Callable, request, kwargs: dict[str, Any]):
    response = view(request, **kwargs)
    if hasattr(response, "render") and not isinstance(response, Waiting):
        response.render()
    return response


@dataclass
class LongPoll:
    """What EventsView read when there was nothing to send yet: the rest is done on the loop."""

    game_id: Any
    version: int  # the game's version the view read (at most `after`)
    after: int
    wait: float
    limit: int
    seat: int | None
    reread: Callable[[], dict]  # the view's own answer, read again (sync)
    guard: "Guard | None" = None  # asked again before the news is delivered
    places: "limits.Places | None" = None  # its place among its caller's long-polls, given back at the end


class Waiting(Response):
    """EventsView's answer when it was asked to wait and has nothing to send yet: the empty
    answer it would give, and what to wait for (`poll`), finished on the loop by `asynchronous`."""

    def __init__(self, data: dict, poll: LongPoll):
        super().__init__(data)
        self.poll = poll


def _caller(request) -> tuple[str, str | None]:
    """Who opens a channel, for its limits: `user:<id>` (or `address:<ip>`), and the address."""
    address = BaseThrottle().get_ident(request)
    user = getattr(request, "user", None)
    return (f"user:{user.pk}" if user is not None and user.is_authenticated else f"address:{address}"), address


def poll_places(request, game: Game, wait: float) -> "limits.Places":
    """A place for this long-poll (429 with Retry-After past LIVE_POLLS_PER_USER or
    LIVE_POLLS_PER_USER_GAME)."""
    return limits.take_long_poll(_caller(request)[0], game.pk, wait)


def asynchronous(view_class: type[APIView]):
    """An async Django view running `view_class` off the loop. A stream it answers runs on the
    loop; a long-poll with nothing to send yet (`Waiting`) waits there, without a thread, for
    news or the end of its wait, then answers with what it found."""
    sync_view = view_class.as_view(authentication_classes=_cached(view_class.authentication_classes))

    async def view(request, **kwargs):
        # A sync handler's request (Django's test client): its thread waits on us, so reads run
        # there (live.run_sync). Not reset: a stream's iterator runs after we return, in this task.
        live.sync_caller.set(isinstance(request, WSGIRequest))
        the_hub = await live.hub()
        # Before the view reads the game: whether its channel is heard from then on.
        epoch = the_hub.since(live.channel(kwargs["game_id"])) if "game_id" in kwargs else None
        request.live_hub = the_hub  # for known_game
        response = await live.run_sync(_respond, sync_view, request, kwargs)
        # The language the view chose on its thread (the account's, else Accept-Language's), here
        # too: a stream's events and a long-poll's news are described on the loop.
        if getattr(request, "LANGUAGE_CODE", None):
            translation.activate(request.LANGUAGE_CODE)
        if not isinstance(response, Waiting):
            return response
        news = await _wait_for_news(the_hub, response.poll, epoch)
        if news is not None:
            # News, maybe long after the view checked the caller: the token may be revoked or
            # the game no longer theirs to see (docs/social.md, "Open channels").
            ended = await _poll_ended(response.poll)
            if ended:
                return ENDED_ANSWERS[ended]()
            response.data = news
        if isinstance(response.accepted_renderer, renderers.JSONRenderer):
            response.render()  # CPU only: no need of a thread
        else:
            await live.run_sync(response.render)
        return response

    # drf-spectacular documents the URL from the DRF view class, as for any APIView.
    view.cls, view.initkwargs, view.csrf_exempt = view_class, {}, True
    view.__name__ = view.__qualname__ = view_class.__name__
    return view


async def _wait_for_news(the_hub, poll: LongPoll, epoch: tuple[int, int] | None) -> dict | None:
    """The long-poll's wait, holding its place among its caller's long-polls until it ends."""
    try:
        return await _long_poll(the_hub, poll, epoch)
    finally:
        if poll.places is not None:
            try:
                await poll.places.arelease()  # on the loop: the reading threads are for reads
            except (RedisError, OSError):
                pass  # its lease runs out by itself


async def _poll_ended(poll: LongPoll) -> str | None:
    """Why the long-poll may no longer deliver ("token", "game"), or None."""
    if poll.guard is None or poll.guard.settled():
        return None
    return await live.run_sync(poll.guard.ended)


_seats = live.Memory(100_000)  # (game, user) -> (seat,), in games past their lobby (None: a spectator)


def known_game(request, game_id) -> Game | None:
    """For a long-poll, without a query: the game as this process's readers last read it, with
    the caller's seat (remembered once the lobby is over: seats no longer change), when the hub
    has heard of no newer version since. A commit still on its way is no matter: the long-poll
    then wakes on its announcement (see _long_poll)."""
    hub = getattr(request, "live_hub", None)
    try:
        key = uuid.UUID(str(game_id))
    except ValueError:
        return None
    tail, remembered = tails.latest.get(key), _seats.get((key, request.user.pk))
    if hub is None or not hub.live or tail is None or remembered is None:
        return None
    if hub.versions.get(live.channel(key)) != tail.game.version:
        return None
    game = copy.copy(tail.game)  # shared by the readers: annotated for this request only
    game._seat_known = (request.user.pk, remembered[0])
    return game


def remember_seat(game: Game, user, seat: int | None) -> None:
    if game.status != Game.Status.OPEN and user.is_authenticated:
        _seats[game.pk, user.pk] = (seat,)


async def _long_poll(the_hub, poll: LongPoll, epoch: tuple[int, int] | None) -> dict | None:
    """The events after `poll.after` as soon as there are any (None: none by the end of the wait).

    While the hub hears the game's channel as it did when the game was last read (`since`),
    whatever committed since reached it: its announced version says whether there is news, and
    news is read once per game and process (`tails`), not once per waiter."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + min(max(poll.wait, 0), live.MAX_WAIT_SECONDS)
    name = live.channel(poll.game_id)
    listener = the_hub.listen([name])
    trusted = epoch  # how the hub heard the channel when the game was last read, or None
    try:
        await listener.ready()
        while True:
            listener.clear()
            hearing = the_hub.since(name)
            if hearing is not None and hearing == trusted:
                announced = the_hub.versions.get(name, 0)
                tail = await tails.get(poll.game_id, poll.after, announced) if announced > poll.after else None
            else:
                trusted = hearing  # before the read: news from now on is heard (or polled for)
                tail = await tails.get(poll.game_id, poll.after, None)
            if tail is not None and tail.game.version > poll.after:
                entries = tail.entries(poll.after, poll.seat, poll.limit)
                if len(entries) < poll.limit and not tail.complete:
                    return await live.run_sync(poll.reread)  # more than the tail holds
                return {"version": tail.game.version, "your_seat": poll.seat, "events": entries}
            left = deadline - loop.time()
            if left <= 0:
                return None
            await listener.wait(min(left, the_hub.sleep_for(left)))
    finally:
        listener.close()


class EventStreamRenderer(renderers.BaseRenderer):
    """Lets a client that accepts only text/event-stream (a browser's EventSource does) through
    content negotiation; the stream itself is a StreamingHttpResponse, and an error is JSON text."""

    media_type, format, charset = "text/event-stream", "sse", "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return b"" if data is None else json_bytes(data)


STREAM_RENDERERS = [*api_settings.DEFAULT_RENDERER_CLASSES, EventStreamRenderer]
STREAM_AUTH = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, TicketAuthentication]  # cached: asynchronous


# ---------------------------------------------------------------------------------------------
# The stream loop
# ---------------------------------------------------------------------------------------------
def sse(data: Any, event: str | None = None, id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {json_bytes(data).decode()}\n\n"


ENDED = {
    "token": sse({"reason": "your token was revoked or has expired"}, event="end"),
    "game": sse({"reason": "you may no longer see this game"}, event="end"),
}
# A long-poll's news that may no longer be delivered: the answers the view would now give.
ENDED_ANSWERS = {
    "token": lambda: _plain_error(401, "authentication_failed", "invalid, revoked or expired token"),
    "game": lambda: _plain_error(404, "not_found", "no such game"),
}


def _plain_error(status_code: int, code: str, detail: str):
    from games.api.errors import json_error

    response = json_error(status_code, code, detail)
    if status_code == 401:
        response["WWW-Authenticate"] = "Token"
    return response


async def _ended(reader, delivering: bool = False) -> str | None:
    """The `end` message if the stream's guard no longer holds. Asked at most once a heartbeat
    (a token's revocation also reaches the process's token cache at once: games.realtime.live); on a
    private game's stream before every delivery too, so news never reaches someone who has just
    declined, left or been uninvited."""
    guard = reader.guard
    if guard is None or not (guard.due() or (delivering and guard.game_id is not None)):
        return None
    if guard.settled():
        guard.checked = time.monotonic()
        return None
    why = await live.run_sync(guard.ended)
    return ENDED[why] if why else None


async def _stream(reader):
    """Send what `reader.read()` finds, then sleep until news, a heartbeat or a poll."""
    loop = asyncio.get_running_loop()
    the_hub = await live.hub()
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


class StreamsElsewhere(DomainError):
    """A stream asked of `web` (WSGI): it would hold one of its few threads, and its database
    connection, for as long as it stays open."""

    status, code = 421, "streams_elsewhere"


def _event_stream(request, reader) -> StreamingHttpResponse:
    if live.sync_caller.get():
        raise StreamsElsewhere(
            gettext(
                "streams are served by the `live` process (or any ASGI server of this site), not by `web`: reach this address through the proxy, or long-poll GET /games/{id}/events/?wait= here"
            )
        )
    reader.places = limits.take_stream(request.user.pk, _caller(request)[1])
    response = StreamingHttpResponse(_stream(reader), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # proxies: do not buffer a stream
    return response


def _cursor(request, name: str = "after") -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(gettext("Last-Event-ID (or after) must be a whole number")) from None
    if value < 0:
        raise Invalid(gettext("Last-Event-ID (or after) must be at least 0"))
    return value


# ---------------------------------------------------------------------------------------------
# A game's stream
# ---------------------------------------------------------------------------------------------
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


def _read_tail(game_id, after: int, kept: list) -> Tail:
    game = access.get_game(game_id)
    # Only rows up to the version read: every message's version then covers its event.
    rows = kept + store.events_read(game, after, BATCH, upto=game.version)
    rows = rows[-BATCH:] if kept else rows
    last_at = None
    if rows:
        last_at = rows[-1].created_at if rows[-1].seq == game.version else selectors.last_write_at(game)
    named = set().union(*(selectors.users_named(r) for r in rows)) if rows else set()
    return Tail(game, rows, last_at, names=selectors.names_of(named))


class Tails:
    """The latest tail read per game in this process. Readers woken by the same announcement
    share one read: the first asks the database (for the rows after the last tail), the others
    wait for its answer on the loop, holding no thread."""

    def __init__(self):
        self.latest: live.Memory = live.Memory(5000)
        self.reading: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict] = weakref.WeakKeyDictionary()

    def _fits(self, tail: Tail | None, after: int, announced: int) -> bool:
        return tail is not None and tail.game.version >= announced and tail.covers(after)

    async def get(self, game_id, after: int, announced: int | None) -> Tail:
        """The game's events after `after`: with `announced` (a version heard of since the
        caller's last read) a shared tail at least that new will do; without, the database now."""
        if announced is not None:
            latest = self.latest.get(game_id)
            if self._fits(latest, after, announced):
                return latest
            pending = self.reading.setdefault(asyncio.get_running_loop(), {}).get(game_id)
            if pending is not None:
                tail = await asyncio.shield(pending)
                if self._fits(tail, after, announced):
                    return tail
            ridden = self._ridden(latest, (await live.hub()).rides_of(live.channel(game_id)), announced)
            if ridden is not None and self._fits(ridden, after, announced):
                self.latest[game_id] = ridden
                return ridden
        return await self._read(game_id, after, announced is not None)

    @staticmethod
    def _ridden(latest: Tail | None, rides: dict[int, bytes], announced: int) -> Tail | None:
        """The latest tail and the writes heard since (their messages carry their events:
        live.ride), up to the announced version, without the database; None when they do not
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

    async def _read(self, game_id, after: int, shared: bool) -> Tail:
        reading = self.reading.setdefault(asyncio.get_running_loop(), {})
        last = self.latest.get(game_id)
        # After a shared tail that covers us, only the newer rows are read.
        kept = last.rows if last is not None and last.covers(after) and last.complete else []
        since = last.game.version if kept else after
        future = asyncio.get_running_loop().create_future()
        if shared:
            reading[game_id] = future
        try:
            tail = await live.run_sync(_read_tail, game_id, since, kept)
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


class Guard:
    """Whether what opened a channel still stands: the token it was opened with and, on a private
    game's channel, the caller's right to see the game (a seat, or an invitation not declined or
    cancelled). Asked at most once per heartbeat interval on an open stream, and before a
    long-poll delivers its news: a revoked token or a lost right ends the channel."""

    def __init__(self, token_id: int | None, game: Game | None = None, user=None):
        self.token_id, self.checked = token_id, time.monotonic()
        self.game_id = game.pk if game is not None and game.private else None
        self.user = user

    def __bool__(self) -> bool:
        return self.token_id is not None or self.game_id is not None

    def due(self) -> bool:
        return time.monotonic() - self.checked >= settings.LIVE_HEARTBEAT_SECONDS

    def settled(self) -> bool:
        """Whether the channel may go on, known without a query: a public game's (or the
        caller's own) channel, on a token this process still knows to be valid."""
        return self.game_id is None and (self.token_id is None or live.remembers_valid_token(self.token_id))

    def ended(self) -> str | None:
        """None while the channel may go on; else why not: "token" or "game"."""
        from accounts import tokens

        self.checked = time.monotonic()
        if self.token_id is not None and not tokens.still_valid(self.token_id):
            return "token"
        if self.game_id is not None:
            try:
                access.require_visible(access.get_game(self.game_id, user=self.user), self.user)
            except NotFound:
                return "game"
        return None


def guard_of(request, game: Game | None = None) -> Guard | None:
    """The guard of a channel: the token behind the request (a header's, or the one a ticket was
    bought with) and, for a private game, the caller's sight of it."""
    auth = request.auth
    token_id = auth if isinstance(auth, int) else getattr(auth, "pk", None)
    guard = Guard(token_id, game, request.user)
    return guard if guard else None


class GameReader:
    """What a game's stream sends: `event: ready`, one message per event (`id:` its seq), `chat`.
    `Followed` frames the very same data for a user stream that carries the game."""

    guard: Guard | None = None
    places: "limits.Places | None" = None

    def __init__(self, game: Game, user, seat: int | None, after: int, chat_after: int = 0):
        self.game_id, self.user, self.seat, self.after, self.ready = game.pk, user, seat, after, False
        self.chat_after = chat_after  # the last chat message sent (only new ones are streamed)

    def channels(self) -> list[str]:
        return [live.channel(self.game_id), live.chat_channel(self.game_id)]

    def frame(self, data: dict, event: str | None = None, id: int | None = None) -> str:
        return sse(data, event=event, id=id)

    async def _chat(self, game: Game, hints: dict[str, int]) -> list[str]:
        """New chat messages, as `event: chat` (no id: they are not events of the log). Read only
        when the chat channel announced one newer than the last sent, or without hints (the first
        read, a poll, a reconnect): a stream woken by a move does not read the chat."""
        announced = hints.get(live.chat_channel(self.game_id))
        if hints and (announced is None or announced <= self.chat_after):
            return []
        # A read off the event loop, like every database read of a waiting stream.
        messages = await live.run_sync(chat.new_for_stream, game, self.seat, self.chat_after, BATCH)
        if messages:
            self.chat_after = messages[-1]["id"]
        return [self.frame(message, event="chat") for message in messages]

    def head(self, game: Game) -> dict[str, Any]:
        return {
            "version": game.version,
            "status": game.status,
            "your_seat": self.seat,
            "active_seats": game.active_seats or [],
            "your_turn": self.seat is not None and self.seat in (game.active_seats or []),
        }

    async def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
        tail = await tails.get(self.game_id, self.after, hints.get(live.channel(self.game_id)))
        game, rows = tail.game, [r for r in tail.rows if r.seq > self.after][:BATCH]
        seats_move = any(r.type in (store.PLAYER_JOINED, store.PLAYER_LEFT) for r in rows)
        if game.status == Game.Status.OPEN or seats_move:
            self.seat = await live.run_sync(access.seat_of, game, self.user)
        chunks = []
        if not self.ready:
            chunks.append(self.frame({**self.head(game), "after": self.after}, event="ready"))
            self.ready = True
        style = type(self).__name__  # each framing's messages are built once per seat and shared
        for entry in tail.entries(self.after, self.seat):
            key = style, entry["seq"], self.seat, get_language()
            message = tail.messages.get(key)
            if message is None:
                message = tail.messages[key] = self.frame({**self.head(game), "event": entry}, id=entry["seq"])
            chunks.append(message)
        if rows:
            self.after = rows[-1].seq
        chunks += await self._chat(game, hints)
        return chunks, len(rows) == BATCH


class Followed(GameReader):
    """A game carried by a user stream: each frame is the game stream's, its data with the game's
    id (`game`), its name prefixed with `game-` (`game-event` for the unnamed message), and its
    `id:` the game's id and the event's seq (`<game>:<seq>`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.heard: tuple | None = None  # what the hub had heard of its channels at the last read

    def frame(self, data: dict, event: str | None = None, id: int | None = None) -> str:
        return sse(
            {**data, "game": str(self.game_id)},
            event=f"game-{event or 'event'}",
            id=None if id is None else f"{self.game_id}:{id}",
        )


def _followed(game_id: str, user, after: int | None) -> Followed | str:
    """A followed game's reader, as its own stream would open it; or the `game-end` frame that
    says it may not be followed (not there, or not visible to this user)."""

    try:
        game = access.get_game(game_id, user=user)
        access.require_visible(game, user)
    except NotFound:
        return sse({"game": str(game_id), "reason": "you may not see this game"}, event="game-end")
    reader = Followed(
        game, user, access.seat_of(game, user), game.version if after is None else after, chat.latest_id(game)
    )
    reader.guard = Guard(None, game, user)
    return reader


# -- What each `event:` of a stream carries --------------------------------------------------------
# OpenAPI has no form for Server-Sent Events: a stream's response schema is a `oneOf` of one schema
# per event name (so every generator types the data as a union of named types), and the operation's
# `x-sse-events` maps each `event:` name to its schema (an SSE message's name travels in the frame,
# not in the JSON, so no discriminator can say it). docs/api-contract.md says why.
class GameStreamHead(serializers.Serializer):
    version = serializers.IntegerField(help_text="the game's version when this was read")
    status = serializers.CharField()
    your_seat = serializers.IntegerField(allow_null=True)
    active_seats = serializers.ListField(child=serializers.IntegerField())
    your_turn = serializers.BooleanField()


class GameStreamReady(GameStreamHead):
    after = serializers.IntegerField(help_text="the resume point: events after this seq follow")


class GameStreamEvent(GameStreamHead):
    event = EventField(help_text="one entry as /events/ shows it to you")


class StreamEnd(serializers.Serializer):
    reason = serializers.CharField(help_text="why the server closes the stream")


class UserStreamReady(serializers.Serializer):
    after = serializers.IntegerField(help_text="the resume point: notifications after this id follow")
    stream = serializers.CharField(help_text="this stream's id: add and drop games with /stream/{stream}/games/")


class FollowedGame(serializers.Serializer):
    game = serializers.UUIDField(help_text="the game this frame is of")


class UserStreamGameReady(GameStreamReady, FollowedGame):
    """A followed game's `ready`, as on its own stream."""


class UserStreamGameEvent(GameStreamEvent, FollowedGame):
    """A followed game's event, as on its own stream (`id:` = `<game>:<seq>`)."""


class UserStreamGameEnd(StreamEnd, FollowedGame):
    """The game is no longer followed: not (or no longer) yours to see."""


class UserStreamGame(serializers.Serializer):
    game = serializers.UUIDField()
    your_seat = serializers.IntegerField(
        allow_null=True, help_text="null: you left its lobby (then nothing else is said)"
    )
    kind = serializers.CharField(required=False)
    status = serializers.CharField(required=False)
    version = serializers.IntegerField(required=False)
    active_seats = serializers.ListField(child=serializers.IntegerField(), required=False)
    your_turn = serializers.BooleanField(required=False)
    result = ResultField(required=False, allow_null=True)


def stream_of(name: str, events: dict[str, type[serializers.Serializer]]):
    """The response schema (a oneOf of the events' schemas) and the `x-sse-events` extension."""
    return (
        PolymorphicProxySerializer(
            component_name=name, serializers=list(events.values()), resource_type_field_name=None
        ),
        {
            "x-sse-events": {
                event: {"$ref": f"#/components/schemas/{serializer.__name__}"} for event, serializer in events.items()
            }
        },
    )


# `message`: the SSE default, what a frame without `event:` is called (EventSource's onmessage).
GAME_STREAM_EVENTS = {"ready": GameStreamReady, "message": GameStreamEvent, "chat": ChatOut, "end": StreamEnd}
USER_STREAM_EVENTS = {
    "ready": UserStreamReady,
    "game": UserStreamGame,
    "notification": NotificationOut,
    "game-ready": UserStreamGameReady,
    "game-event": UserStreamGameEvent,
    "game-chat": ChatOut,
    "game-end": UserStreamGameEnd,
    "end": StreamEnd,
}
GAME_STREAM, GAME_STREAM_EXTENSIONS = stream_of("GameStreamData", GAME_STREAM_EVENTS)
USER_STREAM, USER_STREAM_EXTENSIONS = stream_of("UserStreamData", USER_STREAM_EVENTS)


STREAM_REFUSALS = {
    421: OpenApiResponse(
        description="streams_elsewhere: asked of `web`, which serves no streams (the "
        "`live` process does, behind the proxy)"
    ),
    429: OpenApiResponse(
        description="throttled: past LIVE_STREAMS_PER_USER (10) or LIVE_STREAMS_PER_ADDRESS "
        "(100) open streams; Retry-After says when to try again"
    ),
}

STREAM_DOC = (
    "text/event-stream (`x-sse-events`: each event name's data). First `event: ready` "
    "(no id), then one unnamed message (`message`) per event, `id:` = its seq. "
    "New chat messages of the channels you may read come as `event: chat` (no id; data as "
    "a message of /chat/). "
    "`: keep-alive` comments every LIVE_HEARTBEAT_SECONDS. Reconnect with Last-Event-ID. "
    "`event: end` (then the stream closes): the token it was opened with was revoked or expired."
)


class GameStreamView(APIView):
    authentication_classes = STREAM_AUTH
    renderer_classes = STREAM_RENDERERS

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="resume after this seq (or Last-Event-ID)"),
            OpenApiParameter("ticket", str, description="a stream ticket, instead of the header"),
            OpenApiParameter("Last-Event-ID", str, OpenApiParameter.HEADER),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(GAME_STREAM, description=STREAM_DOC),
            400: OpenApiResponse(description="invalid"),
            401: OpenApiResponse(description="not_authenticated"),
            **STREAM_REFUSALS,
            404: OpenApiResponse(description="not_found"),
        },
        extensions=GAME_STREAM_EXTENSIONS,
        summary="The game's events as they happen (Server-Sent Events)",
    )
    def get(self, request, game_id):
        game = access.get_game(game_id, user=request.user)
        access.require_visible(game, request.user)
        after = _cursor(request)
        reader = GameReader(
            game,
            request.user,
            access.seat_of(game, request.user),
            game.version if after is None else after,
            chat.latest_id(game),
        )
        reader.guard = guard_of(request, game)
        return _event_stream(request, reader)


# ---------------------------------------------------------------------------------------------
# A user's own stream
# ---------------------------------------------------------------------------------------------
class UserReader:
    """A user's own stream: their notifications, a `game` summary when one of their games changes,
    and the events of the games it follows (each as its own stream would send them, `Followed`):
    the user's open and active games unless asked not to (`own`), and the games named on connect
    or added since over HTTP (`StreamGamesView`), kept in the stream's Redis hash so that a change
    made through any process reaches the one that holds the stream (live.change_stream)."""

    LIVE = (Game.Status.OPEN, Game.Status.ACTIVE)
    guard: Guard | None = None
    places: "limits.Places | None" = None

    def __init__(self, user, after: int, named: dict[str, int | None] | None = None, own: bool = True):
        self.user, self.after, self.ready, self.own = user, after, False, own
        self.stream_id = uuid.uuid4().hex
        self.games: dict[str, tuple] = {}  # game id -> what was last said of it
        self.named = dict(named or {})  # asked for on connect: written into the stream's hash
        self.asked: dict[str, int | None] = {}  # the games followed on request, as the hash lists them
        self.followed: dict[str, Followed] = {}
        self.refused: set[str] = set()  # said `game-end` of: not followed until asked again
        self.heard: dict[str, Any] = {}  # what the hub had heard at the last read of each part
        self.opened_key = False

    def channels(self) -> list[str]:
        return [
            live.user_channel(self.user.pk),
            live.stream_channel(self.stream_id),
            *(live.channel(g) for g in self.games),
            *(name for reader in self.followed.values() for name in reader.channels()),
        ]

    @staticmethod
    def _news(the_hub, hints: dict[str, int], names: list[str]) -> tuple | None:
        """What the hub has heard of these channels; None when nothing can be trusted (no hints:
        the first read, a poll, a reconnection), so the part is read again."""
        return tuple((the_hub.since(n), hints.get(n)) for n in names) if hints else None

    def _changed(self, part: str, news: tuple | None) -> bool:
        changed = news is None or self.heard.get(part) != news
        self.heard[part] = news
        return changed

    async def _asked_games(self) -> dict[str, int | None]:
        commands = (await live.hub()).commands()
        name = live.stream_key(self.stream_id)
        if not self.opened_key:
            fields = {
                "user": str(self.user.pk),
                "games": "0",
                **{f"g:{g}": "" if a is None else str(a) for g, a in self.named.items()},
            }
            async with commands.pipeline(transaction=True) as pipe:
                pipe.hset(name, mapping=fields)
                pipe.expire(name, STREAM_KEY_SECONDS)
                await pipe.execute()
            self.opened_key = True
            return dict(self.named)
        raw = await commands.hgetall(name)
        return {k.decode()[2:]: (int(v) if v else None) for k, v in raw.items() if k.startswith(b"g:")}

    async def close(self) -> None:
        if self.opened_key:
            await (await live.hub()).commands().delete(live.stream_key(self.stream_id))

    async def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
        the_hub = await live.hub()
        # Before any read: what the hub has heard so far (news from now on wakes the stream again).
        control = self._news(the_hub, hints, [live.stream_channel(self.stream_id)])
        own = self._news(the_hub, hints, [live.user_channel(self.user.pk), *(live.channel(g) for g in self.games)])
        games = {g: self._news(the_hub, hints, r.channels()) for g, r in self.followed.items()}
        chunks, more = [], False
        if self._changed("control", control):
            try:
                self.asked = await self._asked_games()
            except RedisError:
                pass  # Redis away: the games asked for stay as they were; read again on reconnect
        if self._changed("own", own) or not self.ready:
            news, more = await live.run_sync(self.read_now)
            chunks += news
        if not self.ready:
            chunks.insert(0, sse({"after": self.after, "stream": self.stream_id}, event="ready"))
            self.ready = True
        wanted = dict(self.asked)
        if self.own:
            for game_id in self.games:
                wanted.setdefault(game_id, None)  # from now on
        self.refused &= set(self.asked)  # asked again after an unfollow: tried again
        for game_id, after in wanted.items():
            if game_id in self.followed or game_id in self.refused:
                continue
            reader = await live.run_sync(_followed, game_id, self.user, after)
            if isinstance(reader, str):
                self.refused.add(game_id)
                chunks.append(reader)
                continue
            self.followed[game_id] = reader
            games[game_id] = None
        for game_id, reader in list(self.followed.items()):
            if not self._changed(f"game:{game_id}", games.get(game_id)):
                continue  # nothing heard on its channels since its last read
            found, fuller = await reader.read(hints)
            if found and reader.guard and await live.run_sync(reader.guard.ended):
                # no longer theirs to see (declined, left, uninvited): not one more event
                del self.followed[game_id]
                self.refused.add(game_id)
                chunks.append(sse({"game": game_id, "reason": "you may no longer see this game"}, event="game-end"))
                continue
            chunks += found
            more = more or fuller
            if fuller:
                self.heard.pop(f"game:{game_id}", None)
        # Dropped only now: an own game that just ended has sent its last events above.
        for game_id in [g for g in self.followed if g not in wanted]:
            del self.followed[game_id]
            self.heard.pop(f"game:{game_id}", None)
        return chunks, more

    def read_now(self) -> tuple[list[str], bool]:
        chunks = []
        notes = list(Notification.objects.filter(user=self.user, id__gt=self.after).order_by("id")[:BATCH])
        seats = (
            Seat.objects.filter(user=self.user)
            .filter(Q(game__status__in=self.LIVE) | Q(game_id__in=list(self.games)))
            .select_related("game")
        )
        seen = set()
        for seat in seats:
            game, key = seat.game, str(seat.game_id)
            seen.add(key)
            turn = seat.number in (game.active_seats or [])
            said = (game.status, turn)
            if self.games.get(key) != said:
                chunks.append(
                    sse(
                        {
                            "game": key,
                            "kind": game.kind,
                            "status": game.status,
                            "version": game.version,
                            "your_seat": seat.number,
                            "active_seats": game.active_seats or [],
                            "your_turn": turn,
                            "result": game.result,
                        },
                        event="game",
                    )
                )
            if game.status in self.LIVE:
                self.games[key] = said
            else:
                self.games.pop(key, None)  # said once that it ended; no longer followed
        for gone in set(self.games) - seen:  # left a lobby
            self.games.pop(gone)
            chunks.append(sse({"game": gone, "your_seat": None}, event="game"))
        for note in notes:
            chunks.append(sse(NotificationOut(note).data, event="notification", id=note.pk))
        if notes:
            self.after = notes[-1].pk
        if len(notes) == BATCH:
            self.heard.pop("own", None)  # the rest on the next read
        return chunks, len(notes) == BATCH


def _named_games(request) -> dict[str, int | None]:
    """The games named on connect (`games=<id>[:<after>],...`), and the one a game frame's
    Last-Event-ID (`<game>:<seq>`) names, with their resume points (None: from the present)."""
    named: dict[str, int | None] = {}
    raw = request.query_params.get("games", "")
    for item in filter(None, (part.strip() for part in raw.split(","))):
        game_id, _, after = item.partition(":")
        named[_game_id(game_id)] = _whole(after) if after else None
    resume = request.headers.get("Last-Event-ID", "")
    if ":" in resume:
        game_id, _, seq = resume.partition(":")
        named[_game_id(game_id)] = _whole(seq)
    most = settings.LIVE_STREAM_GAMES
    if len(named) > most:
        raise Invalid(gettext("a stream follows at most %(most)s games") % {"most": most}, most=most)
    return named


def _game_id(raw: str) -> str:
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise Invalid(gettext("%(value)r is not a game id") % {"value": raw[:40]}) from None


def _whole(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(gettext("a resume point must be a whole number")) from None
    if value < 0:
        raise Invalid(gettext("a resume point must be at least 0"))
    return value


USER_STREAM_DOC = (
    "text/event-stream (`x-sse-events`: each event name's data). `event: ready` first, with the "
    "stream's id (`stream`: add or drop games with /stream/{stream}/games/); `event: game` (no id) "
    "for each of your open or active games on connect and whenever its status or your turn changes; "
    "`event: notification`, `id:` = the notification's id, data as in /notifications/. "
    "The games it follows (yours, unless `own=false`; those named in `games`; those added since) "
    "come as on each game's own stream, with the game's id in the data (`game`) and `game-` before "
    "each event name: `game-ready`, `game-event` (`id:` = `<game>:<seq>`), `game-chat`; "
    "`game-end` when a game may not (or no longer) be seen, which then stops following it. "
    "`: keep-alive` comments every LIVE_HEARTBEAT_SECONDS. `event: end` (then the stream closes): "
    "its token was revoked or expired."
)


class UserStreamView(APIView):
    authentication_classes = STREAM_AUTH
    renderer_classes = STREAM_RENDERERS

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", int, description="resume after this notification id (or Last-Event-ID); default: only new ones"
            ),
            OpenApiParameter(
                "games",
                str,
                description="games to follow, comma-separated, each "
                "`<id>` (from the present) or `<id>:<seq>` (resume after that event); "
                "at most LIVE_STREAM_GAMES (50)",
            ),
            OpenApiParameter("own", bool, description="follow your open and active games too (default true)"),
            OpenApiParameter("ticket", str, description="a stream ticket, instead of the header"),
            OpenApiParameter(
                "Last-Event-ID",
                str,
                OpenApiParameter.HEADER,
                description=("a notification's id, or a game frame's `<game>:<seq>` (that game resumes there)"),
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(USER_STREAM, description=USER_STREAM_DOC),
            400: OpenApiResponse(description="invalid"),
            401: OpenApiResponse(description="not_authenticated"),
            **STREAM_REFUSALS,
        },
        extensions=USER_STREAM_EXTENSIONS,
        summary="Your own news and the games you follow (Server-Sent Events)",
    )
    def get(self, request):
        named = _named_games(request)
        raw = request.headers.get("Last-Event-ID")
        after = _whole(raw) if raw and ":" not in raw else None
        if request.query_params.get("after") not in (None, ""):
            after = _whole(request.query_params["after"])
        if after is None:
            after = (
                Notification.objects.filter(user=request.user).order_by("-id").values_list("id", flat=True).first() or 0
            )
        own = request.query_params.get("own", "true").lower() not in ("false", "0", "no")
        reader = UserReader(request.user, after, named, own)
        reader.guard = guard_of(request)
        return _event_stream(request, reader)


game_stream = asynchronous(GameStreamView)
user_stream = asynchronous(UserStreamView)
