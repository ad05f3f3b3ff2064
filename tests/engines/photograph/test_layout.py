"""Step 1 "Choose a subject" shapes, and step 4 "Check the layout": both refill procedures, the
sunset card revealed while dealing, and the deck running out."""

import pytest

from games.engines.base import IllegalMove, NotYourTurn
from games.engines.photograph import ENGINE
from games.engines.photograph.cards import SUNSET, deal_order

from .helpers import apply, hand_cards, new_game, play, set_hand, set_layout

R = ["red-1", "red-2", "red-3", "red-4"]


def row_state(players=2):
    state = new_game(players, seed="rows")
    colours = state["colours"]
    rows = [[f"{colours[r]}-{c + 1}" for c in range(4)] for r in range(len(state["layout"]))]
    set_layout(state, rows)
    return state, rows


@pytest.mark.parametrize(
    "side,count,expected_columns",
    [
        ("left", 1, [0]),
        ("left", 2, [0, 1]),
        ("left", 3, [0, 1, 2]),
        ("right", 1, [3]),
        ("right", 2, [3, 2]),
        ("right", 3, [3, 2, 1]),
    ],
)
def test_each_take_shape(side, count, expected_columns):
    """ "starting with the card in either the leftmost or the rightmost column and moving along a row
    toward the middle ... take cards one at a time ... place it to the right of the cards already
    there (so the last card taken ends up rightmost)"."""
    state, rows = row_state()
    seat = state["turn"]
    before = hand_cards(state, seat)
    after = apply(state, seat, {"type": "take", "row": 1, "side": side, "count": count})
    taken = [rows[1][c] for c in expected_columns]
    assert hand_cards(after, seat) == before + taken
    # face-up cards are known to all when taken, face-down ones only to the taker
    assert [e["public"] for e in after["hands"][seat][-count:]] == [c in (0, 3) for c in expected_columns]
    for c in range(4):
        assert (after["layout"][1][c] is None) == (c in expected_columns)
    assert after["phase"] == "wind" and after["taken"] == count and after["turn"] == seat


def test_a_row_end_is_its_first_remaining_card():
    """Taken places are gaps: the next take from that side starts at the first card still there
    ("you may not skip over cards" - gaps are not cards)."""
    state, rows = row_state()
    state["layout"][0][0] = state["layout"][0][1] = None
    seat = state["turn"]
    after = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 2})
    assert hand_cards(after, seat)[-2:] == [rows[0][2], rows[0][3]]


def test_take_is_from_one_row_only_and_at_most_what_it_holds():
    state, _ = row_state()
    state["layout"][2] = [None, None, None, {"card": "red-9", "up": True}]
    seat = state["turn"]
    with pytest.raises(IllegalMove, match="only 1"):
        play(state, seat, {"type": "take", "row": 2, "side": "left", "count": 2})
    after = apply(state, seat, {"type": "take", "row": 2, "side": "left", "count": 1})
    assert hand_cards(after, seat)[-1] == "red-9"
    state["layout"][2] = [None] * 4
    with pytest.raises(IllegalMove):
        play(state, seat, {"type": "take", "row": 2, "side": "right", "count": 1})


@pytest.mark.parametrize(
    "move",
    [
        {"type": "take", "row": 0, "side": "left", "count": 0},
        {"type": "take", "row": 0, "side": "left", "count": 4},
        {"type": "take", "row": 3, "side": "left", "count": 1},  # 2 players: rows 0-2
        {"type": "take", "row": -1, "side": "left", "count": 1},
        {"type": "take", "row": 0, "side": "middle", "count": 1},
        {"type": "take", "row": 0, "side": ["left"], "count": 1},
        {"type": "take", "row": "0", "side": "left", "count": 1},
        {"type": "take", "row": 0, "side": "left", "count": True},
        {"type": "take", "row": 0, "side": "left", "count": 1.0},
        {"type": "take", "row": 0, "side": "left"},
        {"type": "take", "row": 0, "side": "left", "count": 1, "extra": 1},
    ],
)
def test_malformed_or_illegal_takes_are_illegal_moves(move):
    state, _ = row_state()
    with pytest.raises(IllegalMove):
        play(state, state["turn"], move)


def test_legal_takes_list_every_shape():
    state, _ = row_state()
    moves = {(m["row"], m["side"], m["count"]) for m in ENGINE.legal_moves(state, state["turn"])}
    assert moves == {(r, s, c) for r in range(3) for s in ("left", "right") for c in (1, 2, 3)}


# ----------------------------------------------------------------------------------------------
# Step 4
# ----------------------------------------------------------------------------------------------
def take_and_wind(state, row, side, count, wind=(0, 1)):
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": row, "side": side, "count": count})
    step = play(state, seat, {"type": "wind", "from": wind[0], "to": wind[1]})
    return step


def test_no_refill_while_more_than_3_cards_remain():
    """ "If more than 3 remain, skip this step"."""
    state, _ = row_state()
    state["layout"][1], state["layout"][2] = [None] * 4, [None] * 4
    state["layout"][2][0] = {"card": "red-12", "up": True}
    deck = list(state["deck"])
    step = take_and_wind(state, 0, "left", 1)  # 4 left
    assert step.state["deck"] == deck and step.record["check"]["refilled"] is False
    assert step.state["phase"] == "take" and step.state["turn"] == (state["turn"] + 1) % 2


def test_two_player_refill_removes_all_and_deals_anew_in_diagram_order():
    """ "When playing with 2, remove all remaining cards in the layout from the game. Deal new cards
    from the shot card deck into the layout according to the layout diagram"."""
    state, rows = row_state(2)
    state["layout"][1], state["layout"][2] = [None] * 4, [None] * 4
    step = take_and_wind(state, 0, "left", 1)  # 3 left: red... columns 1, 2 down, 3 up
    after = step.state
    removed = [(e["card"], e["seen"]) for e in after["out"]]
    assert removed == [(rows[0][1], False), (rows[0][2], False), (rows[0][3], True)]
    deck = state["deck"]
    for index, (r, c) in enumerate(deal_order(2)):
        assert after["layout"][r][c] == {"card": deck[index], "up": c in (0, 3)}
    assert after["deck"] == deck[12:]
    assert step.record["check"]["refilled"] and len(step.record["check"]["dealt"]) == 12


def three_player_refill_state():
    state = new_game(3, seed="refill")
    set_layout(
        state,
        [
            ["red-1", "red-2", "red-3", "red-4"],
            [None, None, None, None],
            [None, None, None, None],
            [None, None, "blue-5", None],
        ],
    )
    return state


def test_three_four_player_refill_moves_face_down_cards_left_face_up():
    """ "1. Remove all face-up cards remaining in the layout from the game. 2. Move all cards lying
    face-down in the two center columns, keeping their position, to the first available positions
    in the leftmost column, in order, and turn them face-up. 3. Then deal new cards from the deck
    into the empty spaces according to the layout diagram"."""
    state = three_player_refill_state()
    # takes red-4 and red-3; left: red-1 (up), red-2 and blue-5 (down)
    step = take_and_wind(state, 0, "right", 2)
    after = step.state
    assert [(e["card"], e["seen"]) for e in after["out"]] == [("red-1", True)]
    assert after["layout"][0][0] == {"card": "red-2", "up": True}
    assert after["layout"][1][0] == {"card": "blue-5", "up": True}
    empty = [p for p in deal_order(3) if p not in [(0, 0), (1, 0)]]
    for index, (r, c) in enumerate(empty):
        assert after["layout"][r][c] == {"card": state["deck"][index], "up": c in (0, 3)}
    moved = step.record["check"]["moved"]
    assert [(m["card"], m["from"], m["to"]) for m in moved] == [("red-2", [0, 1], [0, 0]), ("blue-5", [3, 2], [1, 0])]


def test_sunset_during_a_refill_pauses_dealing_for_a_simultaneous_wind_and_two_plays():
    """ "If the sunset card is revealed from the deck during step 4, the game immediately pauses,
    and all players simultaneously: 1. wind the film; 2. play the 2 leftmost cards in their hand;
    3. return the sunset card to the box, then continue resolving step 4"."""
    state = three_player_refill_state()
    rest = [c for c in state["deck"] if c != SUNSET][:30]
    state["deck"] = rest[:2] + [SUNSET] + rest[2:]
    taker = state["turn"]
    paused = take_and_wind(state, 0, "right", 2).state
    assert paused["phase"] == "sunset" and paused["sunset"] == "revealed"
    assert sorted(ENGINE.active_players(paused)) == [0, 1, 2]
    empty = [p for p in deal_order(3) if p not in [(0, 0), (1, 0)]]
    assert paused["layout"][empty[0][0]][empty[0][1]]["card"] == rest[0]
    assert paused["layout"][empty[1][0]][empty[1][1]]["card"] == rest[1]
    assert all(paused["layout"][r][c] is None for r, c in empty[2:])
    assert paused["deal_queue"] == [list(p) for p in empty[2:]]
    hands = {s: hand_cards(paused, s) for s in range(3)}
    winds = {0: (0, 4), 1: (3, 4), 2: (1, 2)}
    s = paused
    for seat in (2, 0):
        s = apply(s, seat, {"type": "wind", "from": winds[seat][0], "to": winds[seat][1]})
        assert hand_cards(s, seat) == hands[seat]  # secret and pending until all have wound
    with pytest.raises(NotYourTurn):
        play(s, 0, {"type": "wind", "from": 0, "to": 1})  # already wound
    step = play(s, 1, {"type": "wind", "from": 3, "to": 4})
    done = step.state
    for seat in range(3):
        wound = list(hands[seat])
        wound.insert(winds[seat][1], wound.pop(winds[seat][0]))
        assert hand_cards(done, seat) == wound[2:]  # "3 cards remaining in hand"
        played = [p["card"] for p in step.record["played"] if p["seat"] == seat]
        assert played == wound[:2]
    assert done["sunset"] == "box" and SUNSET not in done["deck"]
    for index, (r, c) in enumerate(empty):
        assert done["layout"][r][c]["card"] == rest[index]
    assert done["phase"] == "take" and done["turn"] == (taker + 1) % 3
    assert all(p["good_shot"] is None for p in step.record["played"])


def test_sunset_revealed_for_the_last_place_then_next_players_turn():
    """ "If the sunset card was revealed at the end of step 4, the game continues with the next
    player's turn"."""
    state, _ = row_state(2)
    state["layout"][1], state["layout"][2] = [None] * 4, [None] * 4
    cards = [c for c in state["deck"] if c != SUNSET]
    state["deck"] = cards[:11] + [SUNSET] + cards[11:20]
    paused = take_and_wind(state, 0, "left", 1).state
    assert paused["phase"] == "sunset" and paused["deal_queue"] == [list(deal_order(2)[-1])]
    s = apply(paused, 0, {"type": "wind", "from": 0, "to": 1})
    s = apply(s, 1, {"type": "wind", "from": 0, "to": 1})
    r, c = deal_order(2)[-1]
    assert s["layout"][r][c]["card"] == cards[11]
    assert s["phase"] == "take" and s["turn"] == (state["turn"] + 1) % 2


def end_state(players=2, deck=()):
    state = new_game(players, seed="end")
    rows = [["red-1", "red-2", "red-3", "red-4"]] + [[None] * 4] * (len(state["layout"]) - 1)
    set_layout(state, rows)
    state["deck"], state["sunset"] = list(deck), "box"
    colour = state["colours"][1]
    for seat in range(players):
        set_hand(state, seat, [f"{colour}-{seat * 3 + n}" for n in (1, 2, 3)])
    return state


def test_the_end_of_the_deck_ends_the_game():
    """ "If, after resolving step 4, 3 or fewer cards remain in the layout (because the shot card
    deck has run out), the game ends immediately. 1. wind 2. play the 2 leftmost cards 3. remove
    the one remaining card from the game 4. tally victory points"."""
    state = end_state(2)
    ending = take_and_wind(state, 0, "left", 1).state
    assert ending["phase"] == "end" and ending["winds"] == [None, None]
    assert all(p is None for row in ending["layout"] for p in row)  # 2p: all removed, none dealt
    hands = [hand_cards(ending, s) for s in range(2)]
    s = apply(ending, 1, {"type": "wind", "from": 0, "to": 2})
    assert ENGINE.result(s) is None
    step = play(s, 0, {"type": "wind", "from": 1, "to": 2})
    over = step.state
    assert over["phase"] == "over" and all(h == [] for h in over["hands"])
    wound = [hands[0][0], hands[0][2], hands[0][1]], [hands[1][1], hands[1][2], hands[1][0]]
    for seat in range(2):
        assert [p["card"] for p in step.record["played"] if p["seat"] == seat] == wound[seat][:2]
        assert [e["card"] for e in over["last_cards"][seat]] == [wound[seat][2]]
    result = ENGINE.result(over)
    assert result is not None and len(result["scores"]) == 2


def test_a_partial_refill_that_leaves_more_than_3_cards_does_not_end_the_game():
    state = three_player_refill_state()
    state["deck"], state["sunset"] = ["green-1", "green-2"], "box"
    after = take_and_wind(state, 0, "right", 2).state  # 2 moved + 2 dealt = 4
    assert after["phase"] == "take" and after["deck"] == []


def test_a_partial_refill_that_leaves_3_cards_ends_the_game():
    state = three_player_refill_state()
    state["deck"], state["sunset"] = [], "box"
    after = take_and_wind(state, 0, "right", 2).state  # 2 moved face up, nothing dealt
    assert after["phase"] == "end"
