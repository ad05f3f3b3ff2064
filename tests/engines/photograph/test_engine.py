"""Whole games: random games from many seeds at 2, 3 and 4 players end with a ranked result, every
card is accounted for and no number reaches anyone who has not seen it, at every step."""

import pytest

from games.engines.photograph import ENGINE
from tests.engines.contract import as_json, play_random_game, replay

from .helpers import make_checker

SEEDS = [f"game-{i}" for i in range(8)]


def hand_sizes(before, ev, after):
    """5 cards in hand between turns before the sunset, 3 after it ("until the end of the round,
    players will have 3 cards remaining in hand"), none at the end."""
    expected = {"deck": 5, "revealed": 5, "box": 3}[after["sunset"]]
    if after["phase"] == "take":
        assert all(len(h) == expected for h in after["hands"])
    if after["phase"] == "over":
        assert all(h == [] for h in after["hands"])
        assert all(len(left) == 1 for left in after["last_cards"])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_ranked_with_every_card_accounted_for_and_nothing_leaked(players, seed):
    checker = make_checker(players)

    def on_step(before, ev, after):
        checker(before, ev, after)
        hand_sizes(before, ev, after)

    final, events = play_random_game(ENGINE, players, f"{seed}-{players}", on_step=on_step)
    result = ENGINE.result(final)
    assert result is not None and result["winners"] and sorted(result["places"])[0] == 1
    assert len(result["scores"]) == players and len(result["breakdown"]) == players
    for seat, detail in enumerate(result["breakdown"]):
        assert sorted(detail["colours"]) == sorted(final["colours"])
        assert detail["total"] == result["scores"][seat]
    # the sunset card always comes up (it lies in the deck), so both phases were played
    stages = {ev["data"]["record"].get("stage") for ev in events}
    assert {"turn", "sunset", "end"} <= stages
    assert final["sunset"] == "box" and final["deck"] == []
    assert as_json(replay(ENGINE, players, f"{seed}-{players}", events)) == as_json(final)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_the_missed_shot_variant(players):
    checker = make_checker(players)
    final, _ = play_random_game(ENGINE, players, f"missed-{players}", options={"missed_shot": True}, on_step=checker)
    result = ENGINE.result(final)
    for seat, detail in enumerate(result["breakdown"]):
        missed = detail["missed_colour"]
        assert missed == final["last_cards"][seat][0]["card"].split("-")[0]
        assert detail["colours"][missed]["points"] == -3


def test_options_and_move_schemas():
    schema = ENGINE.options_schema()
    assert schema["properties"]["missed_shot"]["default"] is False
    assert schema["additionalProperties"] is False
    types = {alt["properties"]["type"]["const"] for alt in ENGINE.move_schema()["oneOf"]}
    assert types == {"take", "wind"}


def test_legal_moves_are_all_accepted():
    state = ENGINE.setup(3, {}, "legal")
    for move in ENGINE.legal_moves(state, state["turn"]):
        ENGINE.play(state, state["turn"], move, None)
