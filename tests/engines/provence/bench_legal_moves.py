"""Benchmark: listing every concrete placement late in a 5-player game.

Run with `pytest tests/engines/provence/bench_legal_moves.py -m bench --benchmark-enable`
(excluded from the normal run by the `bench` marker)."""

import random

import pytest

from games.engines.provence import ENGINE
from tests.engines.contract import T0


def late_scene_state(seed="bench", players=5, round_=9):
    """Random play up to the Scene phase of `round_`, when landscapes are large and hands full."""
    state = ENGINE.setup(players, {}, seed)
    chooser = random.Random(seed)
    while not (state["round"] == round_ and state["phase"] == "scene"):
        seat = min(ENGINE.active_players(state))
        state = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)), T0)
    return state


@pytest.mark.bench
def test_bench_legal_moves_late_scene_phase(benchmark):
    state = late_scene_state()
    moves = benchmark(ENGINE.legal_moves, state, 0)
    assert len(moves) > 500


@pytest.mark.bench
def test_bench_legal_moves_walking_phase(benchmark):
    state = late_scene_state()
    for seat in range(state["players"]):
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0], T0)
    moves = benchmark(ENGINE.legal_moves, state, 0)
    assert moves[0] == {"type": "walk"}
