"""Turn notices collapse in real-time games (docs/time-and-notifications.md): a
Photoshoot round played at table speed leaves each player one "Your turn" row for the game, not
one per turn; a turn notice read long ago is not reopened."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Notification
from tests.conftest import start_game

pytestmark = pytest.mark.django_db


def play_a_round(seats, game_id, chooser, moves=60):
    """Random legal moves (the ready step first) by whoever may act, as fast as the table plays
    (far within the 2-minute hourglass), until `moves` were made or the round is over."""
    made = 0
    while made < moves:
        game = Game.objects.get(pk=game_id)
        if game.status != "active" or not game.active_seats:
            break
        seat = chooser.choice(game.active_seats)
        listed = seats[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
        if not listed["moves"]:
            break
        move = chooser.choice([m for m in listed["moves"] if m["type"] != "photo"] or listed["moves"])
        if seats[seat].move(game_id, move, listed["version"]).status_code == 201:
            made += 1
    return made


def test_a_two_minute_photoshoot_round_leaves_one_turn_notice_per_player(make_player):
    seats = [make_player() for _ in range(4)]
    game_id = start_game(seats[0], seats[1:], kind="photoshoot", options={"hourglass_seconds": 120})
    made = play_a_round(seats, game_id, random.Random("notices"))
    assert made >= 20
    rows = {
        seat.user.username: Notification.objects.filter(user=seat.user, game_id=game_id, type="your_turn")
        for seat in seats
    }
    assert {name: notes.count() for name, notes in rows.items()} == {name: 1 for name in rows}
    assert sum(n.collapsed for notes in rows.values() for n in notes) >= 10  # the turns it stood for


def test_a_turn_notice_read_long_ago_is_not_reopened(alice, bob, settings):
    game_id = start_game(alice, [bob], options={"hand_size": 6})

    def turn_notices():
        return list(Notification.objects.filter(user=bob.user, game_id=game_id, type="your_turn").order_by("id"))

    def step():
        """One move by whoever is on turn (a trick's winner leads the next)."""
        game = Game.objects.get(pk=game_id)
        assert game.status == "active"
        player = alice if game.active_seats == [0] else bob
        moves = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"]
        assert player.move(game_id, moves[0]).status_code == 201

    while not turn_notices():
        step()
    (first,) = turn_notices()
    while Notification.objects.get(pk=first.pk).read_at is None:
        step()  # until bob moves, which reads it
    Notification.objects.filter(pk=first.pk).update(
        read_at=timezone.now() - timedelta(seconds=settings.TURN_NOTICE_REOPEN_SECONDS + 1)
    )
    while len(turn_notices()) == 1 and Notification.objects.get(pk=first.pk).read_at is not None:
        step()  # until the turn comes back to bob (a new notice, or the old one reopened)
    assert [n.read_at is None for n in turn_notices()] == [False, True]  # a new one, the old stays read
