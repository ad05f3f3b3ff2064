"""Ratings: written in the transaction that finishes a rated game, shown in its result, on the
players' profiles and the kind's leaderboard; unrated, aborted and cooperative games change none."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import ratings
from accounts.models import Rating, RatingChange, User
from games.play import deadlines, lobby, projection
from games.models import Event, Game
from tests.conftest import start_game
from tests.games.timetravel import rewind

pytestmark = pytest.mark.django_db


def play_out(game_id, players):
    """Play the first legal move of whoever is to move until the game ends."""
    by_seat = {p.game(game_id)["your_seat"]: p for p in players}
    for _ in range(100):
        game = by_seat[0].game(game_id)
        if game["status"] != "active":
            return game
        seat = game["active_seats"][0]
        listed = by_seat[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert by_seat[seat].move(game_id, listed["moves"][0], listed["version"]).status_code == 201
    raise AssertionError("the game did not end")


def test_a_rated_duel_moves_both_ratings_and_says_so_in_the_result(alice, bob):
    game_id = start_game(alice, [bob], options={"hand_size": 2})
    assert alice.game(game_id)["rated"] is True  # public games are rated by default
    game = play_out(game_id, [alice, bob])
    changes = game["result"]["rating_changes"]
    assert [c["seat"] for c in changes] == [0, 1]
    places = game["result"]["places"]
    for change in changes:
        assert change["delta"] == pytest.approx(change["after"] - change["before"], abs=0.011)
        row = Rating.objects.get(user=(alice if change["seat"] == 0 else bob).user, kind="duel")
        assert (row.rating, row.games) == (change["after"], 1)
    if places[0] != places[1]:
        winner, loser = (changes[0], changes[1]) if places[0] < places[1] else (changes[1], changes[0])
        assert winner["after"] > loser["after"]
    # The same numbers are in the immutable log, so the projection can be rebuilt from it.
    finished = Event.objects.get(game_id=game_id, type="GameFinished")
    assert finished.data["result"]["rating_changes"] == changes
    rebuilt = projection.rebuild_projection(Game.objects.get(pk=game_id))
    assert rebuilt["result"] == game["result"]
    assert RatingChange.objects.filter(game_id=game_id).count() == 2


def test_an_unrated_game_changes_no_rating(alice, bob):
    response = alice.post("/api/v1/games/", {"kind": "duel", "options": {"hand_size": 1}, "rated": False})
    assert response.status_code == 201 and response.json()["rated"] is False
    game_id = response.json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/")
    alice.post(f"/api/v1/games/{game_id}/start/")
    game = play_out(game_id, [alice, bob])
    assert game["status"] == "finished" and "rating_changes" not in game["result"]
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.parametrize("rated", ["yes", 1, [], {"x": 1}])
def test_rated_must_be_a_boolean_and_nothing_is_created_otherwise(alice, rated):
    response = alice.post("/api/v1/games/", {"kind": "duel", "rated": rated})
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert not Game.objects.exists()


def test_a_forfeit_ranks_the_forfeited_seat_last(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "timeout_policy": "forfeit"})
    rewind(game_id, 3 * 86400 + 1)
    deadlines.expire_due(game_id)
    result = alice.game(game_id)["result"]
    assert result["forfeited"] == [0]
    by_seat = {c["seat"]: c for c in result["rating_changes"]}
    assert by_seat[0]["delta"] < 0 < by_seat[1]["delta"]


def test_an_aborted_result_is_not_rated(alice, bob):
    game = lobby.create_game(alice.user, "duel", {}, 2)
    assert (
        ratings.rate_finished(
            game,
            {"places": [1, 2], "winners": [0], "aborted": True},
            None,
            {0: alice.user.pk, 1: bob.user.pk},
            game.created_at,
        )
        is None
    )
    assert not Rating.objects.exists()


# -- who is rated as what ------------------------------------------------------------------------
def test_sides_of_a_free_for_all_with_a_tie():
    assert ratings.sides({"places": [2, 1, 2]}, None) == [([0], 2), ([1], 1), ([2], 2)]


def test_sides_of_photoshoot_teams_and_a_forfeited_teammate():
    result = {"places": [1, 3, 1, 2], "forfeited": [1]}
    assert ratings.sides(result, [[0, 2], [1, 3]]) == [([0, 2], 1), ([3], 2), ([1], 3)]


def test_cooperative_aborted_and_one_sided_games_have_no_sides():
    assert ratings.sides({"places": [1, 1, 1]}, [[0, 1, 2]]) is None  # Photoshoot's cooperative mode
    assert ratings.sides({"places": [1, 2], "aborted": True}, None) is None
    assert ratings.sides({"places": [1]}, None) is None


def users(count):
    return [User.objects.create_user(username=f"rated{i}", password="x") for i in range(count)]


def test_six_players_in_teams_and_queries_do_not_grow_with_the_players(django_assert_max_num_queries):
    people = users(6)
    game = lobby.create_game(people[0], "photoshoot", {}, 6)
    seats = {seat: person.pk for seat, person in enumerate(people)}
    result = {"places": [1, 2, 1, 2, 1, 2], "winners": [0, 2, 4]}
    with CaptureQueriesContext(connection) as six:
        changes = ratings.rate_finished(game, result, [[0, 2, 4], [1, 3, 5]], seats, game.created_at)
    assert len(changes) == 6
    assert all(c["delta"] > 0 for c in changes if c["seat"] % 2 == 0)
    assert all(c["delta"] < 0 for c in changes if c["seat"] % 2 == 1)
    duel = lobby.create_game(people[0], "duel", {}, 2)
    with CaptureQueriesContext(connection) as two:
        ratings.rate_finished(duel, {"places": [1, 2]}, None, {0: people[0].pk, 1: people[1].pk}, duel.created_at)
    assert len(six.captured_queries) == len(two.captured_queries) <= 4


def test_a_second_game_starts_from_the_first_ones_rating():
    a, b, c = users(3)
    first = lobby.create_game(a, "pickpic", {}, 3)
    ratings.rate_finished(first, {"places": [1, 2, 3]}, None, {0: a.pk, 1: b.pk, 2: c.pk}, first.created_at)
    after_first = Rating.objects.get(user=a, kind="pickpic").rating
    second = lobby.create_game(a, "pickpic", {}, 3)
    changes = ratings.rate_finished(second, {"places": [3, 1, 2]}, None, {0: a.pk, 1: b.pk, 2: c.pk}, second.created_at)
    assert changes[0]["before"] == after_first and changes[0]["after"] < after_first
    assert Rating.objects.get(user=a, kind="pickpic").games == 2


@pytest.mark.parametrize("players, teams", [(4, [[0, 2], [1, 3]]), (6, [[0, 2, 4], [1, 3, 5]]), (3, [[0, 1, 2]])])
def test_photoshoot_says_its_teams_and_its_cooperative_mode_is_not_rated(players, teams):
    from games.play import options as game_options
    from games.play.kinds import get_engine

    engine = get_engine("photoshoot")
    own = game_options.engine_options(engine, game_options.validate(engine, {}))
    state = engine.setup(players, own, "seed")
    assert engine.teams(state) == teams
    rated = ratings.sides({"places": [1] * players}, engine.teams(state))
    assert (rated is None) == (len(teams) == 1)
    assert get_engine("pickpic").teams({}) is None  # every seat for itself
