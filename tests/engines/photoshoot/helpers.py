"""Building Photoshoot positions for rule tests: a real setup, then the square, the effects and the
objective set as the test needs, and every seat made ready."""

from __future__ import annotations

import json
from datetime import timedelta

from games.engines.photoshoot import ENGINE
from tests.engines.contract import T0

ROW_MAJOR = ["Max", "Olivia", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Arthur", "James"]


def at(seconds: float = 0):
    return T0 + timedelta(seconds=seconds)


def engine_of(state):
    """The engine of the rules version the state was set up under (version 1 keeps none)."""
    return ENGINE.at_version(state.get("rules_version", 1))


def new(players=4, seed="s", version=None, **options):
    """A new game under the current rules, or under rules `version`."""
    return (ENGINE if version is None else ENGINE.at_version(version)).setup(players, options, seed)


def started(players=4, grid=None, effects=(), other_effects=(), seed="s", objective=None, version=None, **options):
    """A round in play at T0 (the hourglass started at T0), team 0 photographing."""
    state = new(players, seed, version, **options)
    state["grid"] = list(grid or ROW_MAJOR)
    state["effects"][0] = list(effects)
    if len(state["effects"]) > 1:
        state["effects"][1] = list(other_effects)
    if objective is not None:
        state["objective"] = objective
    for seat in sorted(engine_of(state).active_players(state)):
        if "ready" in engine_of(state).move_types(state, seat) and state["phase"] == "ready":
            state = play(state, seat, {"type": "ready"})
    assert state["phase"] == "round", state
    return state


def play(state, seat, move, when=0):
    return engine_of(state).play(state, seat, json.loads(json.dumps(move)), at(when)).state


def step(state, seat, move, when=0):
    return engine_of(state).play(state, seat, json.loads(json.dumps(move)), at(when))


def turn(state):
    return engine_of(state).view(state, None)["turn"]


def act(state, move, when=0):
    """The seat whose turn it is plays `move`."""
    return play(state, turn(state), move, when)


def challenge(state, when=0):
    control = engine_of(state).view(state, None)["control"]
    seat = state["teams"][control][0]
    return step(state, seat, {"type": "challenge", "action": state["last"]["number"]}, when)
