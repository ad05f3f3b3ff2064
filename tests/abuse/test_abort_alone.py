"""When a game may still be aborted alone (docs/social.md#abort): in the opening
only, while some seat has not moved and fewer moves of their own have been made than there are
seats. A seat the server only ever auto-moves does not keep the window open."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.play import deadlines
from games.models import Game
from tests.conftest import start_game
from tests.games.test_social_leaving import first_move, url

pytestmark = pytest.mark.django_db


def test_a_seat_only_ever_auto_moved_does_not_let_the_other_abort_alone_late(alice, bob, monkeypatch):
    game_id = start_game(
        alice,
        [bob],
        options={"hand_size": 6, "time_control": "per_move", "move_seconds": 3600, "timeout_policy": "auto_move"},
    )
    assert alice.game(game_id)["rated"] is True
    own, auto = 0, 0
    while own < 3 or auto < 2:  # alice plays; bob never does: the server plays his turns at his deadline
        game = Game.objects.get(pk=game_id)
        assert game.status == "active" and own + auto < 40
        if game.active_seats == [0]:
            first_move(alice, game_id)
            own += 1
            continue
        with monkeypatch.context() as m:
            m.setattr(timezone, "now", lambda: game.next_deadline)
            assert deadlines.expire_due(game_id, game.version) >= 1
        auto += 1
    assert alice.game(game_id)["status"] == "active"
    assert alice.get(url(game_id, "abort")).json()["alone"] is False
    vote = alice.post(url(game_id, "abort")).json()
    assert (vote["aborted"], vote["votes"], vote["needed"]) == (False, [0], [0, 1])
    assert alice.game(game_id)["status"] == "active"


def test_in_the_opening_one_seat_still_aborts_alone(alice, bob, duel):
    first_move(alice, duel)  # one move of two: bob may still walk away from the table
    assert bob.get(url(duel, "abort")).json()["alone"] is True
    assert bob.post(url(duel, "abort")).json()["aborted"] is True
