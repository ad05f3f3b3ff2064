"""Deleting an account races with taking a seat (docs/accounts.md, "What a deleted
account leaves"): whichever commits first, a deleted account never ends up seated in an open game."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Game, Seat
from tests.games.test_concurrency import client_for, race

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "correct horse battery"


@pytest.mark.parametrize("run", range(5))
def test_deleting_an_account_while_it_joins_a_game_never_leaves_it_seated(alice, make_player, run):
    bob = make_player()
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]

    def act(i):
        client = client_for(bob)
        if i == 0:
            return client.post("/api/v1/accounts/me/delete/", {"password": PASSWORD}, format="json").status_code
        return client.post(f"/api/v1/games/{game_id}/join/", format="json").status_code

    deleted, joined = race(2, act)
    assert (deleted, joined) in {(204, 403), (409, 200), (204, 401)}, (deleted, joined)
    gone = not User.objects.get(pk=bob.user.pk).is_active
    seated = Seat.objects.filter(game_id=game_id, user=bob.user).exists()
    assert not (gone and seated)
    assert Game.objects.get(pk=game_id).status == Game.Status.OPEN
