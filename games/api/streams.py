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
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.db.models import Q
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import renderers, serializers
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts.tokens import HashedTokenAuthentication
from games.community import chat
from games.play import access, selectors, store
from games.realtime import live
from games.api.auth import CachedTokenAuthentication
from games.api.notifications import NotificationOut
from games.api.renderers import json_bytes
from games.api.serializers import ChatOut, EventField, ResultField
from games.api.tickets import TicketAuthentication
from games.errors import Invalid
from games.models import Game, Notification, Seat

RETRY_MS = 2000
BATCH = 100


# ---------------------------------------------------------------------------------------------
# Async entry for DRF views
# ---------------------------------------------------------------------------------------------
def _cached(classes: list) -> list:
    return [CachedTokenAuthentication if issubclass(c, HashedTokenAuthentication) else c for c in classes]


def _respond(view: Callable, request, kwargs: dict[str, Any]):
    response = view(request, **kwargs)
    if hasattr(response, "render") and getattr(response, "long_poll", None) is None:
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


def asynchronous(view_class: type[APIView]):
    """An async Django view running `view_class` off the loop; a long-poll answer (one carrying
    `long_poll`) is finished on the loop, without a thread while it waits."""
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
        poll = getattr(response, "long_poll", None)
        if poll is not None:
            response.long_poll = None
            answer = await _long_poll(the_hub, poll, epoch)
            if answer is not None:
                # News, maybe long after the view checked the caller: the token may be revoked
                # or the game no longer theirs to see (docs/social.md, "Open channels").
                ended = (poll.guard is not None and not poll.guard.settled()
                         and await live.run_sync(poll.guard.ended))
                if ended:
                    return ENDED_ANSWERS[ended]()
                response.data = answer
            if isinstance(response.accepted_renderer, renderers.JSONRenderer):
                response.render()  # CPU only: no need of a thread
            else:
                await live.run_sync(response.render)
        return response

    # drf-spectacular documents the URL from the DRF view class, as for any APIView.
    view.cls, view.initkwargs, view.csrf_exempt = view_class, {}, True
    view.__name__ = view.__qualname__ = view_class.__name__
    return view


_seats = live.Memory(100_000)  # (game, user) -> seat, in games past their lobby


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
    tail, seat = tails.latest.get(key), _seats.get((key, request.user.pk), _seats)
    if hub is None or not hub.live or tail is None or seat is _seats:
        return None
    if hub.versions.get(live.channel(key)) != tail.game.version:
        return None
    game = copy.copy(tail.game)  # shared by the readers: annotated for this request only
    game._seat_known = (request.user.pk, seat)
    return game


def remember_seat(game: Game, user, seat: int | None) -> None:
    if game.status != Game.Status.OPEN and user.is_authenticated:
        _seats[game.pk, user.pk] = seat


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


ENDED = {"token": sse({"reason": "your token was revoked or has expired"}, event="end"),
         "game": sse({"reason": "you may no longer see this game"}, event="end")}
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
            chunks, more = await reader.read(hints)
            listener.follow(reader.channels())
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


def _event_stream(reader) -> StreamingHttpResponse:
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
        raise Invalid("Last-Event-ID (or after) must be a whole number") from None
    if value < 0:
        raise Invalid("Last-Event-ID (or after) must be at least 0")
    return value


# ---------------------------------------------------------------------------------------------
# A game's stream
# ---------------------------------------------------------------------------------------------
@dataclass
class Tail:
    """One read of a game's latest events, shared by the process's readers of the game: each
    entry is described once per seat, and each message built once per seat."""
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
            entry = self.described.get((row.seq, seat))
            if entry is None:
                entry = self.described[row.seq, seat] = selectors.describe(self.game, row, seat, self.last_at,
                                                                                 self.names)
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
        return await self._read(game_id, after, announced is not None)

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
        from games.errors import NotFound

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
    guard: Guard | None = None

    def __init__(self, game: Game, user, seat: int | None, after: int, chat_after: int = 0):
        self.game_id, self.user, self.seat, self.after, self.ready = game.pk, user, seat, after, False
        self.chat_after = chat_after  # the last chat message sent (only new ones are streamed)

    def channels(self) -> list[str]:
        return [live.channel(self.game_id), live.chat_channel(self.game_id)]

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
        return [sse(message, event="chat") for message in messages]

    def head(self, game: Game) -> dict[str, Any]:
        return {"version": game.version, "status": game.status, "your_seat": self.seat,
                "active_seats": game.active_seats or [],
                "your_turn": self.seat is not None and self.seat in (game.active_seats or [])}

    async def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
        tail = await tails.get(self.game_id, self.after, hints.get(live.channel(self.game_id)))
        game, rows = tail.game, [r for r in tail.rows if r.seq > self.after][:BATCH]
        seats_move = any(r.type in (store.PLAYER_JOINED, store.PLAYER_LEFT) for r in rows)
        if game.status == Game.Status.OPEN or seats_move:
            self.seat = await live.run_sync(access.seat_of, game, self.user)
        chunks = []
        if not self.ready:
            chunks.append(sse({**self.head(game), "after": self.after}, event="ready"))
            self.ready = True
        for entry in tail.entries(self.after, self.seat):
            message = tail.messages.get((entry["seq"], self.seat))
            if message is None:
                message = tail.messages[entry["seq"], self.seat] = sse(
                    {**self.head(game), "event": entry}, id=entry["seq"])
            chunks.append(message)
        if rows:
            self.after = rows[-1].seq
        chunks += await self._chat(game, hints)
        return chunks, len(rows) == BATCH


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


class UserStreamGame(serializers.Serializer):
    game = serializers.UUIDField()
    your_seat = serializers.IntegerField(allow_null=True, help_text="null: you left its lobby "
                                         "(then nothing else is said)")
    kind = serializers.CharField(required=False)
    status = serializers.CharField(required=False)
    version = serializers.IntegerField(required=False)
    active_seats = serializers.ListField(child=serializers.IntegerField(), required=False)
    your_turn = serializers.BooleanField(required=False)
    result = ResultField(required=False, allow_null=True)


def stream_of(name: str, events: dict[str, type[serializers.Serializer]]):
    """The response schema (a oneOf of the events' schemas) and the `x-sse-events` extension."""
    return (PolymorphicProxySerializer(component_name=name, serializers=list(events.values()),
                                       resource_type_field_name=None),
            {"x-sse-events": {event: {"$ref": f"#/components/schemas/{serializer.__name__}"}
                              for event, serializer in events.items()}})


# `message`: the SSE default, what a frame without `event:` is called (EventSource's onmessage).
GAME_STREAM_EVENTS = {"ready": GameStreamReady, "message": GameStreamEvent, "chat": ChatOut, "end": StreamEnd}
USER_STREAM_EVENTS = {"ready": UserStreamReady, "game": UserStreamGame, "notification": NotificationOut,
                      "end": StreamEnd}
GAME_STREAM, GAME_STREAM_EXTENSIONS = stream_of("GameStreamData", GAME_STREAM_EVENTS)
USER_STREAM, USER_STREAM_EXTENSIONS = stream_of("UserStreamData", USER_STREAM_EVENTS)


STREAM_DOC = ("text/event-stream (`x-sse-events`: each event name's data). First `event: ready` "
              "(no id), then one unnamed message (`message`) per event, `id:` = its seq. "
              "New chat messages of the channels you may read come as `event: chat` (no id; data as "
              "a message of /chat/). "
              "`: keep-alive` comments every LIVE_HEARTBEAT_SECONDS. Reconnect with Last-Event-ID. "
              "`event: end` (then the stream closes): the token it was opened with was revoked or expired.")


class GameStreamView(APIView):
    authentication_classes = STREAM_AUTH
    renderer_classes = STREAM_RENDERERS

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="resume after this seq (or Last-Event-ID)"),
                    OpenApiParameter("ticket", str, description="a stream ticket, instead of the header"),
                    OpenApiParameter("Last-Event-ID", str, OpenApiParameter.HEADER)],
        responses={(200, "text/event-stream"): OpenApiResponse(GAME_STREAM, description=STREAM_DOC),
                   400: OpenApiResponse(description="invalid"), 401: OpenApiResponse(description="not_authenticated"),
                   404: OpenApiResponse(description="not_found")},
        extensions=GAME_STREAM_EXTENSIONS,
        summary="The game's events as they happen (Server-Sent Events)")
    def get(self, request, game_id):
        game = access.get_game(game_id, user=request.user)
        access.require_visible(game, request.user)
        after = _cursor(request)
        reader = GameReader(game, request.user, access.seat_of(game, request.user),
                            game.version if after is None else after, chat.latest_id(game))
        reader.guard = guard_of(request, game)
        return _event_stream(reader)


# ---------------------------------------------------------------------------------------------
# A user's own stream
# ---------------------------------------------------------------------------------------------
class UserReader:
    LIVE = (Game.Status.OPEN, Game.Status.ACTIVE)
    guard: Guard | None = None

    def __init__(self, user, after: int):
        self.user, self.after, self.ready = user, after, False
        self.games: dict[str, tuple] = {}  # game id -> what was last said of it

    def channels(self) -> list[str]:
        return [live.user_channel(self.user.pk), *(live.channel(g) for g in self.games)]

    async def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
        return await live.run_sync(self.read_now)

    def read_now(self) -> tuple[list[str], bool]:
        chunks = []
        notes = list(Notification.objects.filter(user=self.user, id__gt=self.after).order_by("id")[:BATCH])
        seats = (Seat.objects.filter(user=self.user)
                 .filter(Q(game__status__in=self.LIVE) | Q(game_id__in=list(self.games)))
                 .select_related("game"))
        seen = set()
        for seat in seats:
            game, key = seat.game, str(seat.game_id)
            seen.add(key)
            turn = seat.number in (game.active_seats or [])
            said = (game.status, turn)
            if self.games.get(key) != said:
                chunks.append(sse({"game": key, "kind": game.kind, "status": game.status,
                                   "version": game.version, "your_seat": seat.number,
                                   "active_seats": game.active_seats or [], "your_turn": turn,
                                   "result": game.result}, event="game"))
            if game.status in self.LIVE:
                self.games[key] = said
            else:
                self.games.pop(key, None)  # said once that it ended; no longer followed
        for gone in set(self.games) - seen:  # left a lobby
            self.games.pop(gone)
            chunks.append(sse({"game": gone, "your_seat": None}, event="game"))
        if not self.ready:
            chunks.insert(0, sse({"after": self.after}, event="ready"))
            self.ready = True
        for note in notes:
            chunks.append(sse(NotificationOut(note).data, event="notification", id=note.pk))
        if notes:
            self.after = notes[-1].pk
        return chunks, len(notes) == BATCH


class UserStreamView(APIView):
    authentication_classes = STREAM_AUTH
    renderer_classes = STREAM_RENDERERS

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="resume after this notification id "
                                                                "(or Last-Event-ID); default: only new ones"),
                    OpenApiParameter("ticket", str, description="a stream ticket, instead of the header"),
                    OpenApiParameter("Last-Event-ID", str, OpenApiParameter.HEADER)],
        responses={(200, "text/event-stream"): OpenApiResponse(
            USER_STREAM, description="text/event-stream (`x-sse-events`: each event name's data). "
            "`event: ready`; `event: game` (no id) for "
            "each of your open or active games on connect and whenever its status or your turn changes; "
            "`event: notification`, `id:` = the notification's id, data as in /notifications/; "
            "`event: end` (then the stream closes): its token was revoked or expired."),
            400: OpenApiResponse(description="invalid"), 401: OpenApiResponse(description="not_authenticated")},
        extensions=USER_STREAM_EXTENSIONS,
        summary="Your own news across games (Server-Sent Events)")
    def get(self, request):
        after = _cursor(request)
        if after is None:
            after = Notification.objects.filter(user=request.user).order_by("-id").values_list("id", flat=True).first() or 0
        reader = UserReader(request.user, after)
        reader.guard = guard_of(request)
        return _event_stream(reader)


game_stream = asynchronous(GameStreamView)
user_stream = asynchronous(UserStreamView)
