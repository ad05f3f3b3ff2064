"""Photoshoot's secrets through every channel of the API: the order of the objective and Effect
piles, the seed until the end, and whether an action was an error until it is challenged.

The engine's own tests (tests/engines/photoshoot/test_secrecy.py) prove `view` / `describe` hide
them, whole game long; these prove the API adds nothing, in every phase (the ready step, a round,
a challenge window, between rounds, the end): game view, move answer, event log, state?at=N for
every N, and (with a real server) each viewer's live stream, entry for entry what /events/ shows.
The hourglass is a short one, ended by the timer machinery (`deadlines.expire_due`, what the ETA
task and the sweeper call)."""

import json
import random

import pytest
from django.utils import timezone

from games.play import deadlines, store
from games.play.kinds import get_engine
from games.models import Event, Game
from tests.conftest import start_game
from tests.games.test_every_game_over_http import canonical, check_channels
from tests.live_server import game_stream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.long]
SECONDS = 5
ENGINE = get_engine("photoshoot")


def pile_runs(state):
    """How the piles' order would read in a body: each pile's next cards, as JSON renders them."""
    runs = [json.dumps(state["objective_pile"][-3:])[1:-1]] if len(state["objective_pile"]) >= 3 else []
    return runs + [json.dumps(pile[-2:])[1:-1] for pile in state["piles"].values() if len(pile) >= 2]


def choose(chooser, moves):
    """Random legal moves, "Photo!" favoured so a team reaches 25 in a few short rounds."""
    photos = [m for m in moves if m["type"] == "photo"]
    return photos[0] if photos and chooser.random() < 0.6 else chooser.choice(moves)


def end_the_round_if_due(game_id):
    game = Game.objects.get(pk=game_id)
    if game.next_deadline and game.next_deadline <= timezone.now():
        deadlines.expire_due(game_id)


def play(seats, game_id, chooser, on_step=lambda game, state: None):
    """The whole game, one random legal move at a time; returns the phases it went through."""
    phases = set()
    for _ in range(3000):
        end_the_round_if_due(game_id)
        game = Game.objects.get(pk=game_id)
        if game.status != "active":
            break
        state = store.replay_from_scratch(game)
        phases.add((state["phase"], state["round"] > 1, bool(state["last"] and state["last"]["status"] == "open")))
        on_step(game, state)
        seat = chooser.choice(game.active_seats)
        listed = seats[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
        answer = seats[seat].move(game_id, choose(chooser, listed["moves"]), listed["version"])
        if answer.status_code != 201:
            # the hourglass ran out under the move: its end was settled first, the move refused
            game.refresh_from_db()
            assert game.version > listed["version"] or game.next_deadline <= timezone.now(), answer.content
            continue
        assert answer.status_code == 201, answer.content
        after = store.replay_from_scratch(game, answer.json()["version"])
        assert answer.json()["state"] == canonical(ENGINE.view(after, seat))
        for run in pile_runs(after):
            assert run not in answer.content.decode()
    assert Game.objects.get(pk=game_id).status == "finished", "the game did not end"
    return phases


def test_every_channel_in_every_phase_shows_each_viewer_only_their_view(make_player):
    seats = [make_player() for _ in range(4)]
    spectator = make_player()
    game_id = start_game(seats[0], seats[1:], kind="photoshoot", options={"hourglass_seconds": SECONDS})
    seed = Event.objects.get(game_id=game_id, seq=1).data["seed"]
    viewers, seen = [*seats, spectator], set()

    def on_step(game, state):
        moment = (state["phase"], state["round"] > 1, bool(state["last"] and state["last"]["status"] == "open"))
        if game.version % 4 and moment in seen:
            return  # every channel is read at each new kind of moment and every 4th version
        seen.add(moment)
        check_channels(ENGINE, game, state, seats, spectator, seed, full_log=game.version % 10 == 0)
        for viewer in viewers:
            body = viewer.get(f"/api/v1/games/{game_id}/").content.decode()
            assert not any(run in body for run in pile_runs(state))

    phases = play(seats, game_id, random.Random("channels"), on_step)
    assert {("ready", False, False), ("round", False, True), ("ready", True, False)} <= phases, phases
    game = Game.objects.get(pk=game_id)
    # after the end the seed is published (the piles become derivable, as with every kind), and
    # every replayed state is still only the viewer's view of it
    assert seats[0].game(game_id)["seed"] == seed
    for seat, viewer, every in [(None, spectator, 1), (1, seats[1], 5)]:
        for at in range(0, game.version + 1, every):
            shown = viewer.get(f"/api/v1/games/{game_id}/state/", at=at).json()["state"]
            state = store.replay_from_scratch(game, at)
            assert shown == (None if state is None else canonical(ENGINE.view(state, seat))), at


def refusals(viewers, game_id, photographer, control):
    """What each viewer is told when it tries what it may not do right after action 1 (the
    photographer who made it is no longer on turn)."""
    tries = [
        (control, {"type": "swap", "cells": [0, 1]}),
        (photographer, {"type": "photo"}),
        (control, {"type": "challenge", "action": 0}),
        (photographer, {"type": "wave"}),
        (photographer, {"type": "challenge", "action": 1}),
        (control, {"type": "answer"}),
    ]
    told = [(r.status_code, r.json()) for r in (viewers[s].move(game_id, m) for s, m in tries)]
    seen = []
    for viewer in viewers:
        state = viewer.game(game_id)["state"]
        event = viewer.get(f"/api/v1/games/{game_id}/events/").json()["events"][-1]
        seen.append(
            {
                "last_action": sorted(state["last_action"]),
                "challengeable": state["challengeable"],
                "moves": state["moves"],
                "active": state["active"],
                "turn": state["turn"],
                "event": (event["type"], sorted(event), sorted(event.get("record") or {})),
            }
        )
    return told, seen


def test_an_erroneous_and_a_correct_action_look_alike_to_everyone_until_challenged(make_player):
    """Two games at their first action: a swap of two cells that are not neighbours (an error at
    the base level, unless both are girlfriends) and a swap of neighbours (correct). Every viewer's
    view, log line and every refusal (code and text) read the same in both."""
    girlfriends = {"Olivia", "Chloé", "Alice"}
    told = {}
    for label in ("error", "correct"):
        seats = [make_player() for _ in range(4)]
        spectator = make_player()
        game_id = start_game(seats[0], seats[1:], kind="photoshoot")
        for seat in range(4):
            seats[seat].move(game_id, {"type": "ready"})
        state = seats[0].game(game_id)["state"]
        assert state["phase"] == "round" and state["effects"] == [[], []]
        grid = state["grid"]
        cells = (
            [0, 1]
            if label == "correct"
            else next([a, b] for a, b in ((0, 8), (2, 6), (0, 4)) if not {grid[a], grid[b]} <= girlfriends)
        )
        photographer = state["turn"]
        assert seats[photographer].move(game_id, {"type": "swap", "cells": cells}).status_code == 201
        fault = store.state_at(Game.objects.get(pk=game_id))["last"]["faults"]
        assert bool(fault) == (label == "error")
        told[label] = refusals([*seats, spectator], game_id, photographer, 1)
        assert all(status >= 400 for status, _ in told[label][0])
        assert "fault" not in json.dumps(told[label])
    assert told["error"] == told["correct"]


def test_each_viewer_stream_shows_what_events_shows_them_through_a_whole_game(server, make_player):
    seats = [make_player() for _ in range(4)]
    spectator = make_player()
    game_id = start_game(seats[0], seats[1:], kind="photoshoot", options={"hourglass_seconds": SECONDS})
    viewers = [*seats, spectator]
    streams = [game_stream(server, v.token, game_id, after=0) for v in viewers]
    try:
        play(seats, game_id, random.Random("streams"))
        last = Game.objects.get(pk=game_id).version
        seed = Event.objects.get(game_id=game_id, seq=1).data["seed"]
        final = store.replay_from_scratch(Game.objects.get(pk=game_id))
        for viewer, stream in zip(viewers, streams):
            assert stream.next().event == "ready"
            got = stream.until(lambda m: m.id == str(last), timeout=60)
            log = viewer.get(f"/api/v1/games/{game_id}/events/", limit=1000).json()["events"]
            assert [m.data["event"] for m in got] == log
            assert [int(m.id) for m in got] == list(range(1, last + 1))
            assert not any(seed in json.dumps(m.data) for m in got if m.data["event"]["type"] != "GameFinished")
            assert not any(run in json.dumps(m.data) for m in got for run in pile_runs(final))
    finally:
        for stream in streams:
            stream.close()
