"""What the server hands a bot when its turn comes (games.play.bot_moves.play_turn): exactly what
its seat is shown over the API (the view, the legal moves, the log), and a seed of its own made of
public facts, with nothing of the game's secret seed (docs/bots.md). tests/bots/test_fairness.py
proves `bots.decide` uses nothing else; this proves nothing else reaches it."""

from __future__ import annotations

import json
import logging

import pytest
from rest_framework.test import APIClient
from rest_framework.utils.encoders import JSONEncoder

from accounts.models import User
from games import bots
from games.models import Event, Game
from games.play import bot_moves, turns

pytestmark = pytest.mark.django_db


@pytest.fixture
def handed(monkeypatch):
    """What each call of `bots.decide` was given; the real decide still chooses the move."""
    calls, real = [], bots.decide

    def decide(kind, level, **given):
        calls.append({"kind": kind, "level": level, **given})
        return real(kind, level, **given)

    monkeypatch.setattr(bots, "decide", decide)
    return calls


def as_seen_by(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


@pytest.mark.parametrize("seat", [1, 2])
def test_a_bot_is_handed_its_seat_s_view_and_log_and_a_seed_of_its_own(alice, bob, duel, handed, seat, settings):
    settings.BOT_THINK_SECONDS = 0.05
    game = alice.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, "bots": [1, 2]}).json()
    game_id = game["id"]
    # Everyone gives (alice first), then plays on until this bot's turn comes again: the log now
    # holds moves shown to their own seat alone, this bot's among them.
    moved = False
    for _ in range(12):
        active, version = Game.objects.values_list("active_seats", "version").get(pk=game_id)
        if moved and seat in active:
            break
        if 0 in active:
            mine = alice.get(f"/api/v1/games/{game_id}/legal-moves/").json()
            assert alice.move(game_id, mine["moves"][0], mine["version"]).status_code == 201
        else:
            mover = seat if seat in active else active[0]
            assert bot_moves.play_turn(game_id, mover, version) == "moved"
            moved = moved or mover == seat
    else:
        raise AssertionError("the bot's turn never came again")
    handed.clear()
    bot = User.objects.get(pk=game["players"][seat]["user"])
    assert bot.is_bot
    # What the bot's seat is shown over the API, read before it moves.
    seen = as_seen_by(bot)
    shown = seen.get(f"/api/v1/games/{game_id}/").json()
    legal = seen.get(f"/api/v1/games/{game_id}/legal-moves/").json()
    log = seen.get(f"/api/v1/games/{game_id}/events/", {"after": 0}).json()
    version = shown["version"]
    assert shown["your_seat"] == seat and legal["moves"]
    assert log["events"] != alice.get(f"/api/v1/games/{game_id}/events/?after=0").json()["events"]
    with_spectator = APIClient().get(f"/api/v1/games/{game_id}/events/", {"after": 0})
    assert with_spectator.status_code != 200 or log["events"] != with_spectator.json()["events"]

    assert bot_moves.play_turn(game_id, seat, version) == "moved"

    (given,) = handed
    played = Event.objects.get(game_id=game_id, seq=version + 1)
    assert (played.actor, played.user_id, played.idempotency_key) == (seat, bot.pk, f"bot:{game_id}:{seat}:{version}")
    assert (given["kind"], given["level"], given["seat"]) == ("pickpic", seat, seat)
    assert given["view"] == shown["state"]  # its seat's view, not another seat's nor the whole state
    assert given["legal"] == legal["moves"]
    assert given["options"] == Game.objects.get(pk=game_id).options and given["rules_version"] is not None
    assert given["budget"] == bots.Budget(iterations=10_000, seconds=settings.BOT_THINK_SECONDS)
    # The log as its seat reads it (as the API renders it: times as text).
    assert json.loads(json.dumps(given["log"], cls=JSONEncoder)) == log["events"]
    # The bot's seed is made of what every player knows; the game's secret seed, which deals the
    # cards, is nowhere in it nor in anything else the bot was handed.
    assert given["seed"] == f"{game_id}:{seat}:{version}"
    (secret,) = turns.seeds_of([Game.objects.get(pk=game_id)]).values()
    everything = json.dumps({k: v for k, v in given.items() if k != "budget"}, cls=JSONEncoder)
    assert not any(secret[i : i + 8] in everything for i in range(len(secret) - 7))


def test_a_bot_is_asked_nothing_when_the_game_moved_on_or_the_seat_is_not_its_own(alice, bob, duel, handed, settings):
    settings.BOT_THINK_SECONDS = 0.05
    game = alice.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, "bots": [1, 1]}).json()
    game_id, version = game["id"], game["version"]
    assert bot_moves.play_turn(game_id, 1, version - 1) == "stale"  # a newer write sent a newer task
    assert bot_moves.play_turn(game_id, 0, version) == "not a bot"  # alice's seat
    assert bot_moves.play_turn(duel, 1, Game.objects.get(pk=duel).version) == "not a bot"  # bob's
    assert handed == [] and Game.objects.get(pk=game_id).version == version
    assert bot_moves.play_turn(game_id, 1, version) == "moved"
    # It has given; the others have not: at the new version it has nothing to do.
    assert bot_moves.play_turn(game_id, 1, version + 1) == "nothing to do"
    assert len(handed) == 1 and Game.objects.get(pk=game_id).version == version + 1
    waiting = alice.post("/api/v1/games/", {"kind": "pickpic", "bots": [1], "seats": 3}).json()
    assert waiting["status"] == "open"
    assert bot_moves.play_turn(waiting["id"], 1, waiting["version"]) == "stale"  # not started yet


@pytest.mark.parametrize("answer", [None, {"type": "give", "cards": ["not a card"]}], ids=["passes", "refused"])
def test_a_bot_that_lets_its_chance_pass_or_whose_move_is_refused_writes_nothing(alice, monkeypatch, caplog, answer):
    """decide may answer None (Photoshoot's Control team with nothing to challenge); a move the
    rules refuse (the game changed under the bot) is logged with why, and the task says its code."""
    monkeypatch.setattr(bots, "decide", lambda kind, level, **given: answer)
    game = alice.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, "bots": [1, 1]}).json()
    game_id, version = game["id"], game["version"]
    with caplog.at_level(logging.INFO, logger="games.play.bot_moves"):
        outcome = bot_moves.play_turn(game_id, 1, version)
    assert Game.objects.get(pk=game_id).version == version
    logged = [r.getMessage() for r in caplog.records if r.name == "games.play.bot_moves"]
    if answer is None:
        assert (outcome, logged) == ("passed", [])
    else:
        assert outcome == "illegal_move"
        (line,) = logged
        # Why, in the words a player sending the same move is answered with.
        refused = alice.move(game_id, answer, version)
        assert refused.status_code == 400, refused.content
        assert line == f"bot move in {game_id} at {version} not played: {refused.json()['detail']}"
