"""Tallying victory points, determining the winner, and the Missed Shot variant."""

import pytest

from games.engines.photograph import ENGINE
from games.engines.photograph.scoring import colour_score, reel_points

from .helpers import new_game, reel


@pytest.mark.parametrize(
    "shots,points", [(0, -3), (1, 1), (2, 3), (3, 4), (4, 7), (5, 8), (6, 10), (7, 11), (8, 11), (12, 11)]
)
def test_reel_length_table(shots, points):
    """ "0 shots = -3 VP, 1 shot = 1 VP, 2 = 3, 3 = 4, 4 = 7, 5 = 8, 6 = 10, 7+ shots = 11 VP"."""
    assert reel_points(shots) == points


def test_worked_example_3_player_scoring_adds_up_to_20_not_the_printed_24():
    """Rulebook "Example scoring for a 3-player game": 5 shots = 8; 1 shot and 1 blurred = -1;
    1 shot = 1; 4 shots and 1 blurred = 5; 4 shots, 1 blurred, good shot card = 10; 0 red = -3;
    "Total: 24 VP". Each line follows the rules, but 8 - 1 + 1 + 5 + 10 - 3 is 20: the printed
    total is a misprint, so this tests the rule as written (each line, and their sum)."""
    lines = [
        ((5, 0, False), 8),
        ((1, 1, False), -1),
        ((1, 0, False), 1),
        ((4, 1, False), 5),
        ((4, 1, True), 10),
        ((0, 0, False), -3),
    ]
    for args, printed in lines:
        assert colour_score(*args) == printed
    assert sum(colour_score(*args) for args, _ in lines) == 8 - 1 + 1 + 5 + 10 - 3 == 20

    state = new_game(3, seed="example")
    colours = state["colours"]  # 6 colours in a 3-player game, one line each
    state["phase"], state["last_cards"] = "over", [[], [], []]
    reels = state["reels"][0]
    c = colours
    reels[c[0]] = reel(*[f"{c[0]}-{n}" for n in (1, 2, 3, 4, 5)])
    reels[c[1]] = reel(f"{c[1]}-6", (f"{c[1]}-12", "b"))
    reels[c[2]] = reel(f"{c[2]}-3")
    reels[c[3]] = reel(*[f"{c[3]}-{n}" for n in (9, 8, 7, 6)], (f"{c[3]}-12", "b"))
    reels[c[4]] = reel(*[f"{c[4]}-{n}" for n in (1, 4, 5, 8)], (f"{c[4]}-2", "b"))
    state["good_shots"][c[4]]["holder"] = 0
    result = ENGINE.result(state)
    assert result["scores"][0] == 20
    breakdown = result["breakdown"][0]
    assert [breakdown["colours"][x]["points"] for x in colours] == [8, -1, 1, 5, 10, -3]
    assert breakdown["colours"][c[4]] == {"shots": 4, "blurred": 1, "good_shot": True, "missed": False, "points": 10}
    assert breakdown["good_shots"] == 1 and breakdown["blurred"] == 3


def finished(players=2, **options):
    state = new_game(players, seed="score", **options)
    state["phase"] = "over"
    state["last_cards"] = [[] for _ in range(players)]
    return state


def test_good_shot_cards_score_5_and_blurred_shots_cost_2():
    """ "For each good shot card you have, you score 5 VP"; "For each played card lying face-down,
    you lose 2 VP"."""
    state = finished()
    c = state["colours"][0]
    base = ENGINE.result(state)["scores"][0]
    state["good_shots"][c]["holder"] = 0
    assert ENGINE.result(state)["scores"][0] == base + 5
    state["reels"][0][c] = reel((f"{c}-1", "b"))  # a reel of only blurred cards: 0 shots
    assert ENGINE.result(state)["scores"][0] == base + 5 - 2


def test_every_colour_in_play_scores_even_when_empty():
    state = finished(4)
    assert ENGINE.result(state)["scores"] == [-21, -21, -21, -21]  # 7 colours x -3
    assert ENGINE.result(state)["winners"] == [0, 1, 2, 3]  # "share the victory"


def shots(colour, numbers, *blurred):
    return reel(*[f"{colour}-{n}" for n in numbers], *[(f"{colour}-{n}", "b") for n in blurred])


def test_tie_break_most_good_shot_cards_first():
    """ "In case of a tie, the tied player with the most good shot cards wins"."""
    state = finished(2)
    a, b = state["colours"][:2]
    state["reels"][0][a] = shots(a, (1, 2, 3, 4))  # 7 + good shot 5 = 12, b: -3 -> 9
    state["good_shots"][a]["holder"] = 0
    state["reels"][1][a] = shots(a, (12, 11, 10, 9, 8))  # 8, b: 1 shot = 1 -> 9
    state["reels"][1][b] = shots(b, (5,))
    result = ENGINE.result(state)
    assert result["scores"][0] == result["scores"][1]
    # seat 1 has the longer reel, but good shot cards come first
    assert result["winners"] == [0] and result["places"] == [1, 2]


def test_tie_break_then_the_longest_photo_reel():
    """ "If the tie persists, the tied player with the longest photo reel (the most shots in a
    single reel) wins"."""
    state = finished(2)
    a, b = state["colours"][:2]
    state["reels"][0][a] = shots(a, (1, 2, 3, 4, 5, 6, 7))  # 11, b: -3 -> 8
    state["reels"][1][a] = shots(a, (12, 11, 10, 9))  # 7, b: 1 -> 8
    state["reels"][1][b] = shots(b, (5,))
    result = ENGINE.result(state)
    assert result["scores"][0] == result["scores"][1]
    assert result["winners"] == [0]
    assert result["breakdown"][0]["longest_reel"] == 7 and result["breakdown"][1]["longest_reel"] == 4
    assert "longest" in result["tie_break"]


def test_tie_break_still_tied_players_share_the_victory():
    """ "If there is still a tie, the tied players share the victory"."""
    state = finished(3)
    a = state["colours"][0]
    for seat in (0, 2):
        state["reels"][seat][a] = shots(a, (3, 4, 5), 1)
    result = ENGINE.result(state)
    assert result["winners"] == [0, 2] and result["places"] == [1, 3, 1]


def test_result_is_none_until_the_game_is_over():
    state = new_game(2)
    assert ENGINE.result(state) is None


def test_missed_shot_variant_removes_the_reel_and_good_shot_of_the_last_cards_colour():
    """Missed Shot: "remove the missed-shot card and all cards of the matching color that you
    played. If you also have the good shot card of the matching color, do not count it either!
    ... you lose 3 VP for it (on the other hand, you do not score the -2 VP penalty for each
    blurred shot that reel would otherwise contain)"."""
    plain, variant = finished(), finished(missed_shot=True)
    c = plain["colours"][0]
    for state in (plain, variant):
        state["reels"][0][c] = reel(*[f"{c}-{n}" for n in (1, 2, 3, 4)], (f"{c}-12", "b"))
        state["good_shots"][c]["holder"] = 0
        state["last_cards"] = [[{"card": f"{c}-9", "public": False}], [{"card": f"{c}-10", "public": False}]]
    assert ENGINE.result(plain)["scores"][0] - ENGINE.result(variant)["scores"][0] == (7 - 2 + 5) - (-3)
    entry = ENGINE.result(variant)["breakdown"][0]["colours"][c]
    assert entry == {"shots": 0, "blurred": 0, "good_shot": False, "missed": True, "points": -3}
    assert ENGINE.result(variant)["breakdown"][0]["missed_colour"] == c
    # seat 1 "did not play any shot cards of the missed shot's color": scored by the normal rules
    assert ENGINE.result(variant)["scores"][1] == ENGINE.result(plain)["scores"][1]


# -- the running score (the players bar): the rules' count of what the viewer sees ------------
def test_the_running_score_counts_the_reels_as_the_final_scoring_does():
    """Mid-game, each seat's score is the final scoring of its reels and good shot cards as
    they stand: the same lines, a blurred shot -2 whatever its number."""
    state = new_game(2, seed="running")
    c = state["colours"]
    state["reels"][0][c[0]] = shots(c[0], (1, 2, 3), 9)  # 3 shots, 1 blurred: 4 - 2
    state["good_shots"][c[0]]["holder"] = 0  # + 5
    state["reels"][1][c[1]] = shots(c[1], (7,))  # 1 shot: 1
    empty = -3 * (len(c) - 1)  # every other colour: 0 shots
    for viewer in (0, 1, None):
        assert ENGINE.standing(ENGINE.view(state, viewer)) == [
            {"seats": [0], "score": 4 - 2 + 5 + empty},
            {"seats": [1], "score": 1 + empty},
        ]


def test_a_blurred_shots_number_does_not_change_the_running_score():
    """ "players may not check the number on this card": the score shown cannot depend on it."""
    state = new_game(2, seed="running")
    c = state["colours"][0]
    state["reels"][0][c] = shots(c, (1, 2), 3)
    other = new_game(2, seed="running")
    other["reels"][0][c] = shots(c, (1, 2), 11)
    assert ENGINE.standing(ENGINE.view(state, 1)) == ENGINE.standing(ENGINE.view(other, 1))


def test_at_the_end_the_running_score_is_the_result():
    state = finished(2, missed_shot=True)
    c = state["colours"][0]
    state["reels"][0][c] = shots(c, (1, 2, 3, 4))
    state["last_cards"][0] = [{"card": f"{c}-5", "public": False}]  # the missed shot: c
    view = ENGINE.view(state, 1)
    assert [s["score"] for s in ENGINE.standing(view)] == ENGINE.result(state)["scores"]
    assert ENGINE.standing(view)[0]["score"] == -3 * len(state["colours"])
