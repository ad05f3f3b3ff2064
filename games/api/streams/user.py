"""A user's own stream (GET /stream/): their notifications, their games' changes, and the events of
the games it follows, each as that game's own stream sends them."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.http import StreamingHttpResponse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from redis.exceptions import RedisError

from games.api.notifications import NotificationOut
from games.api.streams.game import Followed, followed
from games.api.streams.guard import Guard, guard_of
from games.api.streams.loop import STREAM_AUTH, STREAM_RENDERERS, event_stream, sse
from games.api.streams.schema import STREAM_REFUSALS, USER_STREAM, USER_STREAM_DOC, USER_STREAM_EXTENSIONS
from games.api.streams.tails import BATCH
from games.api.streams.tournaments import TournamentNews
from games.api.streams.views import WaitingView
from games.errors import Invalid
from games.models import Game, Notification, Seat
from games.realtime import channels, hub, limits, threads

STREAM_KEY_SECONDS = 24 * 3600  # an open user stream's Redis hash outlives any stream (a crash's too)


class UserStreamView(WaitingView):
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
    async def get(self, request):
        return await self.off_the_loop(self.open, request)

    def open(self, request) -> StreamingHttpResponse:
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
        return event_stream(request, reader)


class UserReader:
    """A user's own stream: their notifications, a `game` summary when one of their games changes,
    and the events of the games it follows (each as its own stream would send them, `Followed`):
    the user's open and active games unless asked not to (`own`), and the games named on connect
    or added since over HTTP (`StreamGamesView`), kept in the stream's Redis hash so that a change
    made through any process reaches the one that holds the stream (news.change_stream)."""

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
        self.tournaments = TournamentNews(user)

    def channels(self) -> list[str]:
        return [
            channels.user_channel(self.user.pk),
            channels.stream_channel(self.stream_id),
            *(channels.channel(g) for g in self.games),
            *(name for reader in self.followed.values() for name in reader.channels()),
            *self.tournaments.channels(),
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
        name = channels.stream_key(self.stream_id)
        if not self.opened_key:
            fields = {
                "user": str(self.user.pk),
                "games": "0",
                **{f"g:{g}": "" if a is None else str(a) for g, a in self.named.items()},
            }
            async with (await hub.hub()).commanding() as commands, commands.pipeline(transaction=True) as pipe:
                pipe.hset(name, mapping=fields)
                pipe.expire(name, STREAM_KEY_SECONDS)
                await pipe.execute()
            self.opened_key = True
            return dict(self.named)
        async with (await hub.hub()).commanding() as commands:
            raw = await commands.hgetall(name)
        self.tournaments.follow(k.decode()[2:] for k in raw if k.startswith(b"t:"))
        return {k.decode()[2:]: (int(v) if v else None) for k, v in raw.items() if k.startswith(b"g:")}

    async def close(self) -> None:
        if self.opened_key:
            async with (await hub.hub()).commanding() as commands:
                await commands.delete(channels.stream_key(self.stream_id))

    async def read(self, hints: dict[str, int]) -> tuple[list[str], bool]:
        the_hub = await hub.hub()
        # Before any read: what the hub has heard so far (news from now on wakes the stream again).
        control = self._news(the_hub, hints, [channels.stream_channel(self.stream_id)])
        own = self._news(
            the_hub, hints, [channels.user_channel(self.user.pk), *(channels.channel(g) for g in self.games)]
        )
        games = {g: self._news(the_hub, hints, r.channels()) for g, r in self.followed.items()}
        # A registration or a new tournament of theirs wakes the user's own channel (as any notice
        # does: then only whether their tournaments are the same ones is read).
        members = self._news(the_hub, hints, [channels.user_channel(self.user.pk)])
        tournaments = self._news(the_hub, hints, self.tournaments.channels())
        chunks, more = [], False
        if self._changed("control", control):
            try:
                self.asked = await self._asked_games()
            except RedisError:
                pass  # Redis away: the games asked for stay as they were; read again on reconnect
        if self._changed("own", own) or not self.ready:
            news, more = await threads.run_sync(self.read_now)
            chunks += news
        heard = self._changed("tournaments", tournaments) or not self.ready or self.tournaments.anew
        if self._changed("tournament-members", members) or heard:
            chunks += await threads.run_sync(self.tournaments.read_now, heard)
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
            reader = await threads.run_sync(followed, game_id, self.user, after)
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
            if found and reader.guard and await threads.run_sync(reader.guard.ended):
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
