"""HTTP for what happens around a game: resign, abort, silent seats, chat, invitations, join
links, rematches, open seeks and games to spectate (services: games.community.social, games.community.chat,
games.community.invitations)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config import database
from games.community import chat, invitations, social
from games.play import access, selectors
from games.api import serializers as s
from games.api.params import Pagination, page_parameters, single
from games.api.params import whole as int_param
from games.api.serializers import parse
from games.api.views import ERRORS
from games.models import ChatMessage


# ---------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------
class ClaimIn(s.StrictInput):
    seat = serializers.IntegerField(min_value=0, help_text="the silent seat to declare out")


class AbortOut(serializers.Serializer):
    aborted = serializers.BooleanField(help_text="true: the game is aborted (status `aborted`)")
    votes = serializers.ListField(child=serializers.IntegerField(), help_text="seats voting to abort")
    needed = serializers.ListField(child=serializers.IntegerField(), help_text="the seats still in: all must vote")
    alone = serializers.BooleanField(help_text="true while some seat has not moved: one seat's call aborts")
    status = serializers.CharField()
    version = serializers.IntegerField()


class ChatIn(s.StrictInput):
    channel = serializers.ChoiceField(choices=ChatMessage.Channel.values)
    text = serializers.CharField(
        max_length=settings.CHAT_MAX_LENGTH,
        trim_whitespace=False,
        help_text="plain text, at most CHAT_MAX_LENGTH characters (500); "
        "not only blanks, no control characters but tab and newline",
    )


class ReportIn(s.StrictInput):
    reason = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    message = serializers.IntegerField(source="message_id")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class InviteIn(s.StrictInput):
    invite = serializers.ListField(child=serializers.CharField(max_length=150), max_length=10, help_text="usernames")


class InvitationOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.UUIDField()
    kind = serializers.CharField()
    invitee = serializers.CharField()
    invited_by = serializers.CharField(allow_null=True)
    rematch = serializers.BooleanField()
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "cancelled", "expired"])
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    responded_at = serializers.DateTimeField(allow_null=True)


def _abort(state: social.AbortState) -> dict:
    return {
        "aborted": state.aborted,
        "votes": state.votes,
        "needed": state.needed,
        "alone": state.alone,
        "status": state.game.status,
        "version": state.game.version,
    }


def _visible(game_id, request) -> None:
    """404 for a game the caller may not see, before the body is judged (no 400 betrays it)."""
    access.require_visible(access.get_game(game_id, user=request.user), request.user)


def _detail(game, request, code=status.HTTP_200_OK) -> Response:
    return Response(selectors.detail(game, request.user), status=code)


# ---------------------------------------------------------------------------------------------
# In a game
# ---------------------------------------------------------------------------------------------
class ResignView(APIView):
    @extend_schema(
        request=None,
        responses={200: s.GameDetailOut, **ERRORS},
        summary="Resign: your seat is out; the others play on, or the last one wins",
    )
    def post(self, request, game_id):
        return _detail(social.resign(game_id, request.user), request)


class AbortView(APIView):
    @extend_schema(responses={200: AbortOut, **ERRORS}, summary="The abort votes of a game")
    def get(self, request, game_id):
        return Response(_abort(social.abort_votes(game_id, request.user)))

    @extend_schema(
        request=None,
        responses={200: AbortOut, **ERRORS},
        summary="Abort (before every seat has moved), or vote to abort (after)",
    )
    def post(self, request, game_id):
        return Response(_abort(social.vote_abort(game_id, request.user)))

    @extend_schema(responses={200: AbortOut, **ERRORS}, summary="Withdraw your vote to abort")
    def delete(self, request, game_id):
        return Response(_abort(social.withdraw_abort_vote(game_id, request.user)))


class ClaimForfeitView(APIView):
    @extend_schema(
        request=ClaimIn,
        responses={200: s.GameDetailOut, **ERRORS},
        summary="Declare a silent seat out (a game without a clock, after VANISHED_AFTER_DAYS)",
    )
    def post(self, request, game_id):
        _visible(game_id, request)
        data = parse(ClaimIn, request.data)
        return _detail(social.claim_forfeit(game_id, request.user, data["seat"]), request)


class ChatView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "channel",
                str,
                enum=ChatMessage.Channel.values,
                description="default: players for a seat, else spectators",
            ),
            OpenApiParameter("after", {"type": "integer", "minimum": 0}, description="only messages with a larger id"),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 500}),
        ],
        responses={200: s.ChatOut(many=True), **ERRORS},
        summary="A chat channel of the game",
    )
    def get(self, request, game_id):
        channel = single(request, "channel")
        after = int_param(request, "after", 0, 0)
        limit = int_param(request, "limit", 100, 1, 500)
        if channel is None:
            game = access.get_game(game_id, user=request.user)
            channel = "players" if access.seat_of(game, request.user) is not None else "spectators"
        return Response(chat.messages(game_id, request.user, channel, after, limit))

    @extend_schema(request=ChatIn, responses={201: s.ChatOut, **ERRORS}, summary="Say something")
    def post(self, request, game_id):
        _visible(game_id, request)
        data = parse(ChatIn, request.data)
        return Response(chat.post(game_id, request.user, data["channel"], data["text"]), status=status.HTTP_201_CREATED)


class ChatReportView(APIView):
    @extend_schema(request=ReportIn, responses={201: ReportOut, **ERRORS}, summary="Report a message to staff")
    def post(self, request, game_id, message_id):
        _visible(game_id, request)
        data = parse(ReportIn, request.data)
        report = chat.report(game_id, request.user, message_id, data["reason"])
        return Response(ReportOut(report).data, status=status.HTTP_201_CREATED)


# ---------------------------------------------------------------------------------------------
# Around games
# ---------------------------------------------------------------------------------------------
class GameInvitationsView(APIView):
    @extend_schema(responses={200: InvitationOut(many=True), **ERRORS}, summary="The game's invitations")
    def get(self, request, game_id):
        return Response([invitations.serve(i) for i in invitations.for_game(game_id, request.user)])

    @extend_schema(
        request=InviteIn,
        responses={201: InvitationOut(many=True), **ERRORS},
        summary="Invite users to your private game",
    )
    def post(self, request, game_id):
        _visible(game_id, request)
        data = parse(InviteIn, request.data)
        made = invitations.invite(game_id, request.user, data["invite"])
        return Response([invitations.serve(i) for i in made], status=status.HTTP_201_CREATED)


class InvitationsView(APIView):
    @extend_schema(responses={200: InvitationOut(many=True)}, summary="Your invitations, newest first")
    def get(self, request):
        return Response([invitations.serve(i) for i in invitations.mine(request.user)])


class InvitationAction(APIView):
    accepting = True

    @extend_schema(request=None, responses={200: InvitationOut, **ERRORS})
    def post(self, request, invitation_id):
        act = invitations.accept if self.accepting else invitations.decline
        return Response(invitations.serve(act(invitation_id, request.user)))


class AcceptView(InvitationAction):
    accepting = True


class DeclineView(InvitationAction):
    accepting = False


class JoinByCodeView(APIView):
    @extend_schema(
        request=None,
        responses={200: s.GameDetailOut, **ERRORS},
        summary="Take a seat through a private game's join link",
    )
    def post(self, request, code):
        return _detail(invitations.join_by_code(code, request.user), request)


class RematchView(APIView):
    @extend_schema(
        request=None,
        responses={201: s.GameDetailOut, **ERRORS},
        summary="Play again: the same players and options, a new seed; the others are invited",
    )
    def post(self, request, game_id):
        return _detail(invitations.rematch(game_id, request.user), request, status.HTTP_201_CREATED)


def _page(view, request, games):
    paginator = Pagination()
    page = paginator.paginate_queryset(games, request, view=view)
    seats = dict(request.user.seats.filter(game__in=page).values_list("game_id", "number"))
    return paginator.get_paginated_response([selectors.summary(g, seats.get(g.pk)) for g in page])


class SeeksView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("kind", str),
            OpenApiParameter("players", {"type": "integer", "minimum": 1, "maximum": 20}, description="seats offered"),
            OpenApiParameter("time_control", str, enum=list(social.TIME_CONTROLS)),
            *page_parameters(),
        ],
        responses={200: s.GamesPageOut, 400: ERRORS[400]},
        summary="Open seeks: public games waiting for players, the longest waiting first",
    )
    @database.lag_tolerant
    def get(self, request):
        players = int_param(request, "players", 0, 1, 20) if single(request, "players") is not None else None
        games = social.seeks(single(request, "kind"), players, single(request, "time_control"))
        return _page(self, request, games)


class SpectateView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("kind", str), *page_parameters()],
        responses={200: s.GamesPageOut, 400: ERRORS[400]},
        summary="Public games in progress, to watch",
    )
    @database.lag_tolerant
    def get(self, request):
        return _page(self, request, social.spectatable(single(request, "kind")))
