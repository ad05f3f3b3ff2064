"""The README fixes the order in which a move is judged: game exists (404) -> you have a seat (403)
-> the game is active (409 game_not_active) -> expected_version is current (409 version_conflict)
-> the engine's pipeline. A request wrong in several ways gets the first error of that order."""

import uuid

from games.models import Game


def finish(alice, bob, game_id):
    while (game := alice.game(game_id))["status"] == "active":
        player = {0: alice, 1: bob}[game["active_seats"][0]]
        moves = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert player.move(game_id, moves["moves"][0], moves["version"]).status_code == 201


def test_a_finished_game_says_so_before_judging_a_stale_version(alice, bob, duel):
    finish(alice, bob, duel)
    stale = Game.objects.get(pk=duel).version - 1
    response = alice.move(duel, {"type": "play", "card": "D01"}, expected_version=stale)
    assert response.status_code == 409 and response.json()["code"] == "game_not_active"


def test_a_stranger_is_refused_before_the_version_is_looked_at(alice, bob, carol, duel):
    response = carol.move(duel, {"type": "play", "card": "D01"}, expected_version=0)
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"


def test_an_unknown_game_is_404_whatever_the_body(alice):
    response = alice.post(f"/api/v1/games/{uuid.uuid4()}/moves/", {"move": 3, "expected_version": "x"})
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_stale_version_is_judged_before_the_move_itself(alice, bob, duel):
    current = alice.game(duel)["version"]
    response = bob.move(duel, {"type": "no-such-move"}, expected_version=current - 1)
    assert response.status_code == 409 and response.json()["code"] == "version_conflict"
    assert response.json()["version"] == current


def test_the_inactive_seat_is_refused_before_its_move_is_looked_at(alice, bob, duel):
    # Alice (seat 0) leads the first trick: Bob posting garbage is "not your turn", not "illegal".
    response = bob.move(duel, {"type": "no-such-move"})
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"
