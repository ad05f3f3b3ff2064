"""docs/architecture.md's two checklists, walked through: "Add a game" registers a tiny engine the
way the list says and plays it over HTTP; "Add an endpoint" adds a small one the way the list says
(a note to self in a game) and finds it served, in the OpenAPI document with typed bodies and its
errors, and refusing bad input with `{"code", "detail"}`; and it holds every route of the API to
the list (its view in games.api, each of its methods in the document)."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, include, path
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

import config.urls
from games import bots, engines
from games.bots import kinds as kits
from games.bots.kinds import Kit
from games.api import urls as api_urls
from games.api.serializers import ErrorOut, StrictInput, parse
from games.engines import base
from games.engines.base import Step, clone, require
from games.models import Notification
from games.play import access
from tests.api.openapi import Contract, fetch_document
from tests.api.test_untyped import untyped
from tests.conftest import start_game
from tests.engines import test_contract
from tests.worker import ROOT


# -- Add a game ------------------------------------------------------------------------------------
class Nim(base.Engine):
    """Step 1: an engine, pure (games.engines.base only). A pile of stones; a seat takes one or two
    in turn; whoever takes the last one wins."""

    kind = "nim"
    title = "Nim (checklist game)"
    min_players = 2
    max_players = 2

    def options_schema(self):
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {"stones": {"type": "integer", "minimum": 1, "maximum": 30, "default": 5}},
        }

    def move_schema(self):
        return {
            "type": "object",
            "required": ["type", "take"],
            "properties": {"type": {"const": "take"}, "take": {"type": "integer", "minimum": 1, "maximum": 2}},
        }

    def setup(self, players, options, seed):
        return {"players": players, "stones": options.get("stones", 5), "turn": 0, "winner": None}

    def active_players(self, state):
        return set() if self.result(state) else {state["turn"]}

    def legal_moves(self, state, seat):
        return [{"type": "take", "take": n} for n in (1, 2) if n <= state["stones"]]

    def step(self, state, actor, move, at: datetime) -> Step:
        require(move in self.legal_moves(state, actor), "take one or two of the stones left")
        new = clone(state)
        new["stones"] -= move["take"]
        if new["stones"] == 0:
            new["winner"] = actor
        new["turn"] = 1 - actor
        return Step(new, "StonesTaken", {"take": move["take"]})

    def view(self, state, viewer):
        return {"stones": state["stones"], "active": sorted(self.active_players(state)), "players": state["players"]}

    def describe(self, event, viewer):
        return {
            "seq": event["seq"],
            "type": event["type"],
            "actor": event["actor"],
            "take": event["data"]["record"]["take"],
        }

    def result(self, state):
        if state["winner"] is None:
            return None
        return base.make_result({state["winner"]: 1, 1 - state["winner"]: 0})


NIM = Nim()


@pytest.fixture
def nim_registered(monkeypatch):
    """Step 2: named in games.engines.ENGINES, kind -> "module:attr" of the engine object."""
    monkeypatch.setitem(engines.ENGINES, "nim", f"{__name__}:NIM")
    yield "nim"
    for key in [key for key in engines._loaded if key[0] == "nim"]:
        del engines._loaded[key]


def test_the_contract_suite_covers_a_new_game_as_soon_as_it_is_named(nim_registered):
    # Step 3: tests/engines/test_contract.py runs over engines.kinds(): nothing to add there.
    assert "nim" in engines.kinds()
    test_contract.test_identity_and_options_schema("nim")
    test_contract.test_random_games_end_with_a_result_and_replay_exactly("nim", "alpha")


@pytest.mark.django_db
def test_a_new_game_is_offered_and_played_over_http_with_nothing_else_added(nim_registered, alice, bob):
    kinds = {k["kind"]: k for k in alice.get("/api/v1/kinds/").json()}
    assert kinds["nim"]["title"] == "Nim (checklist game)"
    game_id = start_game(alice, [bob], kind="nim", options={"stones": 3})
    assert alice.move(game_id, {"type": "take", "take": 2}).status_code == 201
    refused = bob.move(game_id, {"type": "take", "take": 2})  # one stone left
    assert (refused.status_code, refused.json()["code"]) == (400, "illegal_move")
    assert bob.move(game_id, {"type": "take", "take": 1}).status_code == 201
    game = alice.game(game_id)
    assert game["status"] == "finished"
    assert [
        e["take"] for e in alice.get(f"/api/v1/games/{game_id}/events/").json()["events"] if e["type"] == "StonesTaken"
    ] == [2, 1]


class NimKit(Kit):
    """Step 5: its bots' kit (games/bots/kinds/<kind>.py's place): a full state imagined from a
    seat's view (Nim hides nothing), and how good a state is for the seat."""

    def determinize(self, me, rng):
        return {"players": me.view["players"], "stones": me.view["stones"], "turn": me.seat, "winner": None}

    def evaluate(self, me, state):
        return 0.0 if state["winner"] is None else 1.0 if state["winner"] == me.seat else -1.0


KIT = NimKit()


def test_a_new_game_s_bots_play_it_once_its_kit_is_named(nim_registered, monkeypatch):
    monkeypatch.setitem(kits.KITS, "nim", __name__)  # step 5: named in games.bots.kinds.KITS
    state = NIM.setup(2, {"stones": 2}, "seed")
    for level in bots.LEVELS:
        move = bots.decide(
            "nim",
            level,
            seat=0,
            view=NIM.view(state, 0),
            legal=NIM.legal_moves(state, 0),
            log=[],
            options={"stones": 2},
            rules_version=None,
            seed="bot",
            budget=bots.Budget(iterations=20) if level == 3 else None,
        )
        assert move in NIM.legal_moves(state, 0)
        if level > 1:
            assert move == {"type": "take", "take": 2}  # the thinking levels take the last stones


@pytest.mark.parametrize("kind", engines.kinds())
def test_every_game_has_its_bots_table_rules_page_and_docs(kind):
    """Steps 5 to 7 for every kind the server plays: the lobby offers the computer for each."""
    assert kind in kits.KITS and isinstance(kits.kit_for(kind), Kit)
    web = ROOT / "web" / "static" / "web"
    assert (web / "tables" / f"{kind}.js").exists()
    assert re.search(rf"^  {kind}: {{", (web / "rules.js").read_text(), re.M)
    assert (ROOT / "docs" / f"{kind}.md").exists()
    assert re.search(rf"^\| `{kind}` \|", (ROOT / "docs" / "games.md").read_text(), re.M)


# -- Add an endpoint -------------------------------------------------------------------------------
# What a new endpoint is made of, each part where the checklist's step puts it (here in this module,
# as the Nim engine is, and routed by this module's urlconf): a note to self in a game, waiting in
# the caller's inbox.
def leave_note(user, game_id, text: str) -> Notification:
    """Step 1: the use case (games/play/lobby.py's place, or moves.py's ...): one transaction, typed errors."""
    with transaction.atomic():
        game = access.get_game(game_id, user=user)
        access.require_player(game, user)  # NotFound, NotAPlayer: the handler answers them
        now = timezone.now()
        return Notification.objects.create(
            user=user, game=game, type="note", title=text, created_at=now, updated_at=now
        )


class NoteIn(StrictInput):
    """Step 2: strict, typed serializers (games/api/serializers.py's place)."""

    text = serializers.CharField(max_length=200, help_text="what to remember")


class NoteOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="the notice's id in /notifications/")
    game = serializers.UUIDField(source="game_id")
    text = serializers.CharField(source="title")


class NotesView(APIView):
    """Step 3: a thin view (games/api/<area>.py's place)."""

    @extend_schema(
        request=NoteIn,
        responses={201: NoteOut, 403: ErrorOut},
        summary="Leave yourself a note in a game: it waits in your notifications",
    )
    def post(self, request, game_id):
        note = leave_note(request.user, game_id, parse(NoteIn, request.data)["text"])
        return Response(NoteOut(note).data, status=status.HTTP_201_CREATED)


NOTES = "/api/v1/games/{game_id}/notes/"
# Step 4: the route, beside games/api/urls.py's (a urlconf of this module's, for the tests below).
urlpatterns = [
    path(
        "api/v1/",
        include(api_urls.urlpatterns + [path("games/<text:game_id>/notes/", NotesView.as_view(), name="game-notes")]),
    ),
    *[p for p in config.urls.urlpatterns if str(p.pattern) != "api/v1/"],
]
handler400, handler403 = config.urls.handler400, config.urls.handler403
handler404, handler500 = config.urls.handler404, config.urls.handler500


@pytest.fixture
def with_notes(settings):
    settings.ROOT_URLCONF = __name__


@pytest.mark.django_db
def test_a_new_endpoint_is_served_and_does_its_use_case(with_notes, alice, duel):
    answer = alice.post(f"/api/v1/games/{duel}/notes/", {"text": "the sunset card is still out"})
    assert answer.status_code == 201, answer.content
    assert answer.json()["game"] == duel and answer.json()["text"] == "the sunset card is still out"
    Contract(fetch_document()).check_response("POST", f"/api/v1/games/{duel}/notes/", answer)
    inbox = alice.get("/api/v1/notifications/").json()["results"]
    assert [(n["id"], n["type"], n["title"]) for n in inbox if n["type"] == "note"] == [
        (answer.json()["id"], "note", "the sunset card is still out")
    ]


@pytest.mark.django_db
def test_a_new_endpoint_is_in_the_document_with_typed_bodies_and_its_errors(with_notes):
    doc = fetch_document()
    operation = doc["paths"][NOTES]["post"]
    request = operation["requestBody"]["content"]["application/json"]["schema"]
    answer = operation["responses"]["201"]["content"]["application/json"]["schema"]
    components = doc["components"]["schemas"]
    body, shaped = (components[schema["$ref"].rsplit("/", 1)[1]] for schema in (request, answer))
    assert body["required"] == ["text"] and body["properties"]["text"]["type"] == "string"
    assert {name: field["type"] for name, field in shaped["properties"].items()} == {
        "id": "integer",
        "game": "string",
        "text": "string",
    }
    assert [where for where in untyped(doc) if "notes" in where or "Note" in where] == []
    errors = {
        code: r["content"]["application/json"]["schema"]
        for code, r in operation["responses"].items()
        if int(code) >= 400
    }
    assert {"400", "401", "403", "404"} <= errors.keys()
    assert all(schema == {"$ref": "#/components/schemas/ErrorOut"} for schema in errors.values())


@pytest.mark.django_db
@pytest.mark.parametrize(
    "who, game, body, expected",
    [
        ("alice", "duel", {"text": 12}, (400, "invalid")),  # a number is not a string
        ("alice", "duel", {}, (400, "invalid")),
        ("alice", "duel", {"text": "x" * 201}, (400, "invalid")),
        ("alice", "00000000-0000-0000-0000-000000000000", {"text": "hi"}, (404, "not_found")),
        ("alice", "not-a-game", {"text": "hi"}, (404, "not_found")),
        ("carol", "duel", {"text": "hi"}, (403, "not_a_player")),
        (None, "duel", {"text": "hi"}, (401, "not_authenticated")),
    ],
)
def test_a_new_endpoint_refuses_bad_input_with_a_code_and_a_detail(
    with_notes, alice, carol, anonymous, duel, who, game, body, expected
):
    client = {"alice": alice.client, "carol": carol.client, None: anonymous}[who]
    where = NOTES.format(game_id=duel if game == "duel" else game)
    answer = client.post(where, body, format="json")
    assert (answer.status_code, answer.json()["code"]) == expected, answer.content
    assert answer.json()["detail"]
    Contract(fetch_document()).check_response("POST", where, answer)  # as the document says
    assert not Notification.objects.filter(type="note").exists()  # nothing written


# drf-spectacular's own views serve the document; they are not endpoints of the API.
DOCUMENT_VIEWS = {"schema", "docs", "redoc"}
METHODS = ("get", "post", "put", "patch", "delete")


def api_routes():
    """(OpenAPI path template, route name, view callback) of every route under /api/v1/."""
    (api,) = [p for p in get_resolver().url_patterns if isinstance(p, URLResolver) and str(p.pattern) == "api/v1/"]

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern):
                yield re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", "/" + route), pattern.name, pattern.callback

    return list(walk(api.url_patterns, "api/v1/"))


def view_class(callback):
    return getattr(callback, "view_class", None) or getattr(callback, "cls", None) or callback


def test_every_route_of_the_api_has_its_view_in_games_api():
    routes = [(path, name, view_class(callback)) for path, name, callback in api_routes() if name not in DOCUMENT_VIEWS]
    assert len(routes) > 40
    elsewhere = [(path, view.__module__) for path, _, view in routes if not view.__module__.startswith("games.api.")]
    assert elsewhere == []


@pytest.mark.django_db
def test_every_route_of_the_api_is_in_the_document_with_its_methods():
    # Their bodies and error answers are typed: tests/api/test_document.py.
    doc = fetch_document()
    missing = []
    for route, name, callback in api_routes():
        if name in DOCUMENT_VIEWS:
            continue
        view = view_class(callback)
        methods = [m for m in METHODS if hasattr(view, m)] or ["get"]
        for method in methods:
            if method not in doc["paths"].get(route, {}):
                missing.append((method.upper(), route))
    assert missing == []
