"""The skeleton (tests/bench/skeleton.py) is a fair floor only if it does what every move must: these
hold it to the real endpoints' reads, checks and bodies, in process, against the real database."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts import services as accounts
from games.models import Event, Game
from tests.bench import skeleton, throughput

urlpatterns = skeleton.urlpatterns


@pytest.fixture
def table(db, settings):
    settings.ROOT_URLCONF = __name__
    players = [accounts.register(f"skel{i}", "correct horse battery", f"skel{i}@example.com") for i in range(3)]
    game_id = throughput.make_pickpic([user for user, _ in players])
    clients = []
    for _, token in players:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        clients.append(client)
    return game_id, clients


def base(game_id) -> str:
    return f"/{skeleton.PREFIX}games/{game_id}/"


def test_its_bodies_are_a_pick_pic_view_and_legal_moves_of_both_phases():
    (give_view, give), (rank_view, rank) = skeleton.phases()
    assert {move["type"] for move in give} == {"give"} and len(give) == 6
    assert {move["type"] for move in rank} == {"rank"} and len(rank) == 120  # every order of five
    assert give_view != rank_view


def test_its_game_view_is_the_real_summary_with_a_state(table):
    game_id, clients = table
    body = clients[0].get(base(game_id)).json()
    real = clients[0].get(f"/api/v1/games/{game_id}/").json()
    assert set(body) == set(real) and body["version"] == real["version"] and body["players"] == real["players"]


def test_its_move_takes_the_lock_writes_one_event_and_refuses_a_stale_version(table):
    game_id, clients = table
    version = Game.objects.get(pk=game_id).version
    legal = clients[0].get(f"{base(game_id)}legal-moves/").json()
    with CaptureQueriesContext(connection) as queries:
        answer = clients[0].post(
            f"{base(game_id)}moves/", {"move": legal["moves"][0], "expected_version": version}, format="json"
        )
    assert answer.status_code == 201 and answer.json()["version"] == version + 1
    assert any("FOR UPDATE" in q["sql"] for q in queries.captured_queries)
    assert Event.objects.filter(game_id=game_id, type=skeleton.MOVED).count() == 1
    assert Game.objects.get(pk=game_id).version == version + 1
    stale = clients[0].post(
        f"{base(game_id)}moves/", {"move": legal["moves"][0], "expected_version": version}, format="json"
    )
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    assert Event.objects.filter(game_id=game_id, type=skeleton.MOVED).count() == 1


def test_a_stranger_has_no_seat_there(table):
    game_id, _ = table
    _, token = accounts.register("skelx", "correct horse battery", "skelx@example.com")
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert (
        stranger.post(f"{base(game_id)}moves/", {"move": {}, "expected_version": 0}, format="json").status_code == 403
    )
