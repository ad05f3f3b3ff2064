"""docs/architecture.md's two checklists, walked through: "Add a game" registers a tiny engine the
way the list says and plays it over HTTP; "Add an endpoint" holds every route of the API to the
list (its view in games.api, each of its methods in the OpenAPI document)."""
from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from games import engines
from games.engines import base
from games.engines.base import Step, clone, require
from tests.api.openapi import fetch_document
from tests.conftest import start_game
from tests.engines import test_contract


# -- Add a game ------------------------------------------------------------------------------------
class Nim(base.Engine):
    """Step 1: an engine, pure (games.engines.base only). A pile of stones; a seat takes one or two
    in turn; whoever takes the last one wins."""

    kind = "nim"
    title = "Nim (checklist game)"
    min_players = 2
    max_players = 2

    def options_schema(self):
        return {"type": "object", "additionalProperties": False, "properties": {
            "stones": {"type": "integer", "minimum": 1, "maximum": 30, "default": 5}}}

    def move_schema(self):
        return {"type": "object", "required": ["type", "take"], "properties": {
            "type": {"const": "take"}, "take": {"type": "integer", "minimum": 1, "maximum": 2}}}

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
        return {"stones": state["stones"], "active": sorted(self.active_players(state)),
                "players": state["players"]}

    def describe(self, event, viewer):
        return {"seq": event["seq"], "type": event["type"], "actor": event["actor"],
                "take": event["data"]["record"]["take"]}

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
    assert [e["take"] for e in alice.get(f"/api/v1/games/{game_id}/events/").json()["events"]
            if e["type"] == "StonesTaken"] == [2, 1]


# -- Add an endpoint -------------------------------------------------------------------------------
# drf-spectacular's own views serve the document; they are not endpoints of the API.
DOCUMENT_VIEWS = {"schema", "docs", "redoc"}
METHODS = ("get", "post", "put", "patch", "delete")


def api_routes():
    """(OpenAPI path template, route name, view callback) of every route under /api/v1/."""
    (api,) = [p for p in get_resolver().url_patterns
              if isinstance(p, URLResolver) and str(p.pattern) == "api/v1/"]

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
    routes = [(path, name, view_class(callback)) for path, name, callback in api_routes()
              if name not in DOCUMENT_VIEWS]
    assert len(routes) > 40
    elsewhere = [(path, view.__module__) for path, _, view in routes if not view.__module__.startswith("games.api.")]
    assert elsewhere == []


@pytest.mark.django_db
def test_every_route_of_the_api_is_in_the_document_with_its_methods():
    # Their bodies and error answers are typed: tests/api/test_document.py.
    doc = fetch_document()
    missing = []
    for path, name, callback in api_routes():
        if name in DOCUMENT_VIEWS:
            continue
        view = view_class(callback)
        methods = [m for m in METHODS if hasattr(view, m)] or ["get"]
        for method in methods:
            if method not in doc["paths"].get(path, {}):
                missing.append((method.upper(), path))
    assert missing == []
