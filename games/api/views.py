"""HTTP <-> services. Each view parses input, calls one service or selector, shapes the output."""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config import database
from games.community import invitations, social
from games.play import access, disputes, lobby, moves, selectors
from games.realtime import channels, hub, waiters
from games.api import serializers as s
from games.api.serializers import parse
from games.api.streams import long_poll
from games.api.streams.guard import guard_of
from games.api.streams.views import WaitingView
from games.api.params import Pagination, flag, page_parameters, single
from games.api.params import whole as int_param
from games.errors import Invalid, NotFound
from games.play.kinds import all_kinds, get_engine
from games.models import Game
from games.play.options import schema_for

ERRORS = {
    code: OpenApiResponse(s.ErrorOut, description=text)
    for code, text in {
        400: "invalid / illegal_move / unavailable_move / malformed",
        401: "not_authenticated",
        403: "not_a_player / forbidden",
        404: "not_found",
        409: "version_conflict / not_your_turn / game_not_active / game_not_open / game_full / not_yet / "
        "invitation_closed / already_exists / game_not_finished",
        422: "idempotency_mismatch",
        429: "throttled / too_many_bot_games / too_many_invitations",
    }.items()
}
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,128}$")


def parse_move(data) -> dict:
    """`parse(s.MoveIn, data)`, without building a serializer (its fields are deep-copied for each
    instance: 5% of the web server's time in the move benchmark) for the body every client sends:
    a move and a whole, non-negative version. Anything else goes to the serializer, which judges
    it and words the error."""
    if (
        type(data) is dict
        and data.get("move") is not None
        and type(data.get("expected_version")) is int
        and data["expected_version"] >= 0
        and not s.has_nul(data["move"])
    ):
        return {"move": data["move"], "expected_version": data["expected_version"]}
    return parse(s.MoveIn, data)


def kind_info(kind: str) -> dict:
    engine = get_engine(kind)
    return {
        "kind": kind,
        "title": engine.title,
        "rules_version": engine.rules_version,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "options_schema": schema_for(engine),
        "move_schema": engine.move_schema(),
    }


class KindsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=s.KindOut(many=True), summary="The games this server plays")
    def get(self, request):
        return Response([kind_info(kind) for kind in all_kinds()])


class KindView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.KindOut, 404: ERRORS[404]})
    def get(self, request, kind):
        if kind not in all_kinds():
            raise NotFound(gettext("no game kind '%(kind)s'") % {"kind": kind})
        return Response(kind_info(kind))


class CardsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: s.CardOut(many=True), 404: ERRORS[404]}, summary="A game's card catalogue, with image URLs"
    )
    def get(self, request, kind):
        if kind not in all_kinds():
            raise NotFound(gettext("no game kind '%(kind)s'") % {"kind": kind})
        cards = get_engine(kind).catalogue()
        if cards is None:
            raise NotFound(gettext("%(kind)s publishes no card catalogue") % {"kind": kind})
        base_url = settings.CARD_IMAGE_BASE_URL
        return Response(
            [
                {
                    **card,
                    "image_url": request.build_absolute_uri(base_url + card["image"])
                    if base_url.startswith("/")
                    else base_url + card["image"],
                }
                for card in cards
            ]
        )


class GamesView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=[c for c, _ in Game.Status.choices]),
            OpenApiParameter("kind", str),
            OpenApiParameter("mine", bool),
            OpenApiParameter(
                "player", str, description="only the games this username has a seat in (as far as you may see them)"
            ),
            *page_parameters(),
        ],
        responses={200: s.GamesPageOut, 400: ERRORS[400]},
        operation_id="games_list",
        summary="List games",
    )
    def get(self, request):
        if flag(request, "mine"):  # a player's own games: on the primary
            return self.listed(request)
        return database.lagging_read(request.user, lambda lagging: self.listed(request))

    def listed(self, request):
        games = Game.objects.prefetch_related("seat_set__user").order_by("-created_at")
        wanted_status, kind = single(request, "status"), single(request, "kind")
        if wanted_status is not None:
            if wanted_status not in Game.Status.values:
                raise Invalid(gettext("status must be one of %(value)s") % {"value": ", ".join(Game.Status.values)})
            games = games.filter(status=wanted_status)
        if kind is not None:
            if kind not in all_kinds():
                raise Invalid(gettext("kind must be one of %(value)s") % {"value": ", ".join(all_kinds())})
            games = games.filter(kind=kind)
        if flag(request, "mine"):
            games = games.filter(seat_set__user=request.user)
        player = single(request, "player")
        if player is not None:
            games = games.filter(seat_set__user__username__iexact=player.replace("\x00", ""))
        games = social.visible_to(games, request.user)
        paginator = Pagination()
        page = paginator.paginate_queryset(games, request, view=self)
        seats = dict(request.user.seats.filter(game__in=page).values_list("game_id", "number"))
        return paginator.get_paginated_response([selectors.summary(game, seats.get(game.pk)) for game in page])

    @extend_schema(
        request=s.CreateGameIn, responses={201: s.GameDetailOut, **ERRORS}, summary="Create a game; you take seat 0"
    )
    def post(self, request):
        data = parse(s.CreateGameIn, request.data)
        if data["private"] or data.get("invite"):
            if data.get("bots") or data.get("fill_with_bots"):
                raise Invalid(gettext("a private game seats no bots: play the computer in a public one"))
            game = invitations.create_private_game(
                request.user,
                data["kind"],
                data["options"],
                data["seats"],
                data.get("invite"),
                data["rated"],
                data["auto_start"],
            )
        else:
            game = lobby.create_game(
                request.user,
                data["kind"],
                data["options"],
                data["seats"],
                data["rated"],
                data.get("bots"),
                data.get("fill_with_bots"),
                data["auto_start"],
            )
        return Response(selectors.detail(game, request.user), status=status.HTTP_201_CREATED)


class ETaggedResponse(Response):
    """A body rendered once, its ETag the digest of those very bytes: whatever changes the body (a
    move, a vacation moving `next_deadline`, a field added later) changes the ETag, with no list to
    keep in step. A match with the request's If-None-Match makes it a 304 with no body.

    Digesting a second serialisation of the body, as this did before, was a twelfth of a GET game's
    work in the move benchmark."""

    def __init__(self, data, if_none_match: str):
        super().__init__(data)
        self.if_none_match = {tag.strip() for tag in if_none_match.split(",")}

    @property
    def rendered_content(self):
        content = super().rendered_content
        etag = 'W/"%s"' % hashlib.sha256(content).hexdigest()[:32]
        self["ETag"] = etag
        if etag in self.if_none_match:
            self.status_code = status.HTTP_304_NOT_MODIFIED
            del self["Content-Type"]
            return b""
        return content


def watched(lagging: database.Lagging, read, user) -> Game:
    """The game `read()` returns, read again on the primary if the user has a seat in it: a
    player's own game never lags (a seat taken lately is seen on the replica only once the user's
    pin is over, docs/operations.md#read-replicas). A game the replica does not have yet is read
    on the primary too."""
    try:
        game = read()
    except NotFound:
        if not lagging.on:
            raise
        lagging.stop()  # a game too new for the replica (a link from a list the primary answered)
        return read()
    if lagging.on and access.seat_of(game, user) is not None:
        lagging.stop()
        game = read()
    return game


class GameView(APIView):
    @extend_schema(
        responses={
            200: s.GameDetailOut,
            304: OpenApiResponse(description="not modified: your If-None-Match holds the current ETag"),
            404: ERRORS[404],
        },
        parameters=[
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER),
            OpenApiParameter(
                "ETag", str, OpenApiParameter.HEADER, response=[200, 304], description="changes whenever the body would"
            ),
        ],
        summary="The game, with its state as you may see it",
    )
    def get(self, request, game_id):
        def read(lagging):
            game = watched(lagging, lambda: access.get_game(game_id, user=request.user, table=True), request.user)
            access.require_visible(game, request.user)
            return selectors.detail(game, request.user)

        return ETaggedResponse(database.lagging_read(request.user, read), request.headers.get("If-None-Match", ""))


class LobbyAction(APIView):
    action_name = ""

    @extend_schema(request=None, responses={200: s.GameDetailOut, **ERRORS})
    def post(self, request, game_id):
        action = {"join": lobby.join_game, "leave": lobby.leave_game, "start": lobby.start_game}[self.action_name]
        access.require_visible(access.get_game(game_id, user=request.user), request.user)
        game = action(game_id, request.user)
        return Response(selectors.detail(game, request.user))


class JoinView(LobbyAction):
    action_name = "join"


class LeaveView(LobbyAction):
    action_name = "leave"


class StartView(LobbyAction):
    action_name = "start"


class LegalMovesView(APIView):
    @extend_schema(responses={200: s.LegalMovesOut, **ERRORS}, summary="Your legal moves now")
    def get(self, request, game_id):
        return Response(selectors.legal_moves(access.get_game(game_id, user=request.user), request.user))


class MovesView(APIView):
    @extend_schema(
        request=s.MoveIn,
        responses={201: s.MoveOut, **ERRORS},
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                str,
                OpenApiParameter.HEADER,
                description="retry-safe: same key, same answer",
                pattern=r"^[\x21-\x7e]{1,128}$",
            ),
            OpenApiParameter(
                "Idempotent-Replayed",
                str,
                OpenApiParameter.HEADER,
                response=[201],
                enum=["true"],
                description="present: this is the stored answer to an earlier request with the key",
            ),
        ],
        summary="Make a move",
    )
    def post(self, request, game_id):
        key = request.headers.get("Idempotency-Key")
        if key is not None and not IDEMPOTENCY_KEY.match(key):
            raise Invalid(gettext("Idempotency-Key must be 1 to 128 printable ASCII characters"))
        try:
            data = parse_move(request.data)
        except Exception:
            # A game the caller may not see is a 404 whatever the body, as a missing one (a 400
            # would betray it). Only on this path: a good body goes to the service, which reads
            # the game once and answers 404 the same.
            access.require_visible(access.get_game(game_id, user=request.user), request.user)
            raise
        result = moves.submit_move(game_id, request.user, data["move"], data["expected_version"], key)
        headers = {"Idempotent-Replayed": "true"} if result.replayed else {}
        return Response(
            {"version": result.version, "state": result.state}, status=status.HTTP_201_CREATED, headers=headers
        )


class EventsView(WaitingView):
    @extend_schema(
        parameters=[
            OpenApiParameter("after", {"type": "integer", "minimum": 0}),
            OpenApiParameter(
                "wait",
                {"type": "integer", "minimum": 0, "maximum": waiters.MAX_WAIT_SECONDS},
                description="seconds to wait for an event after `after`",
            ),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 1000}),
        ],
        responses={200: s.EventsOut, **ERRORS},
        summary="The log as you may see it",
    )
    async def get(self, request, game_id):
        if not request.query_params.get("wait"):
            return await self.off_the_loop(self.log, request, game_id)
        # A long-poll: asleep on the event loop, holding no thread, until there is news.
        the_hub = await hub.hub()
        epoch = the_hub.since(channels.channel(game_id))  # before the game is read: heard since then?
        poll = await self.off_the_loop(self.poll, request, game_id, the_hub)
        if not isinstance(poll, long_poll.LongPoll):
            return poll  # an answer already: there is news, or the request was refused
        return await long_poll.answer(the_hub, poll, epoch)

    def log(self, request, game_id):
        after = int_param(request, "after", 0, 0)
        limit = int_param(request, "limit", 200, 1, 1000)

        def read(lagging):
            game = watched(lagging, lambda: access.get_game(game_id, user=request.user), request.user)
            access.require_visible(game, request.user)
            return game, selectors.log(game, request.user, after, limit)

        game, answer = database.lagging_read(request.user, read)
        long_poll.remember_seat(game, request.user, answer["your_seat"])
        return Response(answer)

    def poll(self, request, game_id, the_hub) -> Response | long_poll.LongPoll:
        """The answer if there is news already; else what to wait for."""
        # A long-poll that comes back after each move: this process may know the game already.
        known = long_poll.known_game(request, game_id, the_hub)
        game = known or access.get_game(game_id, user=request.user)
        access.require_visible(game, request.user)
        after = int_param(request, "after", 0, 0)
        wait = int_param(request, "wait", 0, 0, waiters.MAX_WAIT_SECONDS)
        limit = int_param(request, "limit", 200, 1, 1000)
        answer = selectors.log(game, request.user, after, limit)
        long_poll.remember_seat(game, request.user, answer["your_seat"])
        if not (wait and game.version <= after):
            return Response(answer)

        def reread():
            return selectors.log(access.get_game(game.pk, user=request.user), request.user, after, limit)

        return long_poll.LongPoll(
            game.pk,
            answer,
            after,
            wait,
            limit,
            answer["your_seat"],
            reread,
            guard_of(request, game),
            long_poll.poll_places(request, game, wait),
        )


class StateAtView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "at",
                {"type": "integer", "minimum": 0},
                description="an event number, at most the game's version (default: the current one)",
            )
        ],
        responses={200: s.StateAtOut, **ERRORS},
        summary="Your view after event N",
    )
    def get(self, request, game_id):
        def read(lagging):
            game = watched(lagging, lambda: access.get_game(game_id, user=request.user), request.user)
            access.require_visible(game, request.user)
            at = int_param(request, "at", game.version, 0, game.version)
            return selectors.view_at(game, request.user, at)

        return Response(database.lagging_read(request.user, read))


class DisputesView(APIView):
    @extend_schema(
        request=s.DisputeIn, responses={201: s.DisputeOut, **ERRORS}, summary="Dispute an event; staff review it"
    )
    def post(self, request, game_id):
        # 404 for a game the caller may not see, before the body is judged (no 400 betrays it).
        access.require_visible(access.get_game(game_id, user=request.user), request.user)
        data = parse(s.DisputeIn, request.data)
        dispute = disputes.open_dispute(game_id, request.user, data["seq"], data["reason"])
        return Response(s.DisputeOut(dispute).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: s.DisputeOut(many=True), **ERRORS})
    def get(self, request, game_id):
        game = access.get_game(game_id)
        access.require_player(game, request.user)
        return Response(s.DisputeOut(game.disputes.all(), many=True).data)
