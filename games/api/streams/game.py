"""A game's stream (GET /games/{id}/stream/): its view, and the reader that sends the game's log
as the caller may see it; `Followed` frames the same for a user stream that carries the game."""

from __future__ import annotations

from typing import Any

from django.http import StreamingHttpResponse
from django.utils.translation import get_language, gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from games.api.streams.guard import Guard, guard_of
from games.api.streams.loop import STREAM_AUTH, STREAM_RENDERERS, event_stream, sse
from games.api.streams.schema import GAME_STREAM, GAME_STREAM_EXTENSIONS, STREAM_DOC, STREAM_REFUSALS
from games.api.streams.tails import BATCH, tails
from games.api.streams.views import WaitingView
from games.community import chat
from games.errors import Invalid, NotFound
from games.models import Game
from games.play import access, store
from games.realtime import channels, limits, threads


class GameStreamView(WaitingView):
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
    async def get(self, request, game_id):
        return await self.off_the_loop(self.open, request, game_id)

    def open(self, request, game_id) -> StreamingHttpResponse:
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
        return event_stream(request, reader)


class GameReader:
    """What a game's stream sends: `event: ready`, one message per event (`id:` its seq), `chat`.
    `Followed` frames the very same data for a user stream that carries the game."""

    guard: Guard | None = None
    places: "limits.Places | None" = None

    def __init__(self, game: Game, user, seat: int | None, after: int, chat_after: int = 0):
        self.game_id, self.user, self.seat, self.after, self.ready = game.pk, user, seat, after, False
        self.chat_after = chat_after  # the last chat message sent (only new ones are streamed)

    def channels(self) -> list[str]:
        return [channels.channel(self.game_id), channels.chat_channel(self.game_id)]

    def frame(self, data: dict, event: str | None = None, id: int | None = None) -> str:
        return sse(data, event=event, id=id)

    async def _chat(self, game: Game, hints: dict[str, int]) -> list[str]:
        """New chat messages, as `event: chat` (no id: they are not events of the log). Read only
        when the chat channel announced one newer than the last sent, or without hints (the first
        read, a poll, a reconnect): a stream woken by a move does not read the chat."""
        announced = hints.get(channels.chat_channel(self.game_id))
        if hints and (announced is None or announced <= self.chat_after):
            return []
        # A read off the event loop, like every database read of a waiting stream.
        messages = await threads.run_sync(chat.new_for_stream, game, self.seat, self.chat_after, BATCH)
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
        tail = await tails.get(
            self.game_id, self.after, hints.get(channels.channel(self.game_id)), spectator=self.seat is None
        )
        game, rows = tail.game, [r for r in tail.rows if r.seq > self.after][:BATCH]
        seats_move = any(r.type in (store.PLAYER_JOINED, store.PLAYER_LEFT) for r in rows)
        if game.status == Game.Status.OPEN or seats_move:
            self.seat = await threads.run_sync(access.seat_of, game, self.user)
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


def followed(game_id: str, user, after: int | None) -> Followed | str:
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
