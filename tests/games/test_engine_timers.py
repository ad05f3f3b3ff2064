"""An engine's own timers (Photoshoot's hourglass is one): the state says when, the server applies
the engine's move as the system when it is due, through the same expiry machinery as clocks."""

from datetime import timedelta

from django.utils import timezone

from games.play import deadlines, store
from games.models import Event, Game
from tests.conftest import start_game


def test_an_engine_deadline_is_applied_by_the_system_when_due(alice, bob, monkeypatch):
    # Ten minutes on the hourglass, then the clock jumps past them: no sleep, no race with a
    # loaded machine's scheduler (the "not yet" check has the whole ten minutes of margin).
    game_id = start_game(alice, [bob], options={"hourglass": 600})
    alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]})
    game = Game.objects.get(pk=game_id)
    assert game.next_deadline is not None
    bobs_hand = bob.game(game_id)["state"]["hand"]
    assert deadlines.expire_due(game_id) == 0  # not yet
    later = game.next_deadline + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert deadlines.expire_due(game_id, game.version) == 2
    expired, played = Event.objects.filter(game=game).order_by("-seq")[:2][::-1]
    assert expired.type == "TimerExpired" and expired.data["timer"] == "hourglass" and expired.data["seat"] == 1
    assert played.type == "CardPlayed" and played.actor is None and played.data["auto"] is True
    assert played.data["record"]["card"] == min(bobs_hand, key=lambda c: int(c[1:]))
    game.refresh_from_db()
    assert store.replay_from_scratch(game) == store.state_at(game)


def test_a_system_move_cannot_be_posted_by_a_player(alice, bob):
    game_id = start_game(alice, [bob], options={"hourglass": 1})
    response = alice.move(game_id, {"type": "hourglass_run_out"})
    assert (response.status_code, response.json()["code"]) == (400, "unavailable_move")
