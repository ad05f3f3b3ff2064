"""Staff settle a tournament game (games.community.tournament_staff, docs/tournaments.md "Staff"):
the game ends at once with the places they state, unrated, its log naming them and their reason,
and the tournament moves on as when a game ends by its own play."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from jsonschema import Draft202012Validator

from games.community import tournament_lifecycle, tournament_registration, tournament_staff, tournament_standings
from games.engines import base
from games.errors import Forbidden, GameNotActive, Invalid, NotFound
from games.models import Event, Game, Notification, TournamentRound
from games.play import audit, store

pytestmark = pytest.mark.django_db


def users(n: int, prefix: str = "p") -> list[User]:
    return [User.objects.create_user(f"{prefix}{i}", password="x") for i in range(n)]


@pytest.fixture
def organiser():
    return User.objects.create_user("organiser", password="x")


@pytest.fixture
def staff():
    member = User.objects.create_user("referee", password="x", is_staff=True)
    member.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    return User.objects.get(pk=member.pk)


def running(organiser, players: list[User], kind="duel", size=2, rounds=2, **options) -> tuple:
    t = tournament_lifecycle.create(
        organiser, "Spring cup", kind, "swiss", size, rounds=rounds, options=options or None
    )
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    t.refresh_from_db()
    return t, list(TournamentRound.objects.get(tournament=t, number=t.current_round).tables.order_by("number"))


def test_a_settled_game_ends_with_the_stated_places_and_the_round_moves_on(organiser, staff):
    t, tables = running(organiser, users(2))
    game = tables[0].game
    tournament_staff.settle_game(t.pk, staff, game.pk, [2, 1], "seat 0 cannot be reached")
    game.refresh_from_db()
    assert game.status == "finished" and game.result["places"] == [2, 1]
    assert game.result["settled"] == {"by": "referee", "reason": "seat 0 cannot be reached"}
    assert game.result["winners"] == [1] and game.result["scores"] == []
    Draft202012Validator(base.result_schema()).validate(game.result)  # any result's shape
    assert "rating_changes" not in game.result  # not played out: not rated
    assert not game.active_seats and game.next_deadline is None
    # The log says who settled it, and a replay of the log agrees with the row.
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert last.type == store.GAME_FINISHED and last.user_id == staff.pk and last.data["seed"]
    assert audit.verify_game(game) == []
    # Both players hear of the end; the round is recorded and the next one open.
    assert Notification.objects.filter(game=game, type="finished").count() == 2
    tables[0].refresh_from_db()
    t.refresh_from_db()
    assert tables[0].places == [2, 1] and t.current_round == 2
    winner = game.seat_set.get(number=1).user_id
    assert tournament_standings.standings(t)[0].registration.user_id == winner


def test_settling_the_last_game_of_the_last_round_finishes_the_tournament(organiser, staff):
    t, tables = running(organiser, users(2), rounds=1)
    tournament_staff.settle_game(t.pk, staff, tables[0].game_id, [1, 1])
    t.refresh_from_db()
    assert t.status == "finished"
    assert [s.points for s in tournament_standings.standings(t)] == [0.5, 0.5]


def test_a_team_game_is_settled_by_team(organiser, staff):
    """Photoshoot at four seats, teams alternating: seats 0 and 2 against 1 and 3."""
    t, tables = running(organiser, users(4), kind="photoshoot", size=4, rounds=1)
    game = tables[0].game
    with pytest.raises(Invalid):
        tournament_staff.settle_game(t.pk, staff, game.pk, [1, 2, 2, 1])
    tournament_staff.settle_game(t.pk, staff, game.pk, [2, 1, 2, 1])
    game.refresh_from_db()
    assert game.result["places"] == [2, 1, 2, 1] and game.result["winners"] == [1, 3]


@pytest.mark.parametrize("places", [[1], [1, 2, 3], [0, 1], [1, 3], ["1", "2"], [1.0, 2], None, "1,2", [True, 2]])
def test_the_places_are_one_whole_number_a_seat_within_the_table(organiser, staff, places):
    t, tables = running(organiser, users(2))
    with pytest.raises(Invalid):
        tournament_staff.settle_game(t.pk, staff, tables[0].game_id, places)
    assert Game.objects.get(pk=tables[0].game_id).status == "active"


def test_only_staff_with_the_permission_settle_and_only_a_game_of_the_tournament_in_progress(organiser, staff):
    players = users(2)
    t, tables = running(organiser, players)
    plain_staff = User.objects.create_user("helper", password="x", is_staff=True)
    for who in (organiser, players[0], plain_staff):
        with pytest.raises(Forbidden):
            tournament_staff.settle_game(t.pk, who, tables[0].game_id, [1, 2])
    other, _ = running(User.objects.create_user("other", password="x"), users(2, "q"))
    for game_id in (uuid.uuid4(), "not-a-game", TournamentRound.objects.get(tournament=other).tables.get().game_id):
        with pytest.raises(NotFound):
            tournament_staff.settle_game(t.pk, staff, game_id, [1, 2])
    with pytest.raises(Invalid):
        tournament_staff.settle_game(t.pk, staff, tables[0].game_id, [1, 2], "x" * 201)
    tournament_staff.settle_game(t.pk, staff, tables[0].game_id, [1, 2])
    with pytest.raises(GameNotActive):
        tournament_staff.settle_game(t.pk, staff, tables[0].game_id, [2, 1])
