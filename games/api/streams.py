"""Server-Sent Events and the long-poll: the async views that wait (see games.live).

Each view's sync part (authentication, throttling, access checks, parsing) is an ordinary DRF
view, run off the event loop by `asynchronous`; what it returns may be a stream, whose async
iterator then runs on the loop, sleeping on Redis and reading the database only to send.

    GET /games/{id}/stream/   the game's log as you may see it (selectors.describe, as /events/),
                              `id:` = seq; resume with Last-Event-ID (or ?after=N)
    GET /stream/              your own news across games: notifications, and each of your games
                              when it starts, finishes or the turn comes to you
    POST /stream-tickets/     a single-use ticket (?ticket=) for browsers' EventSource
"""
from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from typing import Any, Callable

import redis
from django.conf import settings
from django.db.models import Q
from django.http import StreamingHttpResponse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import authentication, exceptions, renderers, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from games.api.serializers import EventField
from games import access, live, selectors, store
from games.api.notifications import NotificationOut
from games.errors import DomainError, Invalid
from games.models import Game, Notification, Seat

RETRY_MS = 2000
BATCH = 100


class Unavailable(DomainError):
    status, code = 503, "unavailable"


# ---------------------------------------------------------------------------------------------
# Async entry for DRF views
# ---------------------------------------------------------------------------------------------
def _respond(view: Callable, request, kwargs: dict[str, Any]):
    response = view(request, **kwargs)
    if hasattr(response, "render") and getattr(response, "long_poll", None) is None:
        response.render()
    return response


def asynchronous(view_class: type[APIView]):
    """An async Django view running `view_class` off the loop; a long-poll answer (one carrying
    `long_poll`) is finished on the loop, without a thread while it waits."""
    sync_view = view_class.as_view()

    async def view(request, **kwargs):
        response = await live.run_sync(_respond, sync_view, request, kwargs)
        poll = getattr(response, "long_poll", None)
        if poll is not None:
            game_id, after, wait, read_version, reread = poll
            if await live.wait_for_version(game_id, after, wait, read_version) > after:
                response.data = await live.run_sync(reread)
            response.long_poll = None
            await live.run_sync(response.render)
        return response

    # drf-spectacular documents the URL from the DRF view class, as for any APIView.
    view.cls, view.initkwargs, view.csrf_exempt = view_class, {}, True
    view.__name__ = view.__qualname__ = view_class.__name__
    return view


# ---------------------------------------------------------------------------------------------
# Tickets: EventSource cannot set headers, and a long-lived token never goes in a URL
# ---------------------------------------------------------------------------------------------
def _ticket_key(ticket: str) -> str:
    return live.key("ticket", ticket)


class TicketAuthentication(authentication.BaseAuthentication):
    """`?ticket=` from POST /stream-tickets/: short-lived, and consumed by its first use."""

    def authenticate(self, request):
        ticket = request.query_params.get("ticket")
        if not ticket:
            return None
        try:
            found = live.client().getdel(_ticket_key(ticket[:100]))
        except redis.RedisError:
            raise exceptions.AuthenticationFailed("stream tickets are unavailable just now; "
                                                  "send the Authorization header") from None
        from accounts import tokens
        from accounts.models import User

        # "user:token": a ticket is worth no more than the token it was bought with, so one
        # bought before that token was revoked (or expired) opens nothing.
        user_id, _, token_id = (found.decode() if isinstance(found, bytes) else found or "").partition(":")
        user = None
        if user_id and tokens.still_valid(int(token_id) if token_id else None):
            user = User.objects.filter(pk=int(user_id), is_active=True).first()
        if user is None:
            raise exceptions.AuthenticationFailed("unknown, used or expired stream ticket")
        return user, (int(token_id) if token_id else None)

    def authenticate_header(self, request):
        return "Token"


class TicketScheme(OpenApiAuthenticationExtension):
    target_class = TicketAuthentication
    name = "streamTicket"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "query", "name": "ticket",
                "description": "from POST /api/v1/stream-tickets/; single use, short-lived"}


class EventStreamRenderer(renderers.BaseRenderer):
    """Lets a client that accepts only text/event-stream (a browser's EventSource does) through
    content negotiation; the stream itself is a StreamingHttpResponse, and an error is JSON text."""
    media_type, format, charset = "text/event-stream", "sse", "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return b"" if data is None else json.dumps(data, cls=JSONEncoder).encode()


STREAM_RENDERERS = [*api_settings.DEFAULT_RENDERER_CLASSES, EventStreamRenderer]
STREAM_AUTH = [*api_settings.DEFAULT_AUTHENTICATION_CLASSES, TicketAuthentication]


class TicketOut(serializers.Serializer):
    ticket = serializers.CharField()
    expires_in = serializers.IntegerField(help_text="seconds; the ticket also ends at its first use")


class StreamTicketsView(APIView):
    @extend_schema(request=None, responses={201: TicketOut, 503: OpenApiResponse(description="unavailable")},
                   summary="A single-use ticket to open a stream with ?ticket= (for EventSource)")
    def post(self, request):
        ticket, ttl = secrets.token_urlsafe(24), settings.STREAM_TICKET_SECONDS
        try:
            token_id = getattr(request.auth, "pk", "") if request.auth is not None else ""
            live.client().set(_ticket_key(ticket), f"{request.user.pk}:{token_id}", ex=ttl)
        except redis.RedisError:
            raise Unavailable("stream tickets are unavailable just now; send the Authorization "
                              "header, or poll /events/") from None
        return Response({"ticket": ticket, "expires_in": ttl}, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------------
# The stream loop
# ---------------------------------------------------------------------------------------------
def sse(data: Any, event: str | None = None, id: int | None = None) -> str:
    head = (f"id: {id}\n" if id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {json.dumps(data, cls=JSONEncoder, separators=(',', ':'))}\n\n"


async def _stream(reader):
    """Send what `reader.read()` (sync) finds, then sleep until news, a heartbeat or a poll."""
    loop = asyncio.get_running_loop()
    the_hub = await live.hub()
    listener = the_hub.listen(reader.channels())
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    woke = False
    try:
        yield f"retry: {RETRY_MS}\n\n"
        last_sent = loop.time()
        while True:
            listener.clear()  # before reading: news from now on wakes us, even mid-read
            # Woken by news, the reader may share what another reader of the same game just read;
            # after a timeout (a poll, a heartbeat) it asks the database itself.
            hints = the_hub.hints(reader.channels()) if woke else {}
            chunks, more = await live.run_sync(reader.read, hints)
            listener.follow(reader.channels())
            if chunks:
                yield "".join(chunks)
                last_sent = loop.time()
            if reader.guard is not None and reader.guard.due() and not await live.run_sync(reader.guard.holds):
                yield sse({"reason": "your token was revoked or has expired"}, event="end")
                return
            if more:
                woke = False
                continue
            quiet = heartbeat - (loop.time() - last_sent)
            woke = await listener.wait(the_hub.sleep_for(quiet))
            if not woke and loop.time() - last_sent >= heartbeat * 0.99:
                yield ": keep-alive\n\n"
                last_sent = loop.time()
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
# The last tail of events read per game in this process. When a move wakes the game's readers,
# the first reads the database and the others, woken by the same announced version, share it.
_tails: dict[Any, tuple[Game, list]] = {}
_tail_locks = [threading.Lock() for _ in range(64)]


def _read_events(game_id, after: int) -> tuple[Game, list]:
    game = Game.objects.get(pk=game_id)
    # Only rows up to the version read: every message's version then covers its event.
    return game, list(store.events(game, after).filter(seq__lte=game.version)[:BATCH])


def recent_events(game_id, after: int, announced: int | None) -> tuple[Game, list]:
    """The game and its events after `after`; from the shared tail when it is at least as new
    as the version announced, else (and always without an announcement) from the database."""
    if announced is None:
        return _read_events(game_id, after)
    with _tail_locks[hash(game_id) % len(_tail_locks)]:
        cached = _tails.get(game_id)
        if cached is not None:
            game, rows = cached
            covers = rows[0].seq <= after + 1 if rows else game.version <= after
            if game.version >= announced and covers:
                return game, [r for r in rows if r.seq > after][:BATCH]
        game, rows = _read_events(game_id, after)
        if len(rows) < BATCH:
            if len(_tails) > 5000:
                _tails.clear()
            _tails[game_id] = (game, rows)
        return game, rows


class TokenGuard:
    """Whether the token a stream was opened with still stands: asked at most once per heartbeat
    interval, so a revoked or expired token ends its open streams within about that long."""

    def __init__(self, token_id: int):
        self.token_id, self.checked = token_id, time.monotonic()

    def due(self) -> bool:
        return time.monotonic() - self.checked >= settings.LIVE_HEARTBEAT_SECONDS

    def holds(self) -> bool:
        from accounts import tokens

        self.checked = time.monotonic()
        return tokens.still_valid(self.token_id)


def guard_of(request) -> TokenGuard | None:
    """The token behind a request (a header's, or the one a ticket was bought with)."""
    auth = request.auth
    token_id = auth if isinstance(auth, int) else getattr(auth, "pk", None)
    return TokenGuard(token_id) if token_id is not None else None


class GameReader:
    guard: TokenGuard | None = None

    def __init__(self, game: Game, user, seat: int | None, after: int):
        self.game_id, self.user, self.seat, self.after, self.ready = game.pk, user, seat, after, False

    def channels(self) -> list[str]:
        return [live.channel(self.game_id)]

    def head(self, game: Game) -> dict[str, Any]:
        return {"version": game.version, "status": game.status, "your_seat": self.seat,
                "active_seats": game.active_seats or [],
                "your_turn": self.seat is not None and self.seat in (game.active_seats or [])}

    def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
        game, rows = recent_events(self.game_id, self.after, hints.get(live.channel(self.game_id)))
        seats_move = any(r.type in (store.PLAYER_JOINED, store.PLAYER_LEFT) for r in rows)
        if game.status == Game.Status.OPEN or seats_move:
            self.seat = access.seat_of(game, self.user)
        head, chunks = self.head(game), []
        if not self.ready:
            chunks.append(sse({**head, "after": self.after}, event="ready"))
            self.ready = True
        for row in rows:
            chunks.append(sse({**head, "event": selectors.describe(game, row, self.seat)}, id=row.seq))
        if rows:
            self.after = rows[-1].seq
        return chunks, len(rows) == BATCH


class GameStreamMessage(serializers.Serializer):
    version = serializers.IntegerField(help_text="the game's version when this was read")
    status = serializers.CharField()
    your_seat = serializers.IntegerField(allow_null=True)
    active_seats = serializers.ListField(child=serializers.IntegerField())
    your_turn = serializers.BooleanField()
    event = EventField(required=False, help_text="one entry as /events/ shows it to you")
    after = serializers.IntegerField(required=False, help_text="the `ready` message: the resume point")


STREAM_DOC = ("text/event-stream. First `event: ready` (no id), then one message per event, "
              "`id:` = its seq, data = {version, status, your_seat, active_seats, your_turn, event}. "
              "`: keep-alive` comments every LIVE_HEARTBEAT_SECONDS. Reconnect with Last-Event-ID. "
              "`event: end` (then the stream closes): the token it was opened with was revoked or expired.")


class GameStreamView(APIView):
    authentication_classes = STREAM_AUTH
    renderer_classes = STREAM_RENDERERS

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="resume after this seq (or Last-Event-ID)"),
                    OpenApiParameter("ticket", str, description="a stream ticket, instead of the header"),
                    OpenApiParameter("Last-Event-ID", str, OpenApiParameter.HEADER)],
        responses={(200, "text/event-stream"): OpenApiResponse(GameStreamMessage, description=STREAM_DOC),
                   400: OpenApiResponse(description="invalid"), 401: OpenApiResponse(description="not_authenticated"),
                   404: OpenApiResponse(description="not_found")},
        summary="The game's events as they happen (Server-Sent Events)")
    def get(self, request, game_id):
        game = access.get_game(game_id)
        after = _cursor(request)
        reader = GameReader(game, request.user, access.seat_of(game, request.user),
                            game.version if after is None else after)
        reader.guard = guard_of(request)
        return _event_stream(reader)


# ---------------------------------------------------------------------------------------------
# A user's own stream
# ---------------------------------------------------------------------------------------------
class UserReader:
    LIVE = (Game.Status.OPEN, Game.Status.ACTIVE)
    guard: TokenGuard | None = None

    def __init__(self, user, after: int):
        self.user, self.after, self.ready = user, after, False
        self.games: dict[str, tuple] = {}  # game id -> what was last said of it

    def channels(self) -> list[str]:
        return [live.user_channel(self.user.pk), *(live.channel(g) for g in self.games)]

    def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
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
            NotificationOut, description="text/event-stream. `event: ready`; `event: game` (no id) for "
            "each of your open or active games on connect and whenever its status or your turn changes; "
            "`event: notification`, `id:` = the notification's id, data as in /notifications/; "
            "`event: end` (then the stream closes): its token was revoked or expired."),
            400: OpenApiResponse(description="invalid"), 401: OpenApiResponse(description="not_authenticated")},
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
