"""The turn: take, wind (then the photographs play by themselves), the simultaneous winds, good
shot claims during a game, and every IllegalMove path."""

import pytest

from games.engines.base import GameOver, IllegalMove, NotYourTurn, UnavailableMove
from games.engines.photograph import ENGINE
from games.engines.photograph.cards import SUNSET

from .helpers import apply, hand_cards, new_game, play, reel, set_hand, set_layout


def turn_state(players=2, hand=None):
    state = new_game(players, seed="turn")
    set_layout(state, [["gray-1", "gray-2", "gray-3", "gray-4"]] * len(state["layout"]))
    if hand:
        set_hand(state, state["turn"], hand)
    return state


def test_wind_moves_one_card_one_or_more_places_right():
    """ "Choose any card in your hand (except the rightmost one) and move it one or more positions to
    the right (it may move as far as the rightmost position)"."""
    state = turn_state(hand=["red-1", "red-2", "red-3", "red-4", "red-5"])
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 1})
    assert hand_cards(state, seat) == ["red-1", "red-2", "red-3", "red-4", "red-5", "gray-1"]
    # move the leftmost card all the way to the rightmost place; then one card is played
    step = play(state, seat, {"type": "wind", "from": 0, "to": 5})
    assert [p["card"] for p in step.record["played"]] == ["red-2"]
    assert hand_cards(step.state, seat) == ["red-3", "red-4", "red-5", "gray-1", "red-1"]


def test_wind_worked_example_any_of_the_cards_left_of_the_rightmost():
    """Rulebook: "On this step you must move 1 of the 4 cards to the left of and below the rightmost
    card" (a hand of 5): every card but the rightmost may move, to any place further right."""
    state = turn_state(hand=[f"red-{n}" for n in range(1, 6)])
    state["phase"] = "wind"
    moves = ENGINE.legal_moves(state, state["turn"])
    assert sorted({m["from"] for m in moves}) == [0, 1, 2, 3]
    assert {(m["from"], m["to"]) for m in moves} == {(f, t) for f in range(4) for t in range(f + 1, 5)}


@pytest.mark.parametrize(
    "wind",
    [
        {"type": "wind", "from": 5, "to": 5},  # the rightmost card may not move
        {"type": "wind", "from": 2, "to": 2},  # must move one or more places
        {"type": "wind", "from": 3, "to": 1},  # only to the right
        {"type": "wind", "from": 0, "to": 6},  # past the end of the hand
        {"type": "wind", "from": -1, "to": 2},
        {"type": "wind", "from": "0", "to": 2},
        {"type": "wind", "from": False, "to": 2},
        {"type": "wind", "from": 0},
        {"type": "wind", "from": 0, "to": 1, "card": "red-1"},
        {"type": "take", "row": 0, "side": "left", "count": 1},  # already taken this turn
    ],
)
def test_illegal_winds(wind):
    state = turn_state()
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 1})
    with pytest.raises((IllegalMove, UnavailableMove)):
        play(state, seat, wind)


def test_pipeline_errors():
    state = turn_state()
    other = 1 - state["turn"]
    with pytest.raises(NotYourTurn):
        play(state, other, {"type": "take", "row": 0, "side": "left", "count": 1})
    with pytest.raises(UnavailableMove):
        play(state, state["turn"], {"type": "wind", "from": 0, "to": 1})
    with pytest.raises(IllegalMove):
        play(state, state["turn"], {"type": 7})
    with pytest.raises(IllegalMove):
        play(state, state["turn"], ["take"])
    with pytest.raises(IllegalMove):
        ENGINE.step(state, None, {"type": "take", "row": 0, "side": "left", "count": 1}, None)
    with pytest.raises(IllegalMove):
        ENGINE.step(state, other, {"type": "take", "row": 0, "side": "left", "count": 1}, None)
    for bad in ({"type": "wind", "from": 0, "to": 1}, {"row": 0}, "take", None):
        with pytest.raises(IllegalMove):  # step alone, without the pipeline's checks
            ENGINE.step(state, state["turn"], bad, None)
    over = {**state, "phase": "over", "last_cards": [[], []]}
    with pytest.raises(GameOver):
        play(over, state["turn"], {"type": "take", "row": 0, "side": "left", "count": 1})
    assert ENGINE.legal_moves(state, other) == [] and ENGINE.move_types(state, None) == set()


@pytest.mark.parametrize("count", [1, 2, 3])
def test_play_exactly_as_many_cards_as_were_taken_from_the_left(count):
    """ "you must play exactly as many shot cards as you took in step 1 ... one at a time in order,
    starting with the leftmost"."""
    state = turn_state(hand=["red-1", "red-2", "red-3", "red-4", "red-5"])
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 1, "side": "right", "count": count})
    step = play(state, seat, {"type": "wind", "from": 4, "to": 5})
    wound = hand_cards(state, seat)
    wound.insert(5, wound.pop(4))
    assert [p["card"] for p in step.record["played"]] == wound[:count]
    assert hand_cards(step.state, seat) == wound[count:] and len(wound[count:]) == 5
    assert step.state["reels"][seat]["red"] == reel(*wound[:count])
    assert step.state["turn"] == 1 - seat and step.state["phase"] == "take"


def test_turn_passes_to_the_left_around_the_table():
    """ "After step 4, your turn ends and play passes to the player on your left"."""
    state = turn_state(players=4)
    first = state["turn"]
    for k in range(5):
        seat = state["turn"]
        assert seat == (first + k) % 4
        state = apply(state, seat, {"type": "take", "row": k % 4, "side": "left", "count": 1})
        state = apply(state, seat, {"type": "wind", "from": 0, "to": 1})


@pytest.mark.parametrize("players,threshold", [(2, 4), (3, 4), (4, 3)])
def test_good_shot_claimed_during_a_turn(players, threshold):
    """Good shot cards are claimed automatically when a card added face up makes the 4th (2-3
    players) or 3rd (4 players) face-up shot of its colour, by the first player to get there."""
    state = turn_state(players)
    colour = state["colours"][0]
    seat = state["turn"]
    other = state["colours"][1]
    set_hand(state, seat, [f"{colour}-{threshold}"] + [f"{other}-{n}" for n in (1, 2, 3, 4)])
    state["reels"][seat][colour] = reel(*[f"{colour}-{n}" for n in range(1, threshold)])
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 1})
    step = play(state, seat, {"type": "wind", "from": 1, "to": 2})
    assert step.record["played"][0]["good_shot"] == colour
    assert step.state["good_shots"][colour] == {"holder": seat, "void": False}


def sunset_state(players):
    """A turn whose layout check reveals the sunset card first thing, each seat one card short of
    the good shot card in its own colour and holding two more of it leftmost."""
    state = new_game(players, seed="sunset")
    state["layout"] = [[None] * 4 for _ in state["layout"]]
    state["layout"][0] = [{"card": f"purple-{n}", "up": n in (1, 4)} for n in range(1, 5)]
    state["deck"] = [SUNSET] + [c for c in state["deck"] if c != SUNSET][:20]
    threshold = 3 if players == 4 else 4
    for seat in range(players):
        colour = state["colours"][seat]
        state["reels"][seat][colour] = reel(*[f"{colour}-{n}" for n in range(1, threshold - 1)])
        set_hand(state, seat, [f"{colour}-{n}" for n in (threshold - 1, threshold, 12, 11, 10)])
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_good_shot_during_the_sunset_and_none_ever_after(players):
    """ "no good shot card can be claimed while resolving the sunset card, even if its condition has
    been fully met ... nobody receives it, since no one will any longer be the first"."""
    state = sunset_state(players)
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "right", "count": 1})
    # the taker plays 1 card (no good shot yet), then the layout check reveals the sunset
    state = apply(state, seat, {"type": "wind", "from": 2, "to": 5})
    assert state["phase"] == "sunset"
    for other in range(players):
        if other != seat:
            state = apply(state, other, {"type": "wind", "from": 2, "to": 4})
    step = play(state, seat, {"type": "wind", "from": 1, "to": 3})
    threshold = 3 if players == 4 else 4
    reached = [s for s in range(players) if len(step.state["reels"][s][step.state["colours"][s]]) >= threshold]
    assert len(reached) == players  # the taker's own 4th/3rd shot came in the sunset too
    assert all(p["good_shot"] is None for p in step.record["played"])
    for s in reached:
        colour = step.state["colours"][s]
        assert step.state["good_shots"][colour] == {"holder": None, "void": True}
        assert colour in step.record["voided"]


def test_a_seat_cannot_wind_twice_in_the_sunset():
    state = sunset_state(2)
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "right", "count": 1})
    state = apply(state, seat, {"type": "wind", "from": 0, "to": 1})
    state = apply(state, seat, {"type": "wind", "from": 0, "to": 1})
    assert ENGINE.active_players(state) == {1 - seat}
    with pytest.raises(NotYourTurn):
        play(state, seat, {"type": "wind", "from": 0, "to": 1})
    with pytest.raises(UnavailableMove):
        play(state, 1 - seat, {"type": "take", "row": 1, "side": "left", "count": 1})
    with pytest.raises(IllegalMove):
        play(state, 1 - seat, {"type": "wind", "from": 4, "to": 5})


def test_every_active_seat_always_has_legal_moves():
    state = sunset_state(3)
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "right", "count": 3})
    state = apply(state, seat, {"type": "wind", "from": 0, "to": 1})
    for s in ENGINE.active_players(state):
        assert ENGINE.legal_moves(state, s)


def test_no_good_shot_in_the_end_of_game_plays():
    """End of game: "as with resolving the sunset card, no good shot card can be claimed at this
    moment, even if its condition has been fully met"."""
    state = new_game(2, seed="last")
    state["layout"] = [[None] * 4 for _ in state["layout"]]
    state["layout"][0] = [{"card": f"purple-{n}", "up": n in (1, 4)} for n in range(1, 5)]
    state["deck"], state["sunset"] = [], "box"
    colour, other = state["colours"][0], state["colours"][1]
    for seat in range(2):
        state["reels"][seat][colour] = reel(*[f"{colour}-{n}" for n in (1, 2, 3)])
        set_hand(state, seat, [f"{other}-{seat + 1}", f"{colour}-4", f"{other}-{seat + 5}"])
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 1})
    state = apply(state, seat, {"type": "wind", "from": 2, "to": 3})  # plays a card of `other`
    assert state["phase"] == "end"
    state = apply(state, seat, {"type": "wind", "from": 1, "to": 2})
    step = play(state, 1 - seat, {"type": "wind", "from": 0, "to": 2})
    assert step.state["phase"] == "over"
    assert all(len(step.state["reels"][s][colour]) == 4 for s in range(2))
    assert step.state["good_shots"][colour]["holder"] is None
    assert all(p["good_shot"] is None for p in step.record["played"])
