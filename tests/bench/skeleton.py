"""The move loop's ceiling on this stack, for `make bench` only: the loop's three endpoints doing
only what any move costs whatever the game's rules.

Each skeleton request goes the way the real one does (the Procfile's server, the middleware, DRF's
token, throttle and renderer), reads the game with the very statement the real view uses (the
game, the caller's seat, the table) and answers a body of the real one's shape and size: a Pick
Pic view and legal moves, made once by the engine at import and alternating between the give
phase (6 moves) and the rank phase (120) as the real game does. The POST parses the move as the
real one does, takes the game's row lock, checks the version and writes, in one statement, the
move's event and the game's new version, then commits. What it leaves out is the game itself: no
state loaded or cached, no engine, no clocks, no outbox, no live news.

So a skeleton loop is the cheapest a move loop can be on Django, DRF and PostgreSQL with a
durable commit, and its rate beside GET /kinds/ bounds the ratio the throughput target asks of the real loop.
Served under /bench-skeleton/ by `tests.bench.stack_settings`, on the same server as the real
loop, so the phases interleave. Its games are bench games: their skeleton events are no game's
moves, and nothing but this benchmark reads them.
"""

from __future__ import annotations

from datetime import datetime, timezone
from functools import cache
from typing import Any

from django.db import connection, transaction
from django.urls import include, path
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from config import jsoncodec
from config import urls as config_urls
from games.play import access, selectors
from games.play import options as game_options
from games.api.views import ETaggedResponse, parse_move
from games.errors import VersionConflict
from games.play.kinds import get_engine

PREFIX = "bench-skeleton/"
MOVED = "BenchSkeletonMoved"
WRITE = (
    'WITH e AS (INSERT INTO "games_event" ("game_id", "seq", "type", "actor", "data", "created_at", '
    '"idempotency_key", "request_hash", "user_id") VALUES (%s, %s, %s, %s, %s::jsonb, %s, NULL, %s, %s)) '
    'UPDATE "games_game" SET "version" = %s WHERE "id" = %s'
)


@cache
def phases() -> tuple[tuple[dict[str, Any], list[Any]], tuple[dict[str, Any], list[Any]]]:
    """(seat 0's view, the seat to move's legal moves) in the give phase and in the rank phase of a
    3-seat Pick Pic game with the bench's options."""
    engine = get_engine("pickpic")
    options = game_options.engine_options(engine, game_options.validate(engine, {"target": 200}))
    state = engine.setup(3, options, "bench-skeleton")
    found = []
    for _ in range(12):  # the give phase is three moves; bounded all the same
        seat = min(engine.active_players(state))
        moves = engine.legal_moves(state, seat)
        kind = moves[0]["type"]
        if kind not in {k for k, _ in found}:
            found.append((kind, (engine.view(state, 0), moves)))
        if len(found) == 2:
            return found[0][1], found[1][1]
        state = engine.apply(state, seat, moves[0], datetime.now(timezone.utc))
    raise RuntimeError("no rank phase in a dozen Pick Pic moves")


def phase(version: int) -> tuple[dict[str, Any], list[Any]]:
    return phases()[version % 2]


@cache
def _standing(parity: int) -> Any:
    return get_engine("pickpic").standing(phases()[parity][0])


def standing(version: int) -> Any:
    """The players bar's standing of the phase's view, counted once like the view itself."""
    return _standing(version % 2)


class GameView(APIView):
    def get(self, request, game_id):
        game = access.get_game(game_id, user=request.user, table=True)
        access.require_visible(game, request.user)
        body = {
            **selectors.summary(game, access.seat_of(game, request.user)),
            "state": phase(game.version)[0],
            "standing": standing(game.version),
        }
        return ETaggedResponse(body, request.headers.get("If-None-Match", ""))


class LegalMovesView(APIView):
    def get(self, request, game_id):
        game = access.get_game(game_id, user=request.user)
        seat = access.require_player(game, request.user)
        return Response({"version": game.version, "seat": seat, "moves": phase(game.version)[1]})


class MovesView(APIView):
    def post(self, request, game_id):
        data = parse_move(request.data)
        with transaction.atomic():
            game = access.get_game(game_id, lock=True, user=request.user, table=True)
            seat = access.require_player(game, request.user)
            if data["expected_version"] != game.version:
                raise VersionConflict(game.version)
            version = game.version + 1
            record = jsoncodec.dumps({"move": data["move"], "record": {}}).decode()
            with connection.cursor() as cursor:
                cursor.execute(
                    WRITE,
                    [
                        game.pk,
                        version,
                        MOVED,
                        seat,
                        record,
                        datetime.now(timezone.utc),
                        "",
                        request.user.pk,
                        version,
                        game.pk,
                    ],
                )
        return Response({"version": version, "state": phase(version)[0]}, status=status.HTTP_201_CREATED)


# The skeleton first, under its own prefix (one failed prefix match for every other request), then
# the application's own routes, as they are.
urlpatterns = [
    path(
        PREFIX,
        include(
            [
                path("games/<str:game_id>/", GameView.as_view()),
                path("games/<str:game_id>/legal-moves/", LegalMovesView.as_view()),
                path("games/<str:game_id>/moves/", MovesView.as_view()),
            ]
        ),
    ),
    *config_urls.urlpatterns,
]
handler400, handler403 = config_urls.handler400, config_urls.handler403
handler404, handler500 = config_urls.handler404, config_urls.handler500
