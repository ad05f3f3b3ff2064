"""Bots are fair by construction, and proven so with the whole-game secrecy harness.

`games.bots.decide` takes only what a seat is shown (its view, its legal moves, the log as it
reads it) with the options, the rules version, the bot's own seed and a budget: it is never
handed the state, the game's seed or another seat's view. The proof: each engine's own secrecy
perturbations (tests/engines/<kind>/test_secrecy.py) build a second game that the seat must not
tell apart from the first (two unseen cards exchanged in a shuffle, another seat's secret choice
made otherwise). Up to the perturbation's horizon, the bot at that seat, with its own seed fixed,
must choose exactly the same moves in both games, at every level. Level 3 searches with an
iteration budget (not a time budget) so its choice is reproducible.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import random
from datetime import timedelta

import pytest

from games import bots
from games import engines
from games.bots import Budget
from tests.engines import secrecy
from tests.engines.secrecy import T0, _World, _event, _randomness

# (kind, players, options, seed): a game per kind, with the hidden information of each.
GAMES = [
    ("photograph", 2, {}, "fair-0"),
    ("photograph", 3, {"missed_shot": True}, "fair-1"),
    ("provence", 2, {}, "fair-0"),
    ("pickpic", 3, {}, "fair-0"),
    ("photoshoot", 4, {}, "fair-0"),
    ("photoshoot", 2, {}, "fair-1"),
]
SEARCH = Budget(iterations=16, width=3)
DECISIONS = 3  # decision points compared per perturbation (level 3 thinks at each one)
PERTURBATIONS = 4  # per game


def log_of(engine, events: list[dict], seat: int) -> list[dict]:
    """The log as `seat` reads it now: the latest line fresh, the earlier ones as read later."""
    return [engine.describe({**e, "fresh": i == len(events) - 1}, seat) for i, e in enumerate(events)]


def choice(engine, kind: str, level: int, state: dict, events: list[dict], seat: int, options: dict, leak=None):
    """The bot's move as the server would ask for it. `leak` (the proof's own test only) mixes
    something of the state into the bot's seed, as a bot handed more than its seat's share would."""
    seed = f"bot-{seat}" + (leak(state) if leak else "")
    return bots.decide(
        kind,
        level,
        seat=seat,
        view=engine.view(state, seat),
        legal=engine.legal_moves(state, seat),
        log=log_of(engine, events, seat),
        options=options,
        rules_version=engine.rules_version,
        seed=seed,
        budget=SEARCH,
    )


def decision_points(trace, perturbation, chooser: random.Random) -> list[int]:
    """Move indices before the horizon at which the perturbed seat has something to do."""
    end = len(trace.moves) if perturbation.horizon is None else perturbation.horizon
    seat, engine = perturbation.seat, trace.engine
    points = [i for i in range(end + 1) if i < len(trace.states) and seat in engine.active_players(trace.states[i])]
    return sorted(chooser.sample(points, min(DECISIONS, len(points))))


def perturbed_game(trace, perturbation, upto: int):
    """The perturbed game's states and events up to move `upto`, through the real engine."""
    engine, world = trace.engine, _World(dict(perturbation.swaps))
    with _randomness(world):
        state = engine.setup(trace.players, trace.options, trace.seed)
        states, events = [state], []
        for index in range(upto):
            actor, move = trace.moves[index]
            if actor != perturbation.seat:
                move = perturbation.translate(state, actor, move, index)
            world.step = index
            step = engine.play(state, actor, move, T0 + timedelta(minutes=index))
            state = step.state
            states.append(state)
            events.append(_event(step, index + 1, actor, move))
    return states, events


def compare(kind: str, players: int, options: dict, seed: str, levels=bots.LEVELS, leak=None) -> int:
    """Compare the bots' choices in every perturbed game; returns how many were compared."""
    engine = engines.get(kind)
    module = importlib.import_module(f"tests.engines.{kind}.test_secrecy")
    trace = secrecy.record(engine, players, seed, options)
    chooser = random.Random(seed)
    perturbations = [p for p in module.perturbations(trace, chooser) if p.seat is not None]
    compared = 0
    for perturbation in chooser.sample(perturbations, min(PERTURBATIONS, len(perturbations))):
        seat = perturbation.seat
        points = decision_points(trace, perturbation, chooser)
        if not points:
            continue
        states, events = perturbed_game(trace, perturbation, max(points))
        for i in points:
            for level in levels:
                here = choice(engine, kind, level, trace.states[i], trace.events[:i], seat, options, leak)
                there = choice(engine, kind, level, states[i], events[:i], seat, options, leak)
                assert here == there, (
                    f"{kind}: the level-{level} bot at seat {seat} told apart "
                    f"at move {i}: {perturbation.why}\n{here}\n{there}"
                )
                compared += 1
    return compared


def test_a_bot_is_handed_only_what_its_seat_is_shown():
    """Structural: the one entry point takes these and nothing else (no state, no game seed)."""
    assert list(inspect.signature(bots.decide).parameters) == [
        "kind",
        "level",
        "seat",
        "view",
        "legal",
        "log",
        "options",
        "rules_version",
        "seed",
        "budget",
    ]


@pytest.mark.parametrize("kind, players, options, seed", GAMES)
def test_bots_choose_the_same_in_games_their_seat_cannot_tell_apart(kind, players, options, seed):
    assert compare(kind, players, options, seed) >= 3 * len(bots.LEVELS)


@pytest.mark.parametrize("kind, players, options, seed", GAMES[::2])
def test_the_proof_catches_a_bot_that_knows_the_state(kind, players, options, seed):
    """The comparison has teeth: a bot whose choice depended on the state (what the signature
    forbids) would choose differently in games its own seat cannot tell apart."""
    with pytest.raises(AssertionError, match="told apart"):
        compare(kind, players, options, seed, levels=(1,), leak=lambda state: json.dumps(state, sort_keys=True))


def judged_correct(state: dict) -> dict:
    forged = copy.deepcopy(state)
    forged["last"]["faults"] = []
    return forged


@pytest.mark.parametrize("players", [4, 6])
def test_photoshoot_control_challenges_the_same_whether_or_not_the_action_was_an_error(players):
    """Whether the latest action was an error is the server's secret until a challenge: the
    Control team's bots decide from the table alone, so a forged verdict changes no choice."""
    engine = engines.get("photoshoot")
    trace = secrecy.record(engine, players, f"errors-{players}")
    checked = 0
    for i, state in enumerate(trace.states[1:]):
        last = state["last"]
        if not (last and last["status"] == "open" and last["faults"] and state["phase"] == "round"):
            continue
        forged = judged_correct(state)
        for seat in engine.active_players(state):
            for level in bots.LEVELS:
                assert choice(engine, "photoshoot", level, state, trace.events[: i + 1], seat, {}) == choice(
                    engine, "photoshoot", level, forged, trace.events[: i + 1], seat, {}
                )
                checked += 1
        if checked > 40:
            break
    assert checked >= 9
