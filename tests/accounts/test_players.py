"""Profiles and leaderboards over HTTP."""

from __future__ import annotations

import pytest

from accounts import ratings
from games.play import lobby
from games.play.bots import bot_account
from tests.accounts.test_ratings import play_out
from tests.conftest import start_game

pytestmark = pytest.mark.django_db


def test_a_profile_counts_games_played_and_won_and_shows_rating_and_history(alice, bob, carol):
    game = play_out(start_game(alice, [bob], options={"hand_size": 1}), [alice, bob])
    profile = carol.get("/api/v1/players/alice/")
    assert profile.status_code == 200
    body = profile.json()
    assert body["username"] == "alice" and "email" not in body
    (duel,) = body["kinds"]
    assert duel["kind"] == "duel" and duel["played"] == 1
    assert duel["won"] == (0 in game["result"]["winners"])
    change = next(c for c in game["result"]["rating_changes"] if c["seat"] == 0)
    assert duel["rating"]["rating"] == change["after"] and duel["rating"]["games"] == 1
    (point,) = duel["history"]
    assert point["game"] == game["id"] and point["after"] == change["after"]
    assert carol.get("/api/v1/players/ALICE/").json()["username"] == "alice"  # as logins are: any case


def test_unknown_and_deleted_players_are_404(alice, bob):
    assert bob.get("/api/v1/players/nobody/").json()["code"] == "not_found"
    assert bob.get("/api/v1/players/al%00ice/").json()["code"] == "not_found"
    assert alice.post("/api/v1/accounts/me/delete/", {"password": "correct horse battery"}).status_code == 204
    assert bob.get("/api/v1/players/alice/").status_code == 404
    assert bob.get(f"/api/v1/players/deleted-{alice.user.pk}/").status_code == 404


def test_profiles_and_leaderboards_need_a_login(anonymous, alice):
    assert anonymous.get("/api/v1/players/alice/").status_code == 401
    assert anonymous.get("/api/v1/kinds/duel/leaderboard/").status_code == 401


def test_the_leaderboard_ranks_by_rating_and_pages(make_player):
    people = [make_player() for _ in range(3)]
    game = lobby.create_game(people[0].user, "pickpic", {}, 3)
    ratings.rate_finished(
        game, {"places": [2, 1, 3]}, None, {i: p.user.pk for i, p in enumerate(people)}, game.created_at
    )
    board = people[0].get("/api/v1/kinds/pickpic/leaderboard/").json()
    assert board["count"] == 3
    assert [row["username"] for row in board["results"]] == [people[i].user.username for i in (1, 0, 2)]
    assert [row["rank"] for row in board["results"]] == [1, 2, 3]
    second = people[0].get("/api/v1/kinds/pickpic/leaderboard/", limit=1, offset=1).json()
    assert [(r["rank"], r["username"]) for r in second["results"]] == [(2, people[0].user.username)]
    assert people[0].get("/api/v1/kinds/duel/leaderboard/").json()["count"] == 0


def test_the_leaderboard_marks_bots_and_people_so_they_can_be_ranked_apart(make_player):
    """docs/bots.md: a bot has its own account and ratings, and leaderboards show `is_bot`."""
    people = [make_player() for _ in range(2)]
    bot = bot_account(3)
    game = lobby.create_game(people[0].user, "pickpic", {}, 3)
    ratings.rate_finished(
        game, {"places": [2, 1, 3]}, None, {0: people[0].user.pk, 1: bot.pk, 2: people[1].user.pk}, game.created_at
    )
    board = people[0].get("/api/v1/kinds/pickpic/leaderboard/").json()
    assert [(row["rank"], row["username"], row["is_bot"]) for row in board["results"]] == [
        (1, bot.username, True),
        (2, people[0].user.username, False),
        (3, people[1].user.username, False),
    ]


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": "x"}, {"offset": -1}])
def test_leaderboard_bad_paging_is_400(alice, query):
    response = alice.get("/api/v1/kinds/duel/leaderboard/", **query)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_leaderboard_of_an_unknown_kind_is_404(alice):
    assert alice.get("/api/v1/kinds/chess/leaderboard/").json()["code"] == "not_found"


@pytest.mark.parametrize("golden", ["v1-3p-b.json", "v2-3p-b.json"])
def test_a_lost_cooperative_game_is_played_but_won_by_nobody_on_a_profile(alice, bob, carol, golden):
    """The rule (docs/games.md, "Results"): a lost cooperative game has no winners. Version 1's
    results named every seat of one a winner; the profile reads `cooperative.won` for those."""
    from tests.golden.test_golden import HERE, finished_game

    _, recorded = finished_game(HERE / "photoshoot" / golden, [p.user for p in (alice, bob, carol)])
    assert recorded["result"]["cooperative"]["won"] is False
    (entry,) = carol.get("/api/v1/players/alice/").json()["kinds"]
    assert (entry["kind"], entry["played"], entry["won"]) == ("photoshoot", 1, 0)
