"""Building Photoshoot positions for rule tests: a real setup, then the square, the effects and the
objective set as the test needs, and every seat made ready."""
from __future__ import annotations

import json
from datetime import timedelta

from games.engines.photoshoot import ENGINE
from tests.engines.contract import T0

ROW_MAJOR = ["Max", "Olivia", "Alice",
             "Pam", "Edgar", "Jo",
             "Chloé", "Arthur", "James"]


def at(seconds: float = 0):
    return T0 + timedelta(seconds=seconds)


def new(players=4, seed="s", **options):
    return ENGINE.setup(players, options, seed)


def started(players=4, grid=None, effects=(), other_effects=(), seed="s", objective=None, **options):
    """A round in play at T0 (the hourglass started at T0), team 0 photographing."""
    state = new(players, seed, **options)
    state["grid"] = list(grid or ROW_MAJOR)
    state["effects"][0] = list(effects)
    if len(state["effects"]) > 1:
        state["effects"][1] = list(other_effects)
    if objective is not None:
        state["objective"] = objective
    for seat in sorted(ENGINE.active_players(state)):
        if "ready" in ENGINE.move_types(state, seat) and state["phase"] == "ready":
            state = play(state, seat, {"type": "ready"})
    assert state["phase"] == "round", state
    return state


def play(state, seat, move, when=0):
    return ENGINE.play(state, seat, json.loads(json.dumps(move)), at(when)).state


def step(state, seat, move, when=0):
    return ENGINE.play(state, seat, json.loads(json.dumps(move)), at(when))


def turn(state):
    return ENGINE.view(state, None)["turn"]


def act(state, move, when=0):
    """The seat whose turn it is plays `move`."""
    return play(state, turn(state), move, when)


def challenge(state, when=0):
    control = ENGINE.view(state, None)["control"]
    seat = state["teams"][control][0]
    return step(state, seat, {"type": "challenge", "action": state["last"]["number"]}, when)
