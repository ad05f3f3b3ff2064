"""Idempotency keys belong to their caller (docs/api.md#idempotency): a person who sends a bot's
predictable key gets their own move judged, and the bot still moves with that key after them."""

from __future__ import annotations

import pytest

from games.models import Event
from games.play.bot_moves import play_turn

pytestmark = pytest.mark.django_db


def test_a_person_spending_a_bots_next_key_does_not_freeze_the_bot(alice, settings):
    settings.BOT_THINK_SECONDS = 0.05
    game = alice.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, "bots": [1, 1]}).json()
    game_id, version = game["id"], game["version"]
    # Pick Pic opens with everyone giving at once: alice gives first, with the key the bot at
    # seat 1 will send once the game is at alice's new version.
    legal = alice.get(f"/api/v1/games/{game_id}/legal-moves/").json()
    stolen = f"bot:{game_id}:1:{version + 1}"
    mine = alice.move(game_id, legal["moves"][0], version, key=stolen)
    assert mine.status_code == 201, mine.content
    assert play_turn(game_id, 1, version + 1) == "moved"
    keyed = Event.objects.filter(game_id=game_id, idempotency_key=stolen)
    assert sorted(keyed.values_list("actor", flat=True)) == [0, 1]


def test_the_same_key_from_two_people_is_two_requests(alice, bob, duel):
    """Bob's request with alice's key is judged as bob's own: neither her answer nor a mismatch."""
    version = alice.game(duel)["version"]
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]}, version, key="shared")
    card = bob.game(duel)["state"]["hand"][0]
    response = bob.move(duel, {"type": "play", "card": card}, version + 1, key="shared")
    assert response.status_code == 201, response.content
    assert response.json()["version"] == version + 2
