"""Every game, played whole over HTTP. At every step, every channel a viewer has (game view,
event log, state?at=, the move answer) shows exactly what the engine's `view` / `describe` give
that viewer, no more; the seed appears nowhere before the end. The engines' own tests prove
those functions hide what they must, phase by phase; this proves the API adds nothing to them."""

import json
import random

import pytest
from rest_framework.utils.encoders import JSONEncoder

from games.play import selectors, store
from games.play.kinds import get_engine
from games.models import Event, Game
from tests.conftest import start_game

KINDS = [("pickpic", 3), ("photograph", 2), ("photograph", 4), ("provence", 2)]


def canonical(value):
    """As the API renders it (DRF's encoder: ISO dates with Z)."""
    return json.loads(json.dumps(value, cls=JSONEncoder))


@pytest.mark.long
@pytest.mark.parametrize("kind, players", KINDS)
def test_a_whole_game_over_http_shows_each_viewer_only_their_view(kind, players, make_player):
    seats = [make_player() for _ in range(players)]
    spectator = make_player()
    game_id = start_game(seats[0], seats[1:], kind=kind)
    engine = get_engine(kind)
    game = Game.objects.get(pk=game_id)
    seed = Event.objects.get(game=game, seq=1).data["seed"]
    chooser = random.Random(f"{kind}-{players}")
    for step in range(2000):
        game.refresh_from_db()
        if game.status != "active":
            break
        state = store.replay_from_scratch(game)
        check_channels(engine, game, state, seats, spectator, seed, full_log=step % 10 == 0)
        seat = chooser.choice(game.active_seats)
        listed = seats[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
        answer = seats[seat].move(game_id, chooser.choice(listed["moves"]), listed["version"])
        assert answer.status_code == 201, answer.content
        game.refresh_from_db()
        after = store.replay_from_scratch(game, answer.json()["version"])
        assert answer.json()["state"] == canonical(engine.view(after, seat))
        assert seed not in answer.content.decode()
    assert game.status == "finished", "the game did not end"
    result = seats[0].game(game_id)["result"]
    assert len(result["scores"]) == players and result["winners"]
    assert seats[0].game(game_id)["seed"] == seed


def check_channels(engine, game, state, seats, spectator, seed, full_log):
    viewers = [(seat, player) for seat, player in enumerate(seats)] + [(None, spectator)]
    for seat, player in viewers:
        detail = player.get(f"/api/v1/games/{game.pk}/")
        assert detail.json()["state"] == canonical(engine.view(state, seat))
        at = player.get(f"/api/v1/games/{game.pk}/state/", at=game.version)
        assert at.json()["state"] == canonical(engine.view(state, seat))
        after = 0 if full_log else max(0, game.version - 3)
        log = player.get(f"/api/v1/games/{game.pk}/events/", after=after, limit=1000)
        expected = [selectors.describe(game, e, seat) for e in store.events(game, after)]
        assert log.json()["events"] == canonical(expected)
        for response in (detail, at, log):
            assert seed not in response.content.decode()
