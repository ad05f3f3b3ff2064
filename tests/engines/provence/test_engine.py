"""Game Setup and How to Play: the rounds, phases and their exceptions, through the engine."""

from collections import Counter

import pytest

from games.engines import base
from games.engines.provence import ENGINE, cards, layout
from tests.engines.contract import T0
from tests.engines.provence.helpers import landscape


def play(state, seat, move):
    return ENGINE.play(state, seat, move, T0)


def first_moves(state):
    """Every active seat makes its first legal move; returns the last step."""
    step = None
    for seat in sorted(ENGINE.active_players(state)):
        step = play(state, seat, ENGINE.legal_moves(state, seat)[0])
        state = step.state
    return step


def run_round(state):
    state = first_moves(state).state  # Scene phase
    return first_moves(state)  # Walking phase, then Photo and Refill


# -- Game Setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_uses_the_scene_cards_of_the_player_count_and_deals_2_card_hands(players):
    """Setup step 1 (2: the 2+ cards; 3: 2+ and 3+; ...) and C: 2 random Scene Cards each."""
    state = ENGINE.setup(players, {}, "setup")
    dealt = state["deck"] + [c for hand in state["hands"] for c in hand]
    assert sorted(dealt) == sorted(cards.scene_ids(players))
    assert len(dealt) == 10 * players
    assert all(len(hand) == 2 for hand in state["hands"])


@pytest.mark.parametrize("players", [2, 5])
def test_setup_photo_cards_2_a_2_b_and_3_c_face_up(players):
    state = ENGINE.setup(players, {}, "photos")
    backs = Counter(cards.PHOTO[p["card"]]["back"] for p in state["photos"])
    assert backs == {"A": 2, "B": 2, "C": 3}
    assert all(not any(spot) for p in state["photos"] for spot in p["markers"])


def test_setup_two_random_goal_cards_with_a_random_side_up():
    sides = set()
    for seed in range(30):
        goals = ENGINE.setup(2, {}, f"goals-{seed}")["goals"]
        assert len({g["card"] for g in goals}) == 2
        assert all(g["goal"] in cards.GOAL_CARDS[g["card"]] for g in goals)
        sides.update(g["goal"] for g in goals)
    assert sides == set(cards.GOALS)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_starting_area_cards_tokens_and_7_markers(players):
    """A: one random Starting Area Card each. B: the photographer on the scooter, the drone on
    a random tree, 7 Player Markers."""
    state = ENGINE.setup(players, {}, "start")
    starts = [land["cards"][0]["card"] for land in state["landscapes"]]
    assert len(set(starts)) == players and set(starts) <= set(cards.START)
    for land in state["landscapes"]:
        grid = layout.visible(land)
        assert grid[tuple(land["photographer"])][1] == "scooter"
        assert grid[tuple(land["drone"])][1] == "tree"
    assert state["markers"] == [7] * players
    assert (state["round"], state["phase"]) == (1, "scene")


def test_setup_derives_everything_from_the_seed():
    assert ENGINE.setup(3, {}, "same") == ENGINE.setup(3, {}, "same")
    assert ENGINE.setup(3, {}, "same") != ENGINE.setup(3, {}, "other")
    trees = {tuple(ENGINE.setup(2, {}, f"t{i}")["landscapes"][0]["drone"]) for i in range(20)}
    assert len(trees) > 1  # the drone starts on a random tree


def test_setup_refuses_player_counts_outside_2_to_5():
    with pytest.raises(ValueError):
        ENGINE.setup(1, {}, "x")
    with pytest.raises(ValueError):
        ENGINE.setup(6, {}, "x")


# -- 1. Scene phase -----------------------------------------------------------------------------
def test_scene_phase_choices_take_effect_only_when_every_seat_has_chosen():
    state = ENGINE.setup(3, {}, "scene")
    move = ENGINE.legal_moves(state, 1)[0]
    step = play(state, 1, move)
    assert step.event_type == "CardChosen"
    assert step.state["landscapes"] == state["landscapes"]
    assert ENGINE.active_players(step.state) == {0, 2}
    with pytest.raises(base.NotYourTurn):
        play(step.state, 1, move)


def test_each_player_places_one_card_and_passes_the_other_to_the_left():
    state = ENGINE.setup(3, {}, "pass")
    hands = [list(h) for h in state["hands"]]
    step = first_moves(state)
    assert step.event_type == "ScenesPlaced"
    after = step.state
    assert after["phase"] == "walking"
    for seat in range(3):
        placed = after["landscapes"][seat]["cards"][-1]["card"]
        assert placed in hands[seat]
        assert after["passing"][seat] == next(c for c in hands[seat] if c != placed)
    # Refill: "picks up the card passed to them" (from the right) "and then draws 1 card".
    deck = list(after["deck"])
    refilled = first_moves(after).state
    for seat in range(3):
        assert refilled["hands"][seat] == [after["passing"][(seat - 1) % 3], deck[seat]]
    assert refilled["round"] == 2 and refilled["phase"] == "scene"


# -- 2. Walking phase -------------------------------------------------------------------------
def test_walking_is_optional_and_tokens_move_to_empty_meadows():
    state = first_moves(ENGINE.setup(2, {}, "walk")).state
    before = [dict(land) for land in state["landscapes"]]
    land = state["landscapes"][0]
    meadow = next(
        c for c in layout.meadows(layout.visible(land)) if list(c) not in (land["photographer"], land["drone"])
    )
    state = play(state, 0, {"type": "walk", "photographer": list(meadow)}).state
    state = play(state, 1, {"type": "walk"}).state
    assert state["landscapes"][0]["photographer"] == list(meadow)
    assert state["landscapes"][0]["drone"] == before[0]["drone"]
    assert state["landscapes"][1]["photographer"] == before[1]["photographer"]


def test_a_token_may_take_the_square_the_other_token_leaves():
    state = first_moves(ENGINE.setup(2, {}, "swap")).state
    land = state["landscapes"][0]
    move = {"type": "walk", "photographer": land["drone"], "drone": land["photographer"]}
    state = play(state, 0, move).state
    assert state["pending"][0] == {"photographer": land["drone"], "drone": land["photographer"]}


# -- 3. Photo phase -----------------------------------------------------------------------------
def mill_landscape():
    # s09 "Lh Lh W / M G G" above start1: its mill at (0, -1), in the frame above the
    # photographer on (1, 1).
    return landscape("start1", ("s09", 0, -2, 0, False), photographer=(1, 1), drone=(0, 0))


def test_the_server_detects_photos_and_markers_go_on_the_highest_free_spot_shared_in_a_turn():
    state = first_moves(ENGINE.setup(3, {}, "photo")).state
    state["photos"][0] = {"card": "A2", "markers": [[], [], []]}  # 1 mill: 4, 3, 2
    state["landscapes"][0] = mill_landscape()
    state["landscapes"][2] = mill_landscape()
    state["landscapes"][1] = landscape("start1", photographer=(1, 1), drone=(0, 0))
    step = first_moves(state)
    assert {"card": "A2", "seats": [0, 2], "spot": 0, "points": 4} in step.record["photos"]
    state = step.state
    assert state["photos"][0]["markers"] == [[0, 2], [], []]
    assert state["markers"][0] == state["markers"][2] == 7 - 1
    # Note 1: each player completes each Photo Card once. Seat 1 arrives later: the next spot.
    state = first_moves(state).state
    state["landscapes"][1] = mill_landscape()
    state["landscapes"][0] = mill_landscape()
    step = first_moves(state)
    assert {"card": "A2", "seats": [1], "spot": 1, "points": 3} in step.record["photos"]
    assert step.state["photos"][0]["markers"] == [[0, 2], [1], []]


def test_note_2_a_player_may_complete_several_photo_cards_in_one_turn():
    state = first_moves(ENGINE.setup(2, {}, "several")).state
    state["photos"][0] = {"card": "A2", "markers": [[], [], []]}  # a mill
    state["photos"][1] = {"card": "B1", "markers": [[], []]}  # 3 adjacent lavender
    land = mill_landscape()
    layout.place(land, "s01", 2, -3, 0, False)  # "G G G / Lh Sw Sw": Lh (2,-2) extends s09 Lh Lh
    state["landscapes"][0] = land
    taken = first_moves(state).record["photos"]
    assert {t["card"] for t in taken if 0 in t["seats"]} >= {"A2", "B1"}


# -- 4. Refill phase and the end ----------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
def test_refill_exceptions_and_the_end_after_ten_rounds(players):
    state = ENGINE.setup(players, {}, "exceptions")
    for _ in range(8):
        state = run_round(state).state
    assert state["round"] == 9 and state["deck"] == []
    assert all(len(h) == 2 for h in state["hands"])
    # Exception 1: in the second to last round only the passed card comes back.
    state = run_round(state).state
    assert state["round"] == 10 and all(len(h) == 1 for h in state["hands"])
    # The last card is placed; nothing is passed.
    state = first_moves(state).state
    assert state["passing"] == [None] * players
    # Exception 2: no Refill phase in the final round; the game ends and is scored.
    step = first_moves(state)
    assert "hands" not in step.record and step.record["result"]
    assert "photos" in step.record  # the Photo phase still happens in the final round
    final = step.state
    assert final["phase"] == "over" and ENGINE.active_players(final) == set()
    assert all(len(land["cards"]) == 1 + 10 for land in final["landscapes"])
    result = ENGINE.result(final)
    assert result == step.record["result"] and len(result["scores"]) == players
    assert ENGINE.view(final, None)["result"] == result
    with pytest.raises(base.GameOver):
        play(final, 0, {"type": "walk"})


def test_no_result_before_the_end():
    assert ENGINE.result(ENGINE.setup(2, {}, "x")) is None


# -- bad input ---------------------------------------------------------------------------------
def scene_state():
    state = ENGINE.setup(2, {}, "bad")
    return state, state["hands"][0][0], state["hands"][1][0]


@pytest.mark.parametrize(
    "change",
    [
        {"card": None},
        {"card": 7},
        {"card": "nope"},
        {"card": "start1"},
        {"rotation": 45},
        {"rotation": "90"},
        {"rotation": True},
        {"rotation": None},
        {"x": 1.5},
        {"x": "3"},
        {"x": True},
        {"y": 10**6},
        {"y": None},
        {"under": "yes"},
        {"under": 1},
        {"extra": 1},
    ],
)
def test_malformed_place_moves_are_illegal(change):
    state, mine, _ = scene_state()
    move = {"type": "place", "card": mine, "x": 3, "y": 0, "rotation": 0, **change}
    with pytest.raises(base.IllegalMove):
        play(state, 0, move)


@pytest.mark.parametrize("missing", ["card", "x", "y", "rotation"])
def test_place_moves_missing_a_key_are_illegal(missing):
    state, mine, _ = scene_state()
    move = {"type": "place", "card": mine, "x": 3, "y": 0, "rotation": 0}
    del move[missing]
    with pytest.raises(base.IllegalMove, match="missing"):
        play(state, 0, move)


def test_placing_a_card_not_in_your_hand_is_illegal():
    state, _, theirs = scene_state()
    with pytest.raises(base.IllegalMove, match="not in your hand"):
        play(state, 0, {"type": "place", "card": theirs, "x": 3, "y": 0, "rotation": 0})


@pytest.mark.parametrize(
    "x,y,under,why",
    [
        (9, 9, False, "touch"),
        (0, 0, True, "visible"),
        (-2, 0, False, "token"),
    ],
)
def test_placements_breaking_a_rule_are_illegal(x, y, under, why):
    state, mine, _ = scene_state()
    with pytest.raises(base.IllegalMove, match=why):
        play(state, 0, {"type": "place", "card": mine, "x": x, "y": y, "rotation": 0, "under": under})


def test_a_walk_in_the_scene_phase_is_unavailable_and_step_rejects_it_too():
    state, _, _ = scene_state()
    with pytest.raises(base.UnavailableMove):
        play(state, 0, {"type": "walk"})
    with pytest.raises(base.IllegalMove):
        ENGINE.step(state, 0, {"type": "walk"}, T0)
    with pytest.raises(base.IllegalMove):
        ENGINE.step(state, None, {"type": "walk"}, T0)


def walking_state():
    return first_moves(ENGINE.setup(2, {}, "badwalk")).state


@pytest.mark.parametrize(
    "move",
    [
        {"type": "walk", "photographer": [0]},
        {"type": "walk", "photographer": [0, 0, 0]},
        {"type": "walk", "photographer": "0,0"},
        {"type": "walk", "photographer": [0.0, 1]},
        {"type": "walk", "drone": [None, 1]},
        {"type": "walk", "drone": [True, 1]},
        {"type": "walk", "steps": 3},
        {"type": "walk", "photographer": [40, 40]},
    ],
)
def test_malformed_or_off_the_landscape_walks_are_illegal(move):
    with pytest.raises(base.IllegalMove):
        play(walking_state(), 0, move)


def test_tokens_must_end_on_visible_meadow_squares_one_token_per_square():
    state = walking_state()
    land = state["landscapes"][0]
    grid = layout.visible(land)
    not_meadow = next(c for c, sq in grid.items() if sq[0] != "meadow")
    with pytest.raises(base.IllegalMove, match="Meadow"):
        play(state, 0, {"type": "walk", "drone": list(not_meadow)})
    with pytest.raises(base.IllegalMove, match="one token"):
        play(state, 0, {"type": "walk", "drone": land["photographer"]})
    with pytest.raises(base.UnavailableMove):
        play(state, 0, {"type": "place", "card": "s01", "x": 0, "y": 0, "rotation": 0})


def test_legal_moves_are_all_accepted_and_empty_for_seats_that_are_done():
    state = ENGINE.setup(2, {}, "legal")
    for move in ENGINE.legal_moves(state, 0)[::97]:
        play(state, 0, move)
    state = play(state, 0, ENGINE.legal_moves(state, 0)[0]).state
    assert ENGINE.legal_moves(state, 0) == [] and ENGINE.move_types(state, 0) == set()
    state = play(state, 1, ENGINE.legal_moves(state, 1)[-1]).state
    walks = ENGINE.legal_moves(state, 1)
    assert walks[0] == {"type": "walk"}
    for move in walks:
        play(state, 1, move)
