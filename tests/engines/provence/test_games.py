"""Random full games at 2-5 players end with a ranked result, with every invariant kept."""

from collections import Counter

import pytest

from games.engines.provence import ENGINE, cards, layout
from tests.engines.contract import play_random_game, replay
from tests.engines.provence.test_views import assert_nothing_leaks


def scene_cards_in_play(state):
    found = list(state["deck"])
    for seat in range(state["players"]):
        found += state["hands"][seat]
        if state["passing"][seat] is not None:
            found.append(state["passing"][seat])
        found += [p["card"] for p in state["landscapes"][seat]["cards"][1:]]
    return found


def check_invariants(before, event, after):
    # No card lost or duplicated (pending choices stay in the hand until revealed).
    found = scene_cards_in_play(after)
    assert Counter(found) == Counter(cards.scene_ids(after["players"]))
    for seat, land in enumerate(after["landscapes"]):
        assert land["cards"][0]["card"] in cards.START
        grid = layout.visible(land)
        # Tokens always on visible Meadow squares, one per square.
        assert land["photographer"] != land["drone"]
        for token in ("photographer", "drone"):
            assert grid[tuple(land[token])][0] == "meadow"
        # A church is covered whole or not at all.
        church = Counter(sq[2] for sq in grid.values() if sq[0] == "church")
        assert all(n == 2 for n in church.values())
        placed = sum(1 for p in after["photos"] for spot in p["markers"] if seat in spot)
        assert after["markers"][seat] + placed == 7
    for photo in after["photos"]:
        holders = [s for spot in photo["markers"] for s in spot]
        assert len(holders) == len(set(holders))  # each card completed once per player
        filled = [bool(spot) for spot in photo["markers"][:-1]]
        assert filled == sorted(filled, reverse=True)  # highest spots fill first
    assert_nothing_leaks(after, event)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", ["s1", "s2", "s3"])
def test_random_games_end_with_a_ranked_result_and_no_card_lost(players, seed):
    final, events = play_random_game(ENGINE, players, f"{seed}-{players}", on_step=check_invariants)
    assert final["phase"] == "over" and final["round"] == 10
    assert sum(e["type"] in ("ScenesPlaced",) for e in events) == 10
    assert all(len(land["cards"]) == 11 for land in final["landscapes"])
    assert final["deck"] == [] and all(h == [] for h in final["hands"])
    result = ENGINE.outcome(final)
    assert len(result["scores"]) == players and result["winners"]
    assert sorted(result["places"])[0] == 1
    for seat, parts in enumerate(result["breakdown"]):
        summed = sum(v for k, v in parts.items() if k not in ("goal_detail", "markers_placed", "total"))
        assert summed == parts["total"] == result["scores"][seat]
    assert replay(ENGINE, players, f"{seed}-{players}", events) == final
