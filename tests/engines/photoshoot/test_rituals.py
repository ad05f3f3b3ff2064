"""The blue Effect cards: each ritual performed (the action stands when challenged) and forgotten
(an error the Control team can catch)."""

import pytest

from games.engines.base import EngineError, IllegalMove
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, challenge, play, started, turn

#  0 Max     1 Olivia  2 Alice
#  3 Pam     4 Edgar   5 Jo
#  6 Chloé   7 Arthur  8 James
# 4 players, default teams: team 0 = seats 0, 2 (photographers); team 1 = seats 1, 3.
MOVE = {"Max": [0, 3], "Olivia": [1, 4], "Alice": [2, 5], "Pam": [3, 6], "Edgar": [4, 7]}


def verdict(card, character, rituals):
    state = started(effects=[card])
    state = act(state, {"type": "swap", "cells": MOVE[character], "rituals": rituals})
    return challenge(state).record


# (card, character moved, rituals done, rituals forgotten)
CASES = [
    ("max-phrase", "Max", {"say": ["Tout doux le chien!"]}, {"say": ["Tout doux le chat!"]}),
    ("olivia-applause", "Olivia", {"applaud": True}, {}),
    ("olivia-slap", "Olivia", {"slap": 2}, {"slap": 1}),  # the player after seat 0 is seat 2
    ("alice-contact", "Alice", {"contact": True}, {"contact": False}),
    ("alice-shake", "Alice", {"shake": 1}, {"shake": 2}),  # seat 0's neighbours: 1 and 3
    ("pam-phrase", "Pam", {"say": ["eh ! je suis bien dans le cadre ?"]}, {"say": ["Ouistiti"]}),
    ("edgar-smile", "Edgar", {"say": ["Ouistiti"], "smile": True}, {"say": ["Ouistiti"]}),
]


@pytest.mark.parametrize("card,character,done,forgotten", CASES, ids=[c[0] for c in CASES])
def test_a_ritual_done_stands_and_forgotten_is_an_error(card, character, done, forgotten):
    assert verdict(card, character, done)["error"] is False
    record = verdict(card, character, forgotten)
    assert record["error"] is True and record["token"] == "control"


@pytest.mark.parametrize("card,character,done,forgotten", CASES, ids=[c[0] for c in CASES])
def test_a_ritual_is_owed_only_when_its_character_moves(card, character, done, forgotten):
    state = started(effects=[card])
    other = [8, 7] if character != "Edgar" else [6, 3]  # James/Arthur or Chloé/Pam
    state = act(state, {"type": "swap", "cells": other, "rituals": forgotten})
    assert challenge(state).record["error"] is False


def test_max_the_next_player_must_stroke_his_tile_before_playing():
    state = started(effects=["max-stroke"])
    state = act(state, {"type": "swap", "cells": [0, 3]})  # Max moved: no ritual for seat 0
    assert challenge(state).record["error"] is False
    stroked = act(state, {"type": "swap", "cells": [7, 8], "rituals": {"stroke": True}})
    assert challenge(stroked).record["error"] is False
    forgot = act(state, {"type": "swap", "cells": [7, 8]})
    record = challenge(forgot).record
    assert record["error"] is True and "stroke" in record["faults"][0]


def test_max_must_be_stroked_even_before_a_photo():
    state = started(effects=["max-stroke"])
    state = act(state, {"type": "swap", "cells": [0, 3]})
    forgot = act(state, {"type": "photo"})
    assert any("stroke" in f for f in challenge(forgot).record["faults"])


def test_max_moved_by_jos_push_is_moved():
    grid = ["Pam", "Olivia", "Alice", "Max", "Edgar", "Jo", "Chloé", "Arthur", "James"]
    state = started(grid=grid, effects=["max-phrase", "jo"])
    state = act(state, {"type": "push", "cell": 5, "direction": "left"})
    assert challenge(state).record["error"] is True


def test_version_1_pam_the_whole_team_does_a_mexican_wave():
    state = started(effects=["pam-wave"], version=1)
    state = act(state, {"type": "swap", "cells": MOVE["Pam"], "rituals": {"wave": True}})
    assert state["last"]["owed"]["wave"] == [2]
    early = challenge(state).record
    assert early["error"] is True and "wave" in early["faults"][0]  # seat 2 had not joined yet
    waved = play(state, 2, {"type": "wave"})
    assert challenge(waved).record["error"] is False
    with pytest.raises(EngineError):
        play(waved, 2, {"type": "wave"})  # owed once


def test_version_1_pam_the_player_moving_her_starts_the_wave():
    state = started(effects=["pam-wave"], version=1)
    state = act(state, {"type": "swap", "cells": MOVE["Pam"]})
    state = play(state, 2, {"type": "wave"})
    assert challenge(state).record["error"] is True


def test_version_1_edgar_everyone_ready_the_whole_team_must_answer():
    state = started(effects=["edgar-ready"], version=1)
    state = act(state, {"type": "swap", "cells": MOVE["Edgar"], "rituals": {"say": ["Tout le monde est pret ?"]}})
    assert challenge(state).record["error"] is True  # nobody answered yet
    answered = play(state, 2, {"type": "answer"})
    assert challenge(answered).record["error"] is False
    unsaid = act(started(effects=["edgar-ready"], version=1), {"type": "swap", "cells": MOVE["Edgar"]})
    unsaid = play(unsaid, 2, {"type": "answer"})
    assert challenge(unsaid).record["error"] is True  # the question was never asked


def test_version_1_a_forgotten_wave_stands_once_the_next_action_comes():
    state = started(effects=["pam-wave"], version=1)
    state = act(state, {"type": "swap", "cells": MOVE["Pam"], "rituals": {"wave": True}})
    state = act(state, {"type": "swap", "cells": [7, 8]})
    assert state["last"]["number"] == 2 and challenge(state).record["error"] is False
    with pytest.raises(EngineError):
        play(state, 2, {"type": "wave"})  # too late: nothing owed now


@pytest.mark.parametrize(
    "rituals", [{"say": "Ouistiti"}, {"say": ["x" * 81]}, {"smile": 1}, {"slap": 9}, {"shake": -1}, {"dance": True}, []]
)
def test_malformed_rituals_are_refused(rituals):
    with pytest.raises(IllegalMove):
        act(started(), {"type": "swap", "cells": [0, 1], "rituals": rituals})


def test_doing_more_than_a_card_asks_is_no_error():
    state = started()
    state = act(state, {"type": "swap", "cells": [0, 1], "rituals": {"say": ["Ouistiti"], "applaud": True}})
    assert challenge(state).record["error"] is False
    assert turn(state) == 2 and state["grid"][1] == ROW_MAJOR[0]
