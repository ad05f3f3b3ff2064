"""Client input can be anything: for every engine, at many points of real games, any JSON as a
move is either applied or refused with an EngineError (mapped to a 4xx), never a crash."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games import engines
from games.engines.base import EngineError
from tests.engines.contract import T0

KEYS = [
    "type",
    "gifts",
    "order",
    "comments",
    "row",
    "side",
    "count",
    "from",
    "to",
    "card",
    "x",
    "y",
    "rotation",
    "under",
    "photographer",
    "drone",
    "seat",
]
TYPES = ["give", "rank", "take", "wind", "place", "walk", "pass", "play", ""]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=12,
)
moves = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)}, optional={k: json_values | st.integers(-3, 130) for k in KEYS if k != "type"}
    ),
)


def states_along_a_game(kind, players, seed, every=3):
    engine = engines.get(kind)
    state = engine.setup(players, {}, seed)
    chooser, found = random.Random(seed), []
    for step in range(400):
        if engine.is_over(state):
            break
        if step % every == 0:
            found.append(state)
        seat = chooser.choice(sorted(engine.active_players(state)))
        state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)), T0)
    return found


CASES = {kind: states_along_a_game(kind, engines.get(kind).min_players + 1, f"fuzz-{kind}") for kind in engines.kinds()}


@pytest.mark.parametrize("kind", engines.kinds())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), move=moves)
def test_any_json_move_is_applied_or_refused_cleanly(kind, data, move):
    engine = engines.get(kind)
    state = data.draw(st.sampled_from(CASES[kind]))
    seat = data.draw(st.sampled_from(sorted(engine.active_players(state))))
    try:
        engine.play(state, seat, move, T0)
    except EngineError as error:
        assert error.code in {"illegal_move", "unavailable_move", "not_your_turn", "game_over"}
        assert error.detail
