"""Playing the computer over the API: bot accounts seated at create, their moves made by a real
Celery worker on the bots' own queue through the same use case as a person's (docs/bots.md)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Event, Game
from tests.worker import Worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def purge(queue: str) -> None:
    from kombu import Queue

    from config.celery import app

    with app.connection_for_write() as conn:
        Queue(queue).bind(conn.default_channel).purge()


@pytest.fixture
def bots_worker(settings):
    """A worker consuming the bots' queue only: bot moves are made there and nowhere else."""
    settings.BOT_MOVE_DELAY_SECONDS = 0
    settings.BOT_TABLE_DELAY_SECONDS = 0
    purge(settings.BOTS_QUEUE)
    worker = Worker(
        queues=["bots"], beat=False, BOT_MOVE_DELAY_SECONDS="0", BOT_TABLE_DELAY_SECONDS="0", BOT_THINK_SECONDS="0.2"
    ).start()
    yield worker
    worker.stop()
    purge(settings.BOTS_QUEUE)


def create(player, **body):
    return player.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, **body})


def test_a_game_against_two_bots_starts_at_once_and_the_bots_move_as_players(alice, bots_worker):
    response = create(alice, bots=[1, 2])
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["status"] == "active" and game["rated"] is False
    assert [(p["seat"], p["bot"]) for p in game["players"]] == [(0, None), (1, 1), (2, 2)]
    game_id = game["id"]
    # Both bots give (simultaneous phase); then only alice has something to do.
    assert wait_for(lambda: Game.objects.get(pk=game_id).active_seats == [0], timeout=60), bots_worker.output()[-3000:]
    bots = {u.pk: u for u in User.objects.filter(is_bot=True)}
    moves = Event.objects.filter(game_id=game_id, actor__in=[1, 2]).exclude(type="PlayerJoined")
    assert moves.count() == 2 and all(e.user_id in bots for e in moves)
    assert all(e.idempotency_key.startswith(f"bot:{game_id}:") for e in moves)
    legal = alice.get(f"/api/v1/games/{game_id}/legal-moves/").json()
    played = alice.move(game_id, legal["moves"][0], legal["version"])
    assert played.status_code == 201, played.content

    # Everyone ranks; the one round reaches the target (1 point): the game ends.
    def ranked():
        g = Game.objects.get(pk=game_id)
        return g.active_seats == [0] or g.status == "finished"

    assert wait_for(ranked, timeout=60), bots_worker.output()[-3000:]
    g = Game.objects.get(pk=game_id)
    while g.status == "active":
        legal = alice.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert alice.move(game_id, legal["moves"][0], legal["version"]).status_code == 201
        wait_for(lambda: Game.objects.get(pk=game_id).active_seats in ([0], []), timeout=60)
        g = Game.objects.get(pk=game_id)
    assert g.status == "finished"
    # A rematch seats the same bots again and starts at once.
    rematch = alice.post(f"/api/v1/games/{game_id}/rematch/")
    assert rematch.status_code == 201, rematch.content
    again = alice.get(f"/api/v1/games/{rematch.json()['id']}/").json()
    assert again["status"] == "active" and [p["bot"] for p in again["players"]] == [None, 1, 2]
    # Bots are marked on their profiles.
    profile = alice.get(f"/api/v1/players/{bots[again['players'][2]['user']].username}/").json()
    assert profile["is_bot"] is True and profile["bot_level"] == 2


@pytest.mark.parametrize(
    "body, detail",
    [
        ({"bots": [4]}, "bots"),
        ({"bots": [0]}, "bots"),
        ({"bots": "two"}, "bots"),
        ({"bots": [1, 1, 1, 1, 1, 1]}, "bots"),
        ({"bots": [1, 2], "seats": 2}, "seats"),
        ({"bots": [1], "private": True}, "private"),
        ({"options": {"bots": {"1": 3}}}, "bots"),
    ],
)
def test_bad_bot_requests_are_refused_and_nothing_is_written(alice, body, detail):
    before = Game.objects.count()
    response = alice.post("/api/v1/games/", {"kind": "pickpic", **body})
    assert response.status_code == 400, response.content
    assert set(response.json()) >= {"code", "detail"} and detail in response.json()["detail"]
    assert Game.objects.count() == before and not User.objects.filter(is_bot=True).exists()


def test_a_bot_game_is_rated_only_when_asked_and_the_site_allows_it(alice, settings):
    def rated(**body):
        response = alice.post("/api/v1/games/", {"kind": "photograph", "bots": [1], **body})
        assert response.status_code == 201, response.content
        return response.json()["rated"]

    settings.BOTS_RATED = False
    assert rated(rated=True) is False
    settings.BOTS_RATED = True
    assert rated(rated=True) is True
    assert rated() is False


def test_two_bots_of_one_level_are_two_accounts_and_a_person_named_like_one_is_not_one(alice, make_player):
    make_player("computer-random")  # a person took the name first
    game = create(alice, bots=[1, 1]).json()
    seated = [p for p in game["players"] if p["bot"]]
    assert len({p["user"] for p in seated}) == 2
    assert all(User.objects.get(pk=p["user"]).is_bot for p in seated)
    assert not User.objects.get(username="computer-random").is_bot
    assert "computer-random" not in [p["username"] for p in seated]


def test_a_game_with_seats_left_for_people_stays_open(alice):
    game = create(alice, bots=[3], seats=3).json()
    assert game["status"] == "open" and [p["bot"] for p in game["players"]] == [None, 3]


def test_an_open_seek_is_filled_with_bots_when_its_wait_is_over(alice, bob, bots_worker):
    response = alice.post(
        "/api/v1/games/", {"kind": "pickpic", "seats": 4, "fill_with_bots": {"level": 2, "after_seconds": 5}}
    )
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["status"] == "open" and game["rated"] is False
    assert bob.post(f"/api/v1/games/{game['id']}/join/").status_code == 200
    assert wait_for(lambda: Game.objects.get(pk=game["id"]).status == "active", timeout=60), "\n".join(
        line for line in bots_worker.output().splitlines() if "celery.beat" not in line
    )[-3000:]
    players = alice.game(game["id"])["players"]
    assert [p["bot"] for p in players] == [None, None, 2, 2]
    assert [p["username"] for p in players[:2]] == ["alice", "bob"]


@pytest.mark.parametrize(
    "fill",
    [
        {"level": 4, "after_seconds": 10},
        {"level": 1, "after_seconds": 1},
        {"level": 1},
        {"level": 1, "after_seconds": 100000},
        "soon",
    ],
)
def test_a_bad_fill_with_bots_is_refused(alice, fill):
    response = alice.post("/api/v1/games/", {"kind": "pickpic", "fill_with_bots": fill})
    assert response.status_code == 400 and response.json()["code"] == "invalid", response.content
    assert not Game.objects.exists()
