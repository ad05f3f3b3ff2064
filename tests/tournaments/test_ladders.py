"""Ladders (docs/tournaments.md, "Ladder"): join at the bottom, challenge up to `reach` places
above, the defender accepts (a game) or declines; the winner takes the higher place, an
unanswered challenge goes to the challenger; bad input is a `{code, detail}` and writes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.community import ladders, social
from games.models import Challenge, Game, Rung

pytestmark = pytest.mark.django_db
URL = "/api/v1/ladders/duel/"


def order() -> list[str]:
    return list(Rung.objects.filter(ladder__kind="duel").order_by("position").values_list("user__username", flat=True))


@pytest.fixture
def field():
    people = [User.objects.create_user(name, password="x") for name in ("ann", "ben", "cat", "dan", "eve")]
    for user in people:
        ladders.join("duel", user)
    return people


def test_a_challenger_who_wins_takes_the_place_and_the_others_move_down_one(field):
    ann, ben, cat, dan, eve = field
    made = ladders.challenge("duel", eve, "ben")  # three places above: within the reach
    made = ladders.accept(made.pk, ben)
    game = Game.objects.get(pk=made.game_id)
    assert game.status == "active" and game.options["ladder"] == "duel" and game.clocks
    social.resign(game.pk, ben)
    ladders.games_finished([str(game.pk)])
    assert order() == ["ann", "eve", "ben", "cat", "dan"]
    assert Challenge.objects.get(pk=made.pk).status == "won"


def test_a_challenger_who_loses_moves_nothing(field):
    ann, ben, cat, dan, eve = field
    made = ladders.accept(ladders.challenge("duel", cat, "ann").pk, ann)
    social.resign(made.game_id, cat)
    ladders.games_finished([str(made.game_id)])
    assert order() == ["ann", "ben", "cat", "dan", "eve"]


def test_declined_and_unanswered_challenges_go_to_the_challenger(field):
    ann, ben, cat, dan, eve = field
    ladders.decline(ladders.challenge("duel", dan, "ben").pk, ben)
    assert order() == ["ann", "dan", "ben", "cat", "eve"]
    made = ladders.challenge("duel", eve, "ben")
    Challenge.objects.filter(pk=made.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert ladders.due() == 1
    assert order() == ["ann", "dan", "eve", "ben", "cat"]


def test_the_beat_settles_a_challenge_game_whose_message_was_lost(field):
    ann, ben, *_ = field
    made = ladders.accept(ladders.challenge("duel", ben, "ann").pk, ann)
    social.resign(made.game_id, ann)
    assert ladders.due() == 1
    assert order()[:2] == ["ben", "ann"]


def test_challenges_out_of_reach_or_twice_are_refused_over_http(field, make_player):
    ann, ben, cat, dan, eve = field
    fay = make_player("fay")
    assert fay.post(URL + "join/").status_code == 200
    assert fay.get(URL).json()["position"] == 6
    too_far = fay.post(URL + "challenges/", {"defender": "ann"})
    assert too_far.status_code == 400 and too_far.json()["code"] == "invalid"
    below = fay.post(URL + "challenges/", {"defender": "nobody"})
    assert below.status_code == 404
    assert fay.post(URL + "challenges/", {"defender": 5}).status_code == 400
    made = fay.post(URL + "challenges/", {"defender": "cat"})
    assert made.status_code == 201, made.content
    again = fay.post(URL + "challenges/", {"defender": "dan"})
    assert again.status_code == 409 and again.json()["code"] == "tournament_closed"
    assert Challenge.objects.count() == 1
    # Only the player challenged answers.
    answer = fay.post(f"/api/v1/ladders/challenges/{made.json()['id']}/accept/")
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert fay.post("/api/v1/ladders/challenges/999999/accept/").status_code == 404
    assert fay.get("/api/v1/ladders/chess/").status_code == 404
    assert fay.get("/api/v1/ladders/pickpic/").status_code == 404  # not a 2-player game
    assert fay.post(URL + "join/").json()["code"] == "already_joined"
