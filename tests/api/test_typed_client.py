"""A typed client, generated from the served document by openapi-python-client, plays a whole game
of every kind against a live server (pytest-django's live_server: a real HTTP server on a free
127.0.0.1 port), choosing each move from legal-moves. The client parses every answer into its
generated classes, so a response that strays from the document fails here."""

from __future__ import annotations

import importlib
import importlib.util
import json
import random
import re
import sys

import pytest

from games import engines
from games.api.schema import kind_name
from games.play.kinds import get_engine
from tests.worker import ROOT

# Every built-in kind (not the suite's test game), with the fewest seats it allows; Photoshoot with
# two teams (4 seats) and a 5 s hourglass, which the first move after it ends (no worker here):
# that move, or one racing it, is refused with a documented error the client parses.
KINDS = engines.kinds()
SEATS = {"photoshoot": 4}
RACING = {"version_conflict", "unavailable_move", "not_your_turn", "game_not_active"}


def example_bot():
    """examples/http_bot.py, which generates the same client for third-party bots (docs/bots.md)."""
    spec = importlib.util.spec_from_file_location("http_bot", ROOT / "examples" / "http_bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def darkroom_client(tmp_path_factory, live_server):
    work = tmp_path_factory.mktemp("typed-client")
    said = example_bot().generate(live_server.url, work)
    # Clean means clean: a warning is a schema the generator dropped (and so an untyped answer).
    assert not re.search(r"warning|error", said, re.I), said
    sys.path.insert(0, str(work))
    try:
        yield importlib.import_module("darkroom_client")
    finally:
        sys.path.remove(str(work))
        for name in [m for m in sys.modules if m == "darkroom_client" or m.startswith("darkroom_client.")]:
            del sys.modules[name]


def api(package, module: str):
    return importlib.import_module(f"darkroom_client.api.{module}")


def model(package, name: str):
    return getattr(importlib.import_module("darkroom_client.models"), name)


def register(package, base_url: str, name: str):
    body = model(package, "RegisterInRequest")(username=name, password="correct horse battery")
    with package.Client(base_url=base_url) as anonymous:
        created = api(package, "accounts.accounts_register_create").sync(client=anonymous, body=body)
    assert isinstance(created, model(package, "RegisterOut")), created
    return package.AuthenticatedClient(
        base_url=base_url, token=created.token, prefix="Token", raise_on_unexpected_status=True, timeout=60
    )


@pytest.mark.parametrize("kind", KINDS)
def test_a_generated_client_plays_a_whole_game_of_every_kind(kind, darkroom_client, live_server, transactional_db):
    package, url = darkroom_client, live_server.url
    seats = SEATS.get(kind, get_engine(kind).min_players)
    clients = [register(package, url, f"typed-{kind}-{n}") for n in range(seats)]
    try:
        play_a_whole_game(package, kind, clients)
    finally:  # a kept-alive connection holds a server thread, and its database connection
        for client in clients:
            client.get_httpx_client().close()


def play_a_whole_game(package, kind, clients):
    view_class = model(package, f"{kind_name(kind)}View")
    kind_enum = model(package, "CreateGameInRequestKind")
    body = model(package, "CreateGameInRequest")(kind=kind_enum(kind))
    if kind == "photoshoot":
        body.options = model(package, "PhotoshootOptions")(hourglass_seconds=5)
    created = api(package, "games.games_create").sync(client=clients[0], body=body)
    assert isinstance(created, model(package, "GameDetailOut")), created
    game_id = str(created.id)
    for other in clients[1:]:
        assert api(package, "games.games_join_create").sync(game_id, client=other).status.value == "open"
    api(package, "games.games_start_create").sync(game_id, client=clients[0])
    chooser, moves, refused = random.Random(kind), 0, 0
    retrieve, legal = api(package, "games.games_retrieve"), api(package, "games.games_legal_moves_retrieve")
    submit = api(package, "games.games_moves_create")
    while True:
        game = retrieve.sync(game_id, client=clients[0])
        assert isinstance(game.state, view_class), f"{kind}: state parsed as {type(game.state).__name__}"
        if game.status.value != "active":
            break
        seat = chooser.choice(game.active_seats)
        listed = legal.sync(game_id, client=clients[seat])
        photos = [m for m in listed.moves if type(m).__name__ == "PhotoshootMovePhoto"]
        # "Photo!" favoured, so a Photoshoot team reaches 25 in a few short rounds
        choice = photos[0] if photos and chooser.random() < 0.6 else chooser.choice(listed.moves)
        assert type(choice).__name__.startswith(kind_name(kind) + "Move"), type(choice).__name__
        answer = submit.sync(
            game_id,
            client=clients[seat],
            body=model(package, "MoveInRequest")(move=choice, expected_version=listed.version),
        )
        if (
            kind == "photoshoot"
            and isinstance(answer, model(package, "ErrorOut"))
            and getattr(answer.code, "value", answer.code) in RACING
        ):
            refused += 1  # the hourglass ran out under the move
            assert refused < 200
            continue
        assert isinstance(answer, model(package, "MoveOut")), answer
        assert isinstance(answer.state, view_class)
        moves += 1
        assert moves < 3000, "the game did not end"
    assert game.status.value == "finished" and moves > 5
    assert isinstance(game.result, model(package, "Result")) and game.result.winners
    log = api(package, "games.games_events_retrieve").sync(game_id, client=clients[1], limit=1000)
    assert len(log.events) == game.version
    page = api(package, "games.games_list").sync(client=clients[0], mine=True)
    assert page.count == 1 and str(page.results[0].id) == game_id
    inbox = api(package, "notifications.notifications_list").sync(client=clients[1])
    assert inbox.results and inbox.unread >= 0
    export = api(package, "accounts.accounts_me_export_retrieve").sync(client=clients[1])
    assert isinstance(export, model(package, "ExportOut")) and export.data.additional_properties["seats"]
    print(
        json.dumps(
            {
                "kind": kind,
                "moves": moves,
                "events": game.version,
                "scores": game.result.scores,
                "winners": game.result.winners,
            }
        )
    )
