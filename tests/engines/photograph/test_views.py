"""What each seat may see, through view and describe: an attentive player's knowledge, no more."""

from games.engines.photograph import ENGINE
from games.engines.photograph.cards import SUNSET

from .helpers import apply, event, new_game, numbers_shown, play, set_hand, set_layout


def seated():
    state = new_game(3, seed="views")
    set_layout(state, [["red-1", "red-2", "red-3", "red-4"]] + [["blue-1", "blue-2", "blue-3", "blue-4"]] * 3)
    set_hand(state, state["turn"], ["gray-1", "gray-2", "gray-3", "gray-4", "gray-5"])
    return state, state["turn"]


def test_face_down_layout_cards_show_only_their_backs():
    """ "of face-down layout cards only their backs (colour and whether 1-6 or 7-12)"."""
    state, _ = seated()
    for viewer in (None, 0, 1, 2):
        row = ENGINE.view(state, viewer)["layout"][0]
        assert row[0] == {"colour": "red", "number": 1, "face_up": True}
        assert row[1] == {"colour": "red", "range": "1-6", "face_up": False}
        assert "number" not in row[2]


def test_setup_hands_are_known_only_to_their_owner():
    state = new_game(4, seed="hands")
    for viewer in (None, 0, 1, 2, 3):
        hands = ENGINE.view(state, viewer)["hands"]
        for seat in range(4):
            assert len(hands[seat]) == 5
            assert all(("number" in c) == (seat == viewer) for c in hands[seat])


def test_a_face_down_card_taken_is_known_to_the_taker_only_until_played():
    """A face-down card taken by seat A becomes known to A only; when it is played (face up or
    blurred) everyone sees it at that moment - in that play's log line."""
    state, seat = seated()
    move = {"type": "take", "row": 0, "side": "right", "count": 3}  # red-4 up, red-3/red-2 down
    step = play(state, seat, move)
    ev = event(step, seat, move)
    for viewer in (None, 0, 1, 2):
        hand = ENGINE.view(step.state, viewer)["hands"][seat]
        cards = ENGINE.describe(ev, viewer)["cards"]
        if viewer == seat:
            assert [c["number"] for c in hand[-3:]] == [4, 3, 2]
            assert [c["number"] for c in cards] == [4, 3, 2]
        else:
            assert hand[-3:] == [
                {"colour": "red", "number": 4},
                {"colour": "red", "range": "1-6"},
                {"colour": "red", "range": "1-6"},
            ]
            assert [c.get("number") for c in cards] == [4, None, None]
            assert cards[1] == {"pos": [0, 2], "colour": "red", "range": "1-6", "face_up": False}
    # gray-1 wound to the right end: gray-2..4 are played, the red cards stay in hand
    wind = {"type": "wind", "from": 0, "to": 7}
    step2 = play(step.state, seat, wind)
    ev2 = event(step2, seat, wind, seq=2)
    for viewer in (None, 0, 1, 2):
        played = ENGINE.describe(ev2, viewer)["played"]
        assert [(p["colour"], p["number"]) for p in played] == [("gray", 2), ("gray", 3), ("gray", 4)]
        others = ENGINE.view(step2.state, viewer)["hands"][seat]
        if viewer != seat:  # gray-5, red-4 (public), red-3, red-2 (backs), gray-1 wound right
            assert [c.get("number") for c in others] == [None, 4, None, None, None]


def blurred_play():
    state, seat = seated()
    state["reels"][seat]["gray"] = [{"card": "gray-9", "blurred": False}]
    state = apply(state, seat, {"type": "take", "row": 1, "side": "left", "count": 1})
    wind = {"type": "wind", "from": 4, "to": 5}
    step = play(state, seat, wind)
    return step, seat, event(step, seat, wind)


def test_a_blurred_card_shows_its_number_at_the_moment_of_play_only():
    """ "first show the card's face to the other players, then turn it face-down ... From this point
    on, players may not check the number on this card". The log line shows the number while it is
    fresh (the move's answer, the live channel); read later, the colour only."""
    step, seat, ev = blurred_play()
    for viewer in (None, 0, 1, 2):
        assert ENGINE.describe({**ev, "fresh": True}, viewer)["played"] == [
            {"seat": seat, "colour": "gray", "number": 1, "blurred": True, "good_shot": None}
        ]
        for later in (ev, {**ev, "fresh": False}):
            line = ENGINE.describe(later, viewer)
            assert line["played"] == [{"seat": seat, "colour": "gray", "blurred": True, "good_shot": None}]
            assert "gray-1" not in numbers_shown(line)
        assert ENGINE.view(step.state, viewer)["reels"][seat]["gray"] == [
            {"colour": "gray", "number": 9},
            {"colour": "gray", "blurred": True},
        ]


def test_the_view_shows_a_blurred_face_until_the_next_action_and_replays_never_do():
    step, seat, _ = blurred_play()
    for viewer in (None, 0, 1, 2):
        assert ENGINE.view(step.state, viewer)["shown"] == [{"seat": seat, "colour": "gray", "number": 1}]
        assert ENGINE.replay_view(step.state, viewer)["shown"] == []
    after = step.state
    nxt = after["turn"]
    after = apply(after, nxt, ENGINE.legal_moves(after, nxt)[0])
    for viewer in (None, 0, 1, 2):
        assert ENGINE.view(after, viewer)["shown"] == []


def test_version_1_games_keep_their_state_and_show_the_face_only_in_the_fresh_log_line():
    from games.engines import get

    v1 = get("photograph", 1)
    state, seat = seated()
    state["reels"][seat]["gray"] = [{"card": "gray-9", "blurred": False}]
    state = v1.apply(state, seat, {"type": "take", "row": 1, "side": "left", "count": 1}, None)
    step = v1.play(state, seat, {"type": "wind", "from": 4, "to": 5}, None)
    assert "shown" not in step.state and v1.view(step.state, 0)["shown"] == []
    line = v1.describe({**event(step, seat, {"type": "wind", "from": 4, "to": 5}), "fresh": True}, 0)
    assert line["played"][0]["number"] == 1


def test_spectators_see_what_any_seat_sees_of_the_others():
    state, seat = seated()
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 2})
    spectator = ENGINE.view(state, None)
    for viewer in range(3):
        seen = ENGINE.view(state, viewer)
        for key in spectator:
            if key != "hands":
                assert seen[key] == spectator[key]
        for other in range(3):
            if other != viewer:
                assert seen["hands"][other] == spectator["hands"][other]


def test_the_deck_shows_only_its_size():
    state, _ = seated()
    seen = ENGINE.view(state, None)
    assert seen["deck_size"] == len(state["deck"]) and "deck" not in seen
    assert "_seed" not in seen


def test_simultaneous_winds_are_secret_until_everyone_has_wound():
    state = new_game(2, seed="secret")
    state["layout"] = [[None] * 4 for _ in state["layout"]]
    state["layout"][0] = [{"card": f"purple-{n}", "up": n in (1, 4)} for n in range(1, 5)]
    state["deck"] = [SUNSET] + [c for c in state["deck"] if c != SUNSET]
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 1})
    state = apply(state, seat, {"type": "wind", "from": 0, "to": 1})
    assert state["phase"] == "sunset"
    hand_view = {v: ENGINE.view(state, v)["hands"] for v in (None, 0, 1)}
    wind = {"type": "wind", "from": 0, "to": 4}
    step = play(state, seat, wind)
    ev = event(step, seat, wind)
    assert ENGINE.describe(ev, seat)["move"] == wind
    assert ENGINE.view(step.state, seat)["my_wind"] == {"from": 0, "to": 4}
    for viewer in (None, 1 - seat):
        assert ENGINE.describe(ev, viewer)["move"] == {"type": "wind"}
        seen = ENGINE.view(step.state, viewer)
        assert seen["hands"] == hand_view[viewer] and "my_wind" not in seen
        assert seen["wound"][seat] is True and seen["wound"][1 - seat] is False
    last = {"type": "wind", "from": 1, "to": 2}
    final = play(step.state, 1 - seat, last)
    shown = ENGINE.describe(event(final, 1 - seat, last, seq=2), None)
    assert {(w["seat"], w["from"], w["to"]) for w in shown["winds"]} == {(seat, 0, 4), (1 - seat, 1, 2)}
    assert len(shown["played"]) == 4


def test_cards_leaving_the_hand_at_the_end_stay_hidden_unless_seen():
    state = new_game(2, seed="left")
    state["layout"] = [[None] * 4 for _ in state["layout"]]
    state["layout"][0] = [{"card": f"purple-{n}", "up": n in (1, 4)} for n in range(1, 5)]
    state["deck"], state["sunset"] = [], "box"
    for seat in range(2):
        set_hand(state, seat, ["blue-1", "blue-2", "blue-3"] if seat else ["red-1", "red-2", "red-3"])
    state["hands"][1][2]["public"] = True
    seat = state["turn"]
    state = apply(state, seat, {"type": "take", "row": 0, "side": "left", "count": 1})
    state = apply(state, seat, {"type": "wind", "from": 0, "to": 1})
    assert state["phase"] == "end"
    for s in range(2):
        state = apply(state, s, {"type": "wind", "from": 0, "to": 1})
    assert state["phase"] == "over"
    left = [[e["card"] for e in cards] for cards in state["last_cards"]]
    for viewer in (None, 0, 1):
        shown = ENGINE.view(state, viewer)["last_cards"]
        for s in range(2):
            known = s == viewer or state["last_cards"][s][0]["public"]
            assert ("number" in shown[s][0]) == known, (viewer, s, left)
    assert ENGINE.view(state, None)["result"]["scores"] == ENGINE.result(state)["scores"]


def test_numbers_shown_finds_every_face():
    assert numbers_shown({"a": [{"colour": "red", "number": 3}, {"colour": "red", "range": "1-6"}]}) == {"red-3"}
