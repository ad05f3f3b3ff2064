"""The dispute review page (games/play/review.py through the admin): both moments as the full state
and every seat's and a spectator's view; bad event numbers refused; staff only."""

import pytest

from accounts.models import User
from games.play import store
from games.play.kinds import engine_of
from games.models import Game


@pytest.fixture
def staff(db, client):
    user = User.objects.create_user("referee", password="x", is_staff=True, is_superuser=True)
    client.force_login(user)
    return client


def test_the_review_holds_both_states_every_seats_view_and_the_events_between(staff, alice, duel):
    game = alice.game(duel)
    alice.move(duel, {"type": "play", "card": game["state"]["hand"][0]}, game["version"])
    version = Game.objects.get(pk=duel).version
    response = staff.get(f"/admin/games/game/{duel}/review/?from={version - 2}&at={version}")
    assert response.status_code == 200
    review = response.context["review"]
    model = Game.objects.get(pk=duel)
    engine = engine_of(model)
    assert review["at"]["state"] == store.replay_from_scratch(model, version)
    assert review["since"]["state"] == store.replay_from_scratch(model, version - 2)
    assert review["at"]["views"]["seats"]["0"] == engine.view(review["at"]["state"], 0)
    assert review["at"]["views"]["spectator"] == engine.view(review["at"]["state"], None)
    assert [e["seq"] for e in review["events"]] == [version - 1, version]
    page = response.content.decode()
    assert 'id="review-data"' in page and "web/admin/review.js" in page


def test_the_review_defaults_to_the_latest_event_and_the_one_before(staff, duel):
    version = Game.objects.get(pk=duel).version
    review = staff.get(f"/admin/games/game/{duel}/review/").context["review"]
    assert (review["since"]["seq"], review["at"]["seq"]) == (version - 1, version)


@pytest.mark.parametrize("query, status", [("?at=x", 400), ("?from=1.5", 400), ("?at=99", 404), ("?at=-1", 404)])
def test_bad_event_numbers_are_refused(staff, duel, query, status):
    assert staff.get(f"/admin/games/game/{duel}/review/{query}").status_code == status


def test_before_the_start_there_is_no_view_to_draw(staff, duel):
    review = staff.get(f"/admin/games/game/{duel}/review/?from=0&at=1").context["review"]
    assert review["since"]["state"] is None and review["since"]["views"] is None


def test_players_cannot_reach_the_review(alice, client, duel):
    client.force_login(alice.user)
    assert client.get(f"/admin/games/game/{duel}/review/").status_code == 302  # to the login page
