"""Who may do what, called directly: unknown and malformed games, seats read with the game in one
query, spectators, strangers and the creator (mutation testing found these unstated)."""

import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from games.play import access
from games.errors import Forbidden, NotAPlayer, NotFound


@pytest.mark.parametrize("game_id", [lambda: uuid.uuid4(), lambda: "not-a-uuid", lambda: 12])
def test_an_unknown_or_malformed_game_is_not_found(db, game_id):
    with pytest.raises(NotFound) as refused:
        access.get_game(game_id())
    assert refused.value.args == ("no such game",)


def test_a_locked_read_is_the_same_game(duel):
    with transaction.atomic():
        assert str(access.get_game(duel, lock=True).pk) == duel


def test_the_seat_read_with_the_game_costs_no_second_query(alice, bob, duel, django_assert_num_queries):
    game = access.get_game(duel, user=bob.user)
    with django_assert_num_queries(0):
        assert access.seat_of(game, bob.user) == 1
        assert access.require_player(game, bob.user) == 1


def test_a_spectator_read_with_the_game_has_no_seat(duel, carol, django_assert_num_queries):
    game = access.get_game(duel, user=carol.user)
    with django_assert_num_queries(0):
        assert access.seat_of(game, carol.user) is None


def test_the_seat_known_for_one_user_is_not_another_s(alice, bob, duel):
    game = access.get_game(duel, user=bob.user)
    assert access.seat_of(game, alice.user) == 0
    assert access.seat_of(access.get_game(duel), bob.user) == 1  # read afterwards, when not known


def test_anonymous_callers_and_no_user_have_no_seat(duel, django_assert_num_queries):
    game = access.get_game(duel, user=AnonymousUser())
    assert not hasattr(game, "_seat_known")
    with django_assert_num_queries(0):
        assert access.seat_of(game, AnonymousUser()) is None
        assert access.seat_of(game, None) is None


def test_a_stranger_is_not_a_player(duel, carol):
    with pytest.raises(NotAPlayer) as refused:
        access.require_player(access.get_game(duel), carol.user)
    assert refused.value.args == ("you have no seat in this game",)


def test_only_the_creator_passes_the_creator_check(alice, bob, duel):
    game = access.get_game(duel)
    access.require_creator(game, alice.user)
    with pytest.raises(Forbidden) as refused:
        access.require_creator(game, bob.user)
    assert refused.value.args == ("only the game's creator may do this",)


def test_a_seat_in_another_game_is_no_seat_in_this_one(duel, carol):
    carol.post("/api/v1/games/", {"kind": "duel"})  # carol sits at seat 0 of her own game
    assert access.seat_of(access.get_game(duel, user=carol.user), carol.user) is None


def test_a_move_reads_the_seats_and_their_vacations_with_the_game(alice, bob, duel, django_assert_num_queries):
    """What a move needs of the table comes with the locked game in one statement, and equals what
    the separate reads give: each seat's user and name, each vacation to the microsecond."""
    from datetime import datetime, timezone as tz

    from accounts.models import Vacation
    from games.notifications import notify
    from games.play import turns

    first = (datetime(2026, 12, 24, 8, 30, 0, 123456, tzinfo=tz.utc), datetime(2026, 12, 27, 0, 0, tzinfo=tz.utc))
    second = (datetime(2027, 1, 5, tzinfo=tz.utc), datetime(2027, 1, 6, 12, 0, 0, 1, tzinfo=tz.utc))
    for start, end in (first, second):
        Vacation.objects.create(user=bob.user, start=start, end=end)
    with transaction.atomic(), django_assert_num_queries(1):
        game = access.get_game(duel, lock=True, user=alice.user, table=True)
    assert game.table.seats == {0: (alice.user.pk, alice.user.username), 1: (bob.user.pk, bob.user.username)}
    assert game.table.seats == notify.seats_with_names(game)
    assert game.table.vacations[1] == [first, second]
    assert 0 not in game.table.vacations
    assert {seat: sorted(spans) for seat, spans in turns.vacations_for(game).items()} == game.table.vacations
    assert not hasattr(access.get_game(duel), "table")  # only asked for by a move
