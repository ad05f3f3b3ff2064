"""Photoshoot's cooperative game and a resignation, through the server (rules version 3): "If
the team has not reached 25 points, it loses the game", so a teammate leaving decides nothing. The
seats still in play on, the server playing the resigned seats' turns (their `ready`), and the
table shows who left."""

import pytest

from games.models import Game
from tests.conftest import start_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("players", [2, 3])
def test_rule_a_resignation_never_wins_a_cooperative_game(make_player, players):
    seats = [make_player() for _ in range(players)]
    game_id = start_game(seats[0], seats[1:], kind="photoshoot")
    for leaving in seats[1:]:
        assert leaving.post(f"/api/v1/games/{game_id}/resign/").status_code == 200
    game = seats[0].game(game_id)
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE and game["result"] is None
    assert game["state"]["forfeited"] == list(range(1, players))
    assert game["state"]["awaiting_ready"] == [0]  # the server readied the others
    assert seats[0].move(game_id, {"type": "ready"}).status_code == 201
    state = seats[0].game(game_id)["state"]
    assert state["phase"] == "round" and state["turn"] == 0
    assert seats[0].move(game_id, {"type": "swap", "cells": [0, 1]}).status_code == 201
    assert seats[0].game(game_id)["state"]["turn"] == 0  # the seat left takes every turn
