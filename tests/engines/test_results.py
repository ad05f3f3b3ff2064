"""The one rule of every game's result (docs/games.md, "Results"): a seat's place is 1 + the number
of sides strictly ahead of its side (a side: a seat, or a team in a team game, whose seats share
its place); equal results share a place and the next place skips (1, 1, 3); the winners are the
seats placed first, none in a cooperative game its team lost."""

import pytest

from games import engines
from games.engines import base
from tests.engines.contract import play_random_game


def test_rule_places_rank_seats_by_competition_ranking():
    keys = {0: (5,), 1: (9,), 2: (5,), 3: (2,)}
    assert base.places(keys) == {1: 1, 0: 2, 2: 2, 3: 4}
    assert base.make_result({0: 5, 1: 9, 2: 5, 3: 2})["places"] == [2, 1, 2, 4]
    assert base.make_result({0: 7, 1: 7, 2: 3})["places"] == [1, 1, 3]


def test_rule_places_rank_teams_and_every_seat_gets_its_team_s_place():
    scores = {0: 30, 1: 10, 2: 30, 3: 10, 4: 30}
    out = base.make_result(scores, sides=[[0, 2, 4], [1, 3]])
    assert out["places"] == [1, 2, 1, 2, 1] and out["winners"] == [0, 2, 4]
    # three sides: two teams and a seat of its own behind them
    out = base.make_result(scores, {0: (1, 3), 1: (1, 1), 2: (1, 3), 3: (1, 1), 4: (0, 3)}, sides=[[0, 2], [1, 3], [4]])
    assert out["places"] == [1, 2, 1, 2, 3]


def test_rule_a_lost_cooperative_result_has_no_winners():
    out = base.make_result({0: 10, 1: 10}, sides=[[0, 1]], lost=True)
    assert out["winners"] == [] and out["places"] == [1, 1]


def check(result, sides, players, lost):
    places = result["places"]
    groups = sides or [[seat] for seat in range(players)]
    for side in groups:
        assert len({places[s] for s in side}) == 1, "a side's seats share its place"
    for side in groups:
        ahead = sum(1 for other in groups if places[other[0]] < places[side[0]])
        assert places[side[0]] == 1 + ahead
    first = [s for s in range(players) if places[s] == 1]
    assert result["winners"] == ([] if lost else first)


@pytest.mark.parametrize("kind", engines.kinds())
def test_rule_every_game_places_sides_the_same_way(kind):
    engine = engines.get(kind)
    for players in range(engine.min_players, engine.max_players + 1):
        final, _ = play_random_game(engine, players, f"places-{kind}-{players}")
        result = engine.outcome(final)
        lost = result.get("cooperative", {}).get("won") is False
        check(result, engine.sides(final), players, lost)
        forfeited = engine.forfeit(final, players - 1)
        check(
            engine.outcome(forfeited),
            None
            if engine.sides(final) is None
            else [[s for s in side if s != players - 1] for side in engine.sides(final)] + [[players - 1]],
            players,
            lost,
        )
