"""What each `event:` of a stream carries, and what the streams' operations say, for the OpenAPI
document.

OpenAPI has no form for Server-Sent Events: a stream's response schema is a `oneOf` of one schema
per event name (so every generator types the data as a union of named types), and the operation's
`x-sse-events` maps each `event:` name to its schema (an SSE message's name travels in the frame,
not in the JSON, so no discriminator can say it). docs/api-contract.md says why."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, PolymorphicProxySerializer
from rest_framework import serializers

from games.api.notifications import NotificationOut
from games.api.serializers import ChatOut, EventField, ResultField


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


class UserStreamTournament(serializers.Serializer):
    """A tournament of yours, or one your stream follows, changed: read its page again
    (GET /tournaments/{id}/)."""

    tournament = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["registering", "running", "finished", "cancelled"])
    paused = serializers.BooleanField()
    current_round = serializers.IntegerField(help_text="0 before the start")
    registered = serializers.IntegerField(help_text="players registered and not withdrawn")
    games = serializers.IntegerField(help_text="the games of its rounds so far")
    games_over = serializers.IntegerField(help_text="of which over")
    results = serializers.IntegerField(help_text="of which the places are recorded in the standings")


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
    "tournament": UserStreamTournament,
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


USER_STREAM_DOC = (
    "text/event-stream (`x-sse-events`: each event name's data). `event: ready` first, with the "
    "stream's id (`stream`: add or drop games with /stream/{stream}/games/); `event: game` (no id) "
    "for each of your open or active games on connect and whenever its status or your turn changes; "
    "`event: notification`, `id:` = the notification's id, data as in /notifications/. "
    "The games it follows (yours, unless `own=false`; those named in `games`; those added since) "
    "come as on each game's own stream, with the game's id in the data (`game`) and `game-` before "
    "each event name: `game-ready`, `game-event` (`id:` = `<game>:<seq>`), `game-chat`; "
    "`game-end` when a game may not (or no longer) be seen, which then stops following it. "
    "`event: tournament` (no id) for each tournament you play in or organise, or follow "
    "(POST /stream/{stream}/tournaments/), while it is open or running, on connect and whenever it "
    "changes (a player in or out, a game over, the standings, a round, a pause); once more when it "
    "ends or you leave it. "
    "`: keep-alive` comments every LIVE_HEARTBEAT_SECONDS. `event: end` (then the stream closes): "
    "its token was revoked or expired."
)
