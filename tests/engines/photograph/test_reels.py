"""Rules for playing shot cards: order, steps of 1-3, blurred shots, the 12/1 end."""

import pytest

from games.engines.photograph.reels import ASCENDING, DESCENDING, can_play, finished, order, play, void_unclaimable

from .helpers import new_game, reel


def test_the_first_card_of_a_reel_is_always_legal():
    for n in range(1, 13):
        assert can_play([], f"red-{n}")


def test_worked_example_6_then_7_fixes_ascending():
    """Rulebook example: "if the first red shot's number is 6 and the next red shot's number is 7,
    then after that only shots numbered 8 or higher may be played into that reel"."""
    r = reel("red-6", "red-7")
    assert order(r) == ASCENDING
    assert [n for n in range(1, 13) if can_play(r, f"red-{n}")] == [8, 9, 10]  # and within 3


def test_worked_example_6_then_5_fixes_descending():
    """Rulebook example: "If the second red shot had instead been numbered 5, only shots with lower
    numbers could be played into that reel afterward"."""
    r = reel("red-6", "red-5")
    assert order(r) == DESCENDING
    assert [n for n in range(1, 13) if can_play(r, f"red-{n}")] == [2, 3, 4]


def test_the_second_card_may_go_either_way_within_3():
    """The order "is fixed the moment the 2nd card is played": before that both ways are open,
    each within 3 of the first."""
    assert [n for n in range(1, 13) if can_play(reel("red-6"), f"red-{n}")] == [3, 4, 5, 7, 8, 9]
    assert order(reel("red-6")) is None


def test_each_next_shot_is_1_to_3_beyond_the_previous_in_the_order():
    """ "each next shot's number must be 1-3 higher than the previous shot's number" (ascending)."""
    r = reel("blue-2", "blue-4")
    assert can_play(r, "blue-5") and can_play(r, "blue-7")
    assert not can_play(r, "blue-8")  # 4 beyond
    assert not can_play(r, "blue-3")  # wrong way
    d = reel("blue-11", "blue-9")
    assert can_play(d, "blue-6") and not can_play(d, "blue-5") and not can_play(d, "blue-10")


def test_after_a_blurred_shot_the_limit_of_3_is_lifted_but_the_order_holds():
    """ "when playing the next shot to the right of a blurred shot, the order of that photo reel
    still applies, but the restriction limiting the next shot to within 3 does not apply"."""
    r = reel("green-2", "green-3", ("green-1", "blurred"))
    assert can_play(r, "green-12") and can_play(r, "green-4")
    assert not can_play(r, "green-2") and not can_play(r, "green-1")  # order holds


def test_blurred_then_continue_the_limit_returns_after_a_face_up_card():
    """The lift is for the next card only: after the face-up card following a blurred one, the
    step of 1-3 applies again."""
    state = new_game(2)
    colour = state["colours"][0]
    state["reels"][0][colour] = reel(f"{colour}-2", f"{colour}-3")
    assert play(state, 0, f"{colour}-1", claims=True)["blurred"] is True  # wrong way
    assert play(state, 0, f"{colour}-8", claims=True)["blurred"] is False  # 5 beyond: lifted
    assert play(state, 0, f"{colour}-12", claims=True)["blurred"] is True  # 4 beyond: limit back
    assert play(state, 0, f"{colour}-4", claims=True)["blurred"] is True  # order holds
    assert play(state, 0, f"{colour}-11", claims=True)["blurred"] is False  # lifted again
    r = reel(f"{colour}-2", f"{colour}-3", (f"{colour}-1", "b"), f"{colour}-5")
    assert can_play(r, f"{colour}-8") and not can_play(r, f"{colour}-9")


def test_several_blurred_shots_in_a_row():
    """ "There is no limit to how many blurred shots a reel may contain"; the lift holds for the
    card after the last of them."""
    r = reel("gray-5", "gray-6", ("gray-1", "b"), ("gray-2", "b"))
    assert can_play(r, "gray-12") and not can_play(r, "gray-4")


def test_a_blurred_second_card_leaves_the_order_open():
    """ "If the second shot in a photo reel turns out to be blurred, the order ... will only be
    determined once a non-blurred shot is added"."""
    r = reel("red-6", ("red-11", "b"))
    assert order(r) is None
    assert can_play(r, "red-1") and can_play(r, "red-12")  # either way, any distance
    fixed_down = reel("red-6", ("red-11", "b"), "red-1")
    assert order(fixed_down) == DESCENDING and finished(fixed_down)
    fixed_up = reel("red-6", ("red-11", "b"), "red-10")
    assert order(fixed_up) == ASCENDING
    assert can_play(fixed_up, "red-12") and not can_play(fixed_up, "red-9")


@pytest.mark.parametrize("cards,end", [(("yellow-9", "yellow-12"), 12), (("yellow-3", "yellow-1"), 1)])
def test_a_reel_that_reached_12_ascending_or_1_descending_takes_only_blurred(cards, end):
    """ "As soon as a photo reel with ascending order reaches shot No. 12, or a photo reel with
    descending order reaches shot No. 1, only blurred shots can be added to it from then on"."""
    r = reel(*cards)
    assert finished(r)
    assert not any(can_play(r, f"yellow-{n}") for n in range(1, 13))
    after_blur = r + reel(("yellow-5", "b"))
    assert not any(can_play(after_blur, f"yellow-{n}") for n in range(1, 13))


def test_a_single_12_or_1_is_not_an_end_the_order_is_open():
    assert not finished(reel("blue-12")) and can_play(reel("blue-12"), "blue-10")
    assert not finished(reel("blue-1")) and can_play(reel("blue-1"), "blue-3")
    # descending reel at 12? impossible; ascending reel at 1 likewise: the end is only 12 up / 1 down
    assert not finished(reel("blue-4", "blue-2"))


def test_a_blurred_card_goes_to_the_reel_of_its_colour():
    """ "turn it face-down and place it to the right of the previous shot in the photo reel of the
    matching color"."""
    state = new_game(2)
    colour = state["colours"][1]
    state["reels"][0][colour] = reel(f"{colour}-2")
    fact = play(state, 0, f"{colour}-9", claims=True)
    assert fact == {"seat": 0, "card": f"{colour}-9", "blurred": True, "good_shot": None}
    assert state["reels"][0][colour][-1] == {"card": f"{colour}-9", "blurred": True}


@pytest.mark.parametrize("players,threshold", [(2, 4), (3, 4), (4, 3)])
def test_good_shot_claimed_by_the_first_to_reach_the_threshold(players, threshold):
    """ "Be the first to play 4 face-up shots of the matching color, when playing with 2 or 3
    players; 3 face-up shots when playing with 4"; "blurred shots do not count"."""
    state = new_game(players)
    colour = state["colours"][0]
    cards = [f"{colour}-{n}" for n in range(1, threshold)]
    state["reels"][1][colour] = reel(*cards)
    assert play(state, 1, f"{colour}-12", claims=True)["blurred"] is True  # does not count
    assert state["good_shots"][colour]["holder"] is None
    fact = play(state, 1, f"{colour}-{threshold}", claims=True)
    assert fact["good_shot"] == colour and state["good_shots"][colour]["holder"] == 1
    # the next player to reach it gets nothing: "claimed by the first player to fulfill"
    state["reels"][0][colour] = reel(*cards)
    assert play(state, 0, f"{colour}-{threshold}", claims=True)["good_shot"] is None
    assert state["good_shots"][colour]["holder"] == 1


def test_no_claim_below_the_threshold():
    state = new_game(2)
    colour = state["colours"][0]
    state["reels"][0][colour] = reel(f"{colour}-1", f"{colour}-2")
    assert play(state, 0, f"{colour}-3", claims=True)["good_shot"] is None


def test_meeting_the_condition_while_claims_are_off_voids_the_good_shot():
    """ "if some player's condition for a good shot card is met during resolution of the sunset
    card, nobody receives it, since no one will any longer be the first"."""
    state = new_game(2)
    colour = state["colours"][0]
    state["reels"][0][colour] = reel(f"{colour}-1", f"{colour}-2", f"{colour}-3")
    assert play(state, 0, f"{colour}-4", claims=False)["good_shot"] is None
    assert void_unclaimable(state) == [colour]
    state["reels"][1][colour] = reel(f"{colour}-5", f"{colour}-6", f"{colour}-7")
    assert play(state, 1, f"{colour}-8", claims=True)["good_shot"] is None
    assert state["good_shots"][colour] == {"holder": None, "void": True}
