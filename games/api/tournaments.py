"""HTTP for tournaments (docs/tournaments.md; use cases: games.community.tournament_*): the list,
creating one, its page (standings, rounds and games), registering, withdrawing and the start."""

from __future__ import annotations

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api import serializers as s
from games.api.params import Pagination, page_parameters, single
from games.api.serializers import parse
from games.api.views import ERRORS, ETaggedResponse
from games.community import tournament_lifecycle, tournament_lookup, tournament_registration, tournament_standings
from games.models import Game, Registration, Tournament, TournamentRound, TournamentTable

# The statuses a tournament's writes answer with, and their codes.
TOURNAMENT_ERRORS = {
    **ERRORS,
    **{
        code: OpenApiResponse(s.ErrorOut, description=text)
        for code, text in {
            403: "forbidden (not the organiser, a rating below the minimum, a closed or guest account)",
            409: "tournament_closed / already_joined / wrong_player_count",
            429: "too_many_tournaments / throttled",
        }.items()
    },
}


# ---------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------
class TournamentIn(s.StrictInput):
    name = serializers.CharField(max_length=tournament_lifecycle.NAME_MAX)
    kind = serializers.CharField(max_length=32, help_text="the game (GET /kinds/)")
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    table_size = serializers.IntegerField(
        min_value=2, max_value=20, help_text="seats at every table, within the kind's players"
    )
    options = s.OptionsField(
        required=False,
        default=dict,
        help_text="every game's options (the kind's `...Options` schema); the time control must be per_move or bank",
    )
    rounds = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=tournament_lifecycle.MAX_ROUNDS,
        help_text="a Swiss's rounds (required for a Swiss, null otherwise)",
    )
    through = serializers.IntegerField(
        required=False,
        default=1,
        min_value=1,
        max_value=19,
        help_text="a knockout at tables of 3+: the places that go through",
    )
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="when the server starts it; null: the organiser does"
    )
    capacity = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=2,
        max_value=tournament_lifecycle.MAX_CAPACITY,
        help_text="default 64 (24 for a round robin, also its most)",
    )
    min_rating = serializers.FloatField(
        required=False, allow_null=True, default=None, help_text="the least rating of the kind a player needs"
    )
    private = s.StrictBooleanField(
        required=False, default=False, help_text="hidden from the list; players register by its join code"
    )
    bots_fill = s.StrictBooleanField(
        required=False, default=False, help_text="at the start, bots take the empty seats of the last table"
    )
    bot_level = serializers.IntegerField(required=False, default=2, min_value=1, max_value=3)
    rated = s.StrictBooleanField(
        required=False, default=True, help_text="the games change ratings (not those with bots unless the site allows)"
    )
    round_hours = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=tournament_lifecycle.MAX_ROUND_HOURS,
        help_text="how long a round may last; then its games still in "
        "progress are settled by their timeout policy; null: "
        "a round lasts as long as its games",
    )
    bye_points = serializers.FloatField(
        required=False,
        allow_null=True,
        default=None,
        help_text="what a bye is worth, in half points up to a table winner's "
        "(1 in 2-player games); null: a win, or a table's average",
    )


class TournamentRegisterIn(s.StrictInput):
    # No NUL (PostgreSQL's text cannot hold one): the document says so, as for every free string.
    code = serializers.RegexField(
        r"^[^\x00]*$",
        required=False,
        allow_null=True,
        default=None,
        max_length=64,
        help_text="a private tournament's join code",
    )


class TournamentYouOut(serializers.Serializer):
    registered = serializers.BooleanField(help_text="registered and not withdrawn")
    withdrawn = serializers.BooleanField()
    organiser = serializers.BooleanField()
    game = serializers.UUIDField(allow_null=True, help_text="your game in progress in this round")


class TournamentOut(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    kind = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    status = serializers.ChoiceField(choices=Tournament.Status.values)
    paused = serializers.BooleanField(help_text="held by staff: no next round until unpaused")
    table_size = serializers.IntegerField()
    rounds = serializers.IntegerField(allow_null=True, help_text="a round robin's and a knockout's: known at the start")
    current_round = serializers.IntegerField(help_text="0 before the start")
    through = serializers.IntegerField()
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    capacity = serializers.IntegerField()
    registered = serializers.IntegerField(help_text="players registered and not withdrawn")
    min_rating = serializers.FloatField(allow_null=True)
    private = serializers.BooleanField()
    join_code = serializers.CharField(allow_null=True, help_text="the organiser's to share; null for others")
    bots_fill = serializers.BooleanField()
    bot_level = serializers.IntegerField()
    rated = serializers.BooleanField()
    bye_points = serializers.FloatField(help_text="what a bye is worth (the organiser's, or the format's own)")
    round_hours = serializers.IntegerField(allow_null=True, help_text="how long a round may last (null: no deadline)")
    organiser = serializers.CharField()
    options = s.OptionsField(help_text="every game's options, defaults filled in")
    seed_hash = serializers.CharField(help_text="SHA-256 of the seed, published at creation")
    seed = serializers.CharField(allow_null=True, help_text="revealed when the tournament is over")
    late_registration = serializers.BooleanField(help_text="a running Swiss that still takes players")
    you = TournamentYouOut()


class TournamentPlayerOut(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    number = serializers.IntegerField(allow_null=True, help_text="the initial order (0: the strongest), from the start")
    rating = serializers.FloatField(help_text="the rating of the kind at the start")
    withdrawn = serializers.BooleanField()


class TournamentStandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.FloatField(allow_null=True, help_text="null in a knockout")
    tiebreaks = serializers.DictField(
        child=serializers.FloatField(), help_text="by name, in their published order (docs/tournaments.md)"
    )
    round_reached = serializers.IntegerField(allow_null=True, help_text="a knockout's: the last round played")
    withdrawn = serializers.BooleanField()


class TournamentTableOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="1: the leaders' table")
    game = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Game.Status.values)
    players = serializers.ListField(child=serializers.CharField(), help_text="usernames in seat order")
    places = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="each seat's place once the game is over"
    )


class TournamentRoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    byes = serializers.ListField(child=serializers.CharField(), help_text="usernames")
    tables = TournamentTableOut(many=True)


class TournamentDetailOut(TournamentOut):
    players = TournamentPlayerOut(many=True)
    standings = TournamentStandingOut(many=True, help_text="empty before the start; final once finished")
    played_rounds = TournamentRoundOut(many=True)


class TournamentsPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = TournamentOut(many=True)


def _tiebreaks(values: dict) -> dict[str, float]:
    """As people read them: the average place as a place (the core negates it to sort), and left
    out for a player who has played no table yet."""
    out = {}
    for name, value in values.items():
        if name == "average_place":
            if value < -1000:
                continue
            value = -value
        out[name] = float(value)
    return out


def _number(value) -> float | None:
    return None if value is None else float(value)


def summary(t: Tournament, user, registered: int | None = None, mine: Registration | None = None, game=None) -> dict:
    organiser = user.is_authenticated and user.pk == t.organiser_id
    if registered is None:
        registered = t.registrations.filter(withdrawn_at__isnull=True).count()
    return {
        "id": t.pk,
        "name": t.name,
        "kind": t.kind,
        "format": t.format,
        "status": t.status,
        "paused": t.paused,
        "table_size": t.table_size,
        "rounds": t.rounds,
        "current_round": t.current_round,
        "through": t.through,
        "starts_at": t.starts_at,
        "started_at": t.started_at,
        "finished_at": t.finished_at,
        "capacity": t.capacity,
        "registered": registered,
        "min_rating": t.min_rating,
        "private": t.private,
        "join_code": t.join_code if organiser else None,
        "bots_fill": t.bots_fill,
        "bot_level": t.bot_level,
        "rated": t.rated,
        "bye_points": float(tournament_standings.scoring(t).bye),
        "round_hours": t.round_hours,
        "organiser": t.organiser.username,
        "options": t.options,
        "seed_hash": t.seed_hash,
        "seed": t.seed if t.status == Tournament.Status.FINISHED else None,
        "late_registration": tournament_registration.late_registration(t),
        "you": {
            "registered": mine is not None and mine.withdrawn_at is None,
            "withdrawn": mine is not None and mine.withdrawn_at is not None,
            "organiser": organiser,
            "game": game,
        },
    }


def detail(t: Tournament, user) -> dict:
    registrations = list(t.registrations.select_related("user").order_by("number", "created_at"))
    names = {r.user_id: r.user.username for r in registrations}
    mine = next((r for r in registrations if user.is_authenticated and r.user_id == user.pk), None)
    rounds = []
    tables: dict[int, list] = {}
    for table in (
        TournamentTable.objects.filter(round__tournament=t).select_related("game").order_by("round__number", "number")
    ):
        tables.setdefault(table.round_id, []).append(table)
    yours = None
    for rnd in TournamentRound.objects.filter(tournament=t).order_by("number"):
        shown = []
        for table in tables.get(rnd.pk, []):
            shown.append(
                {
                    "number": table.number,
                    "game": table.game_id,
                    "status": table.game.status,
                    "players": [names.get(u, "") for u in table.players],
                    "places": table.places,
                }
            )
            if mine is not None and mine.user_id in table.players and table.game.status == Game.Status.ACTIVE:
                yours = table.game_id
        rounds.append(
            {
                "number": rnd.number,
                "started_at": rnd.started_at,
                "finished_at": rnd.finished_at,
                "byes": [names.get(u, "") for u in rnd.byes],
                "tables": shown,
            }
        )
    out = summary(t, user, sum(r.withdrawn_at is None for r in registrations), mine, yours)
    out["players"] = [
        {
            "username": r.user.username,
            "bot": r.user.is_bot,
            "number": r.number,
            "rating": r.rating,
            "withdrawn": r.withdrawn_at is not None,
        }
        for r in registrations
    ]
    out["standings"] = (
        [
            {
                "rank": row.rank,
                "username": row.registration.user.username,
                "points": _number(row.points),
                "tiebreaks": _tiebreaks(row.tiebreaks),
                "round_reached": row.round_reached,
                "withdrawn": row.registration.withdrawn_at is not None,
            }
            for row in tournament_standings.standings(t)
        ]
        if t.status != Tournament.Status.REGISTERING
        else []
    )
    out["played_rounds"] = rounds
    return out


def _detail(t: Tournament, request, code=status.HTTP_200_OK) -> Response:
    return Response(detail(tournament_lookup.get(t.pk), request.user), status=code)


# ---------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------
class TournamentsView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("kind", str),
            OpenApiParameter("status", str, enum=Tournament.Status.values),
            *page_parameters(),
        ],
        responses={200: TournamentsPageOut, 400: ERRORS[400]},
        operation_id="tournaments_list",
        summary="Public tournaments, newest first",
    )
    def get(self, request):
        found = tournament_lookup.listed(single(request, "kind"), single(request, "status")).select_related("organiser")
        paginator = Pagination()
        page = paginator.paginate_queryset(found, request, view=self)
        counts = dict(
            Registration.objects.filter(tournament__in=page, withdrawn_at__isnull=True)
            .values("tournament_id")
            .annotate(n=Count("pk"))
            .values_list("tournament_id", "n")
        )
        mine = {r.tournament_id: r for r in Registration.objects.filter(tournament__in=page, user=request.user)}
        return paginator.get_paginated_response(
            [summary(t, request.user, counts.get(t.pk, 0), mine.get(t.pk)) for t in page]
        )

    @extend_schema(
        request=TournamentIn,
        responses={201: TournamentDetailOut, **TOURNAMENT_ERRORS},
        summary="Create a tournament (you organise it; register to play in it)",
    )
    def post(self, request):
        data = parse(TournamentIn, request.data)
        made = tournament_lifecycle.create(request.user, **data)
        return _detail(made, request, status.HTTP_201_CREATED)


class TournamentView(APIView):
    @extend_schema(
        responses={
            200: TournamentDetailOut,
            304: OpenApiResponse(description="not modified: your If-None-Match holds the current ETag"),
            **ERRORS,
        },
        parameters=[
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER),
            OpenApiParameter(
                "ETag",
                str,
                OpenApiParameter.HEADER,
                response=[200, 304],
                description="changes whenever the body would: a registration, a round, a game's end, the standings",
            ),
        ],
        summary="A tournament: its players, standings, rounds and games",
    )
    def get(self, request, tournament_id):
        # Followed live by asking again (docs/tournaments.md): an unchanged tournament is a 304.
        return ETaggedResponse(
            detail(tournament_lookup.get(tournament_id, user=request.user), request.user),
            request.headers.get("If-None-Match", ""),
        )


class RegisterView(APIView):
    @extend_schema(
        request=TournamentRegisterIn,
        responses={200: TournamentDetailOut, **TOURNAMENT_ERRORS},
        summary="Register to play (a private tournament: with its join code)",
    )
    def post(self, request, tournament_id):
        data = parse(TournamentRegisterIn, request.data or {})
        registration = tournament_registration.register(tournament_id, request.user, data["code"])
        return _detail(registration.tournament, request)


class WithdrawView(APIView):
    @extend_schema(
        request=None,
        responses={200: TournamentDetailOut, **TOURNAMENT_ERRORS},
        summary="Withdraw: your games in progress are resigned; you are paired no more",
    )
    def post(self, request, tournament_id):
        registration = tournament_registration.withdraw(tournament_id, request.user)
        return _detail(registration.tournament, request)


class StartView(APIView):
    @extend_schema(
        request=None,
        responses={200: TournamentDetailOut, **TOURNAMENT_ERRORS},
        summary="Start now (the organiser): the first round's games are created at once",
    )
    def post(self, request, tournament_id):
        return _detail(tournament_lifecycle.start(tournament_id, request.user), request)
