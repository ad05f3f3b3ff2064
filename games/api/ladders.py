"""HTTP for ladders (docs/tournaments.md, "Ladder"; use cases: games.community.ladders): a kind's
ladder, joining and leaving it, challenging, and the defender's answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.serializers import parse
from games.api.views import ERRORS
from games.community import ladders
from games.models import Challenge

LADDER_ERRORS = {
    **ERRORS,
    **{
        code: OpenApiResponse(s.ErrorOut, description=text)
        for code, text in {
            403: "forbidden (not on the ladder, not the player challenged)",
            409: "already_joined / tournament_closed (a challenge open already, answered or expired)",
        }.items()
    },
}


class ChallengeIn(s.StrictInput):
    # No NUL (PostgreSQL's text cannot hold one): the document says so, as for every free string.
    defender = serializers.RegexField(
        r"^[^\x00]*$", max_length=150, help_text="the username of a player up to `reach` places above you"
    )


class ChallengeOut(serializers.Serializer):
    id = serializers.IntegerField()
    challenger = serializers.CharField()
    defender = serializers.CharField()
    status = serializers.ChoiceField(choices=Challenge.Status.values)
    game = serializers.UUIDField(allow_null=True, help_text="the challenge's game, once accepted")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="unanswered by then, the challenge goes to the challenger")


class RungOut(serializers.Serializer):
    position = serializers.IntegerField(help_text="1: the top")
    username = serializers.CharField()


class LadderOut(serializers.Serializer):
    kind = serializers.CharField()
    reach = serializers.IntegerField(help_text="how many places above a player may challenge")
    answer_seconds = serializers.IntegerField()
    options = s.OptionsField(help_text="the challenge games' options")
    rungs = RungOut(many=True)
    challenges = ChallengeOut(many=True, help_text="open ones: waiting for an answer, or being played")
    position = serializers.IntegerField(allow_null=True, help_text="yours; null: not on the ladder")


def challenge_out(made: Challenge) -> dict:
    return {
        "id": made.pk,
        "challenger": made.challenger.username,
        "defender": made.defender.username,
        "status": made.status,
        "game": made.game_id,
        "created_at": made.created_at,
        "expires_at": made.expires_at,
    }


def ladder_out(kind: str, user) -> dict:
    ladder = ladders.read(kind)
    rungs = ladders.rungs(ladder)
    return {
        "kind": ladder.kind,
        "reach": ladder.reach,
        "answer_seconds": ladder.answer_seconds,
        "options": ladder.options,
        "rungs": [{"position": r.position, "username": r.user.username} for r in rungs],
        "challenges": [challenge_out(c) for c in ladders.open_challenges(ladder)],
        "position": next((r.position for r in rungs if r.user_id == user.pk), None),
    }


class LadderView(APIView):
    @extend_schema(responses={200: LadderOut, 404: ERRORS[404]}, summary="A 2-player kind's ladder")
    def get(self, request, kind):
        return Response(ladder_out(kind, request.user))


class JoinLadderView(APIView):
    @extend_schema(request=None, responses={200: LadderOut, **LADDER_ERRORS}, summary="Join at the bottom")
    def post(self, request, kind):
        ladders.join(kind, request.user)
        return Response(ladder_out(kind, request.user))


class LeaveLadderView(APIView):
    @extend_schema(
        request=None, responses={200: LadderOut, **LADDER_ERRORS}, summary="Step off (the players below move up one)"
    )
    def post(self, request, kind):
        ladders.leave(kind, request.user)
        return Response(ladder_out(kind, request.user))


class ChallengesView(APIView):
    @extend_schema(
        request=ChallengeIn,
        responses={201: ChallengeOut, **LADDER_ERRORS},
        summary="Challenge a player up to `reach` places above you",
    )
    def post(self, request, kind):
        ladders.read(kind)  # 404 for a kind with no ladder, before the body is judged
        data = parse(ChallengeIn, request.data)
        return Response(
            challenge_out(ladders.challenge(kind, request.user, data["defender"])), status=status.HTTP_201_CREATED
        )


class ChallengeAnswer(APIView):
    accepting = True

    @extend_schema(request=None, responses={200: ChallengeOut, **LADDER_ERRORS})
    def post(self, request, challenge_id):
        act = ladders.accept if self.accepting else ladders.decline
        return Response(challenge_out(act(challenge_id, request.user)))


class AcceptChallengeView(ChallengeAnswer):
    accepting = True


class DeclineChallengeView(ChallengeAnswer):
    accepting = False
