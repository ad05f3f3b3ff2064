"""Golden games: complete recorded games (tests/golden/<kind>/*.json, written by
`python -m tests.golden.record`) replayed through the store and the engines. They must match
forever: the final state's hash, the outcome, and every move's event type and record. A change that
breaks one is a new rules version (docs/games.md, "Rules versions"), never an edited golden file."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from games import engines
from games.play import store
from games.play.kinds import engine_of, get_engine
from games.models import Event, Game, Seat
from tests.golden.record import state_hash

HERE = Path(__file__).resolve().parent
GOLDEN = sorted(HERE.glob("*/*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def stored_game(recorded: dict, user) -> Game:
    """The recorded log written to the event store as it was written when played."""
    created = recorded["events"][0]
    assert created["type"] == store.GAME_CREATED
    game = Game.objects.create(
        kind=recorded["kind"],
        options=recorded["options"],
        seats=recorded["players"],
        creator=user,
        seed_hash=created["data"]["seed_hash"],
        rules_version=created["data"].get("rules_version", 1),
        status=Game.Status.FINISHED,
    )
    Event.objects.bulk_create(
        [
            Event(
                game=game,
                seq=e["seq"],
                type=e["type"],
                actor=e["actor"],
                data=e["data"],
                created_at=datetime.fromisoformat(e["created_at"]),
            )
            for e in recorded["events"]
        ]
    )
    game.version = len(recorded["events"])
    game.save(update_fields=["version"])
    return game


def finished_game(path: Path, users) -> tuple[Game, dict]:
    """A recorded game written to the store as finished, with its result and `users` in its
    seats (seat order): a finished game to look at without playing it. (game, recording)."""
    recorded = load(path)
    game = stored_game(recorded, users[0])
    Game.objects.filter(pk=game.pk).update(result=recorded["result"])
    Seat.objects.bulk_create([Seat(game=game, number=n, user=u) for n, u in enumerate(users)])
    return game, recorded


@pytest.mark.django_db
@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_golden_game_replays_to_the_recorded_state_and_result(path, django_user_model):
    recorded = load(path)
    game = stored_game(recorded, django_user_model.objects.create_user("golden", "g@example.org", "x"))
    engine = engine_of(game)
    assert engine.rules_version == recorded["rules_version"]
    final = store.replay_from_scratch(game)
    assert state_hash(final) == recorded["state_hash"]
    assert engine.outcome(final) == recorded["result"]
    finished = [e for e in recorded["events"] if e["type"] == store.GAME_FINISHED]
    assert [e["data"]["result"] for e in finished] == [recorded["result"]]


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_golden_game_moves_cause_the_recorded_events(path):
    """Each move, judged again by the recorded rules version, is accepted and names the same
    event type and record (the facts the log shows) as when it was played."""
    recorded = load(path)
    events = recorded["events"]
    engine = get_engine(recorded["kind"], recorded["rules_version"])
    started = next(e for e in events if e["type"] == store.GAME_STARTED)
    state = engine.setup(recorded["players"], started["data"]["options"], recorded["seed"])
    moves = [e for e in events if e["type"] not in store.SERVER_TYPES or e["type"] == store.SEAT_FORFEITED]
    assert moves, "a golden game has moves"
    for event in moves:
        if event["type"] == store.SEAT_FORFEITED:  # a seat out: the rules of who plays next change
            state = engine.forfeit(state, event["data"]["seat"])
            continue
        step = engine.play(state, event["actor"], event["data"]["move"], datetime.fromisoformat(event["created_at"]))
        assert (step.event_type, step.record) == (event["type"], event["data"]["record"]), event["seq"]
        state = step.state
    assert state_hash(state) == recorded["state_hash"]


def test_every_kind_has_golden_games_at_every_rules_version_it_keeps():
    recorded = {(load(p)["kind"], load(p)["rules_version"]) for p in GOLDEN}
    for kind in engines.kinds():  # every built-in game (not the test suite's own tiny one)
        for version in get_engine(kind).rules_versions:
            assert (kind, version) in recorded, f"no golden game of {kind} rules version {version}"
