"""Random full games at every player count and level end with a ranked result; replays are exact."""

import pytest

from games.engines.photoshoot import ENGINE
from tests.engines.contract import as_json, play_random_game, replay


@pytest.mark.parametrize(
    "players,options",
    [
        (2, {}),
        (3, {"level": 5}),
        (4, {"level": 3}),
        (5, {"level": 5}),
        (6, {"level": 2, "family": True}),
        (4, {"teams": "halves", "level": 4}),
        (5, {"teams": "halves"}),
    ],
)
@pytest.mark.parametrize("seed", ["delta", "echo"])
def test_random_games_end_ranked_and_replay_exactly(players, options, seed):
    final, events = play_random_game(ENGINE, players, f"{seed}-{players}", options)
    result = ENGINE.outcome(final)
    assert result is not None and len(result["scores"]) == players
    # a lost cooperative game has no winners; every other game has
    assert bool(result["winners"]) == result.get("cooperative", {"won": True})["won"]
    assert sorted(s for team in result["teams"] for s in team) == list(range(players))
    if final["mode"] == "teams":
        assert max(result["team_scores"]) >= 25 and final["photo_rounds"][0] == final["photo_rounds"][1]
        best = max(result["team_scores"])
        assert result["winners"] == sorted(
            s for t, team in enumerate(result["teams"]) for s in team if result["team_scores"][t] == best
        )
    else:
        assert final["round"] == 5
    assert as_json(replay(ENGINE, players, f"{seed}-{players}", events, options)) == as_json(final)


@pytest.mark.parametrize("seed", [f"coop-{n}" for n in range(12)])
def test_many_cooperative_games_last_five_rounds(seed):
    final, events = play_random_game(ENGINE, 2 + len(seed) % 2, seed, {"level": 1 + len(seed) % 5})
    assert final["round"] == 5 and ENGINE.outcome(final)["cooperative"]["won"] in (True, False)
