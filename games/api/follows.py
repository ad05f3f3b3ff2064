"""Following games and tournaments on an open user stream (docs/api.md#live-updates): the stream
names its id in `event: ready`; these requests add or drop a game or a tournament from any process,
and the process holding the stream hears the change on Redis (games.realtime.news.change_stream)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import ErrorOut, StrictInput, parse
from games.community import tournament_lookup
from games.errors import Invalid, NotFound
from games.play import access
from games.realtime import news


class FollowIn(StrictInput):
    game = serializers.UUIDField()
    after = serializers.IntegerField(
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
        help_text="resume after this event's seq; default: from the present",
    )


class FollowOut(serializers.Serializer):
    stream = serializers.CharField()
    game = serializers.UUIDField()
    after = serializers.IntegerField(allow_null=True)


def _change(request, stream_id: str, game_id: str, after: int | None, follow: bool) -> None:
    if follow:
        access.require_visible(access.get_game(game_id, user=request.user), request.user)
    most = settings.LIVE_STREAM_GAMES
    why = news.change_stream(stream_id, request.user.pk, game_id, after, follow, most)
    if why == "stream":
        raise NotFound(gettext("no such open stream of yours"))
    if why == "full":
        raise Invalid(gettext("a stream follows at most %(most)s games") % {"most": most}, most=most)


class StreamGamesView(APIView):
    """Add a game to an open user stream, from any process: the one holding it hears it on Redis."""

    @extend_schema(
        request=FollowIn,
        responses={
            202: FollowOut,
            400: OpenApiResponse(ErrorOut, description="invalid (a stream already at LIVE_STREAM_GAMES)"),
            404: OpenApiResponse(ErrorOut, description="not_found"),
        },
        summary="Follow a game on your open stream",
    )
    def post(self, request, stream_id):
        data = parse(FollowIn, request.data)
        game_id = str(data["game"])
        _change(request, stream_id, game_id, data["after"], True)
        return Response({"stream": stream_id, "game": game_id, "after": data["after"]}, status=202)


class StreamGameView(APIView):
    @extend_schema(
        responses={204: None, 404: OpenApiResponse(ErrorOut, description="not_found")},
        summary="Stop following a game on your open stream",
    )
    def delete(self, request, stream_id, game_id):
        # In the path, an id that is no game's names nothing: 404, as every game route answers.
        try:
            game_id = str(uuid.UUID(game_id))
        except ValueError:
            raise NotFound(gettext("no such game")) from None
        _change(request, stream_id, game_id, None, False)
        return Response(status=204)


class TournamentFollowIn(StrictInput):
    tournament = serializers.UUIDField()


class TournamentFollowOut(serializers.Serializer):
    stream = serializers.CharField()
    tournament = serializers.UUIDField()


def _change_tournament(request, stream_id: str, tournament_id: str, follow: bool) -> None:
    if follow:
        # One its user may not see is as one that does not exist: 404, as its page answers.
        tournament_lookup.get(tournament_id, user=request.user)
    most = settings.LIVE_STREAM_TOURNAMENTS
    why = news.change_stream(stream_id, request.user.pk, tournament_id, None, follow, most, part="t")
    if why == "stream":
        raise NotFound(gettext("no such open stream of yours"))
    if why == "full":
        raise Invalid(gettext("a stream follows at most %(most)s tournaments") % {"most": most}, most=most)


class StreamTournamentsView(APIView):
    """Add a tournament to an open user stream: its `tournament` messages, as a player's."""

    @extend_schema(
        request=TournamentFollowIn,
        responses={
            202: TournamentFollowOut,
            400: OpenApiResponse(ErrorOut, description="invalid (a stream already at LIVE_STREAM_TOURNAMENTS)"),
            404: OpenApiResponse(
                ErrorOut, description="not_found (no such stream of yours, or tournament you may see)"
            ),
        },
        summary="Follow a tournament on your open stream",
    )
    def post(self, request, stream_id):
        data = parse(TournamentFollowIn, request.data)
        tournament_id = str(data["tournament"])
        _change_tournament(request, stream_id, tournament_id, True)
        return Response({"stream": stream_id, "tournament": tournament_id}, status=202)


class StreamTournamentView(APIView):
    @extend_schema(
        responses={204: None, 404: OpenApiResponse(ErrorOut, description="not_found")},
        summary="Stop following a tournament on your open stream",
    )
    def delete(self, request, stream_id, tournament_id):
        try:
            tournament_id = str(uuid.UUID(tournament_id))
        except ValueError:
            raise NotFound(gettext("no such tournament")) from None
        _change_tournament(request, stream_id, tournament_id, False)
        return Response(status=204)
