"""Every registered engine keeps the protocol: random games end, replays are exact."""

import pytest

from games import engines
from tests.engines.contract import as_json, play_random_game, replay


@pytest.mark.parametrize("kind", engines.kinds())
def test_identity_and_options_schema(kind):
    engine = engines.get(kind)
    assert engine.kind == kind and engine.title
    assert 2 <= engine.min_players <= engine.max_players
    schema = engine.options_schema()
    assert schema["type"] == "object"
    assert all("default" in prop for prop in schema.get("properties", {}).values())


@pytest.mark.parametrize("kind", engines.kinds())
@pytest.mark.parametrize("seed", ["alpha", "bravo", "charlie"])
def test_random_games_end_with_a_result_and_replay_exactly(kind, seed):
    engine = engines.get(kind)
    for players in range(engine.min_players, engine.max_players + 1):
        final, events = play_random_game(engine, players, f"{seed}-{players}")
        result = engine.outcome(final)
        assert result is not None and len(result["scores"]) == players
        # someone wins, except a cooperative game its team lost (docs/games.md, "Results")
        assert bool(result["winners"]) == result.get("cooperative", {"won": True})["won"]
        assert as_json(replay(engine, players, f"{seed}-{players}", events)) == as_json(final)
