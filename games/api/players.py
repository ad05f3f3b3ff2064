"""Public profiles and leaderboards: reads only (ratings are written by accounts.ratings)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Rating, RatingChange, User
from config import database
from games.api.params import Pagination, page_parameters
from games.api.serializers import ErrorOut
from games.errors import NotFound
from games.play.kinds import all_kinds

HISTORY = 100  # the latest rated games shown per kind


def profile(username: str, viewer) -> dict[str, Any]:
    """Four queries: the user, their finished seats (the winners only, not the whole results),
    their ratings, their latest rating changes. The history names only games the viewer may see:
    a private game is not there for anyone but its players and invitees (docs/social.md)."""
    from games.models import Game, Seat
    from games.community.social import visible_to

    # PostgreSQL text cannot hold NUL: such a name (from a %00 in the path) is nobody.
    user = None if "\x00" in username else User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise NotFound(gettext("no player '%(username)s'") % {"username": username})
    kinds: dict[str, dict[str, Any]] = {}

    def of(kind):
        return kinds.setdefault(kind, {"kind": kind, "played": 0, "won": 0, "rating": None, "history": []})

    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).values_list(
        "game__kind", "number", "game__result__winners", "game__result__aborted", "game__result__cooperative__won"
    )
    for kind, number, winners, aborted, together in seats:
        if aborted:
            continue  # counts for nobody
        entry = of(kind)
        entry["played"] += 1
        # A cooperative game its team lost is won by nobody, whatever its `winners` say
        # (Photoshoot rules version 1 named every seat of a lost cooperative game a winner).
        entry["won"] += number in (winners or []) and together is not False
    for rating in Rating.objects.filter(user=user):
        of(rating.kind)["rating"] = {
            "rating": rating.rating,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": rating.games,
        }
    changes = RatingChange.objects.filter(user=user, game__in=visible_to(Game.objects.all(), viewer)).order_by(
        "-at", "-pk"
    )[: HISTORY * len(all_kinds())]
    for change in changes:
        history = of(change.kind)["history"]
        if len(history) < HISTORY:
            history.append(
                {
                    "game": change.game_id,
                    "at": change.at,
                    "place": change.place,
                    "before": change.rating_before,
                    "after": change.rating_after,
                    "delta": round(change.rating_after - change.rating_before, 2),
                }
            )
    for entry in kinds.values():
        entry["history"].reverse()  # oldest first, as a chart draws it
    return {
        "username": user.username,
        "date_joined": user.date_joined,
        "is_bot": user.is_bot,
        "bot_level": user.bot_level,
        "kinds": [kinds[kind] for kind in sorted(kinds)],
        "tournaments": tournament_results(user, viewer),
    }


def tournament_results(user, viewer) -> list[dict[str, Any]]:
    """The player's finished tournaments, latest first, with their final place: the public ones,
    and the private ones the viewer took part in or organised."""
    from django.db.models import Count, Q

    from games.models import Registration, Tournament

    mine = Q(tournament__private=False)
    if viewer.is_authenticated:
        mine |= Q(tournament__organiser=viewer) | Q(tournament__registrations__user=viewer)
    rows = (
        Registration.objects.filter(
            mine, user=user, tournament__status=Tournament.Status.FINISHED, final_rank__isnull=False
        )
        .select_related("tournament")
        .distinct()
        .order_by("-tournament__finished_at")[:HISTORY]
    )
    counts = dict(
        Registration.objects.filter(tournament__in=[r.tournament_id for r in rows], number__isnull=False)
        .values("tournament_id")
        .annotate(n=Count("pk"))
        .values_list("tournament_id", "n")
    )
    return [
        {
            "id": r.tournament_id,
            "name": r.tournament.name,
            "kind": r.tournament.kind,
            "format": r.tournament.format,
            "finished_at": r.tournament.finished_at,
            "rank": r.final_rank,
            "players": counts.get(r.tournament_id, 0),
        }
        for r in rows
    ]


class RatingOut(serializers.Serializer):
    rating = serializers.FloatField(help_text="mu - 3 sigma: what leaderboards rank on")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField(help_text="rated games")


class RatingPointOut(serializers.Serializer):
    game = serializers.UUIDField()
    at = serializers.DateTimeField()
    place = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    delta = serializers.FloatField()


class KindRecordOut(serializers.Serializer):
    kind = serializers.CharField()
    played = serializers.IntegerField(help_text="finished games (rated or not; aborted ones do not count)")
    won = serializers.IntegerField()
    rating = RatingOut(allow_null=True, help_text="null: no rated game of this kind yet")
    history = RatingPointOut(many=True, help_text=f"the latest {HISTORY} rated games, oldest first")


class TournamentResultOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    kind = serializers.CharField()
    format = serializers.ChoiceField(choices=["swiss", "round_robin", "knockout"])
    finished_at = serializers.DateTimeField()
    rank = serializers.IntegerField(help_text="the place in the final standings")
    players = serializers.IntegerField()


class ProfileOut(serializers.Serializer):
    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    is_bot = serializers.BooleanField(help_text="a computer player (docs/bots.md)")
    bot_level = serializers.IntegerField(allow_null=True, help_text="the site's own bots: 1-3")
    kinds = KindRecordOut(many=True)
    tournaments = TournamentResultOut(many=True, help_text=f"finished tournaments, latest first (at most {HISTORY})")


class PlayerView(APIView):
    @extend_schema(
        responses={200: ProfileOut, 404: OpenApiResponse(ErrorOut, description="not_found")},
        summary="A player's record: games played and won, rating and its history, per kind",
    )
    @database.lag_tolerant
    def get(self, request, username):
        return Response(profile(username, request.user))


class LeaderOut(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    is_bot = serializers.BooleanField(help_text="a computer player: bots are rated apart from people (docs/bots.md)")
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class LeaderboardOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LeaderOut(many=True)


class LeaderboardView(APIView):
    @extend_schema(
        parameters=page_parameters(),
        responses={
            200: LeaderboardOut,
            400: OpenApiResponse(ErrorOut, description="invalid"),
            404: OpenApiResponse(ErrorOut, description="not_found"),
        },
        summary="The kind's rated players, best rating first",
    )
    @database.lag_tolerant
    def get(self, request, kind):
        if kind not in all_kinds():
            raise NotFound(gettext("no game kind '%(kind)s'") % {"kind": kind})
        rows = (
            Rating.objects.filter(kind=kind, user__is_active=True, games__gt=0)
            .select_related("user")
            .order_by("-rating", "user__username")
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        first = paginator.offset + 1
        return paginator.get_paginated_response(
            [
                {
                    "rank": first + i,
                    "username": r.user.username,
                    "is_bot": r.user.is_bot,
                    "rating": r.rating,
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "games": r.games,
                }
                for i, r in enumerate(page)
            ]
        )
