"""The Photographer Team's actions and the orange Effect cards, each judged by a challenge (the
server is the referee): an error is cancelled and the Control team gains 1 Camera token; a correct
action stands and the Photographer team gains one."""

import pytest

from games.engines.photoshoot import grid as g
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, challenge, started

#  0 Max     1 Olivia  2 Alice
#  3 Pam     4 Edgar   5 Jo
#  6 Chloé   7 Arthur  8 James


def judged(state, move):
    """Play `move` as the photographer whose turn it is, then challenge it: (record, state)."""
    after = act(state, move)
    result = challenge(after)
    return result.record, result.state, after


def assert_correct(state, move, grid_after=None):
    record, final, after = judged(state, move)
    assert record["error"] is False, record["faults"]
    assert record["token"] == "photographer" and final["tally"]["photographer_tokens"] == 1
    if grid_after is not None:
        assert final["grid"] == grid_after
    return final


def assert_error(state, move, fault_part):
    record, final, after = judged(state, move)
    assert record["error"] is True and any(fault_part in f for f in record["faults"]), record
    assert record["token"] == "control" and final["tally"]["control_tokens"] == 1
    assert final["grid"] == state["grid"], "the action is cancelled"
    return final


def test_swap_two_adjacent_characters_above_below_or_beside():
    state = started()
    assert_correct(state, {"type": "swap", "cells": [0, 1]}, g.swap(ROW_MAJOR, 0, 1))
    assert_correct(state, {"type": "swap", "cells": [1, 4]}, g.swap(ROW_MAJOR, 1, 4))


def test_swap_adjacent_but_not_diagonally():
    assert_error(started(), {"type": "swap", "cells": [0, 4]}, "adjacent")


def test_two_characters_far_apart_do_not_swap():
    assert_error(started(), {"type": "swap", "cells": [0, 8]}, "adjacent")


def test_swap_two_girlfriends_regardless_of_their_position():
    # Olivia (1) and Chloé (6) are far apart: girlfriends swap anyway.
    assert_correct(started(), {"type": "swap", "cells": [1, 6]}, g.swap(ROW_MAJOR, 1, 6))


def test_rulebook_example_edgar_alice_then_alice_olivia_then_photo():
    """Example: Step 1 Edgar and Alice swap "in the usual way"; Step 2 Alice and Olivia swap
    "because they are girlfriends"; Step 3 "Photo!"."""
    grid = ["Max", "Olivia", "Pam", "Jo", "Edgar", "Alice", "Chloé", "Arthur", "James"]
    target = ["Max", "Alice", "Pam", "Jo", "Olivia", "Edgar", "Chloé", "Arthur", "James"]
    state = started(grid=grid)
    state = act(state, {"type": "swap", "cells": [4, 5]})  # Edgar <-> Alice (adjacent)
    state = act(state, {"type": "swap", "cells": [1, 4]})  # Alice <-> Olivia (girlfriends)
    assert state["grid"] == target
    assert state["last"]["faults"] == []
    judged_ok = challenge(state)
    assert judged_ok.record["error"] is False


# -- Jo the rhinoceros ---------------------------------------------------------------------------
def test_jo_pushes_his_row_and_the_tile_pushed_over_the_edge_comes_back_at_the_near_end():
    state = started(effects=["jo"])
    # Row 1 is Pam, Edgar, Jo: Jo at the right edge pushes left: [Edgar, Jo, Pam].
    after = assert_correct(state, {"type": "push", "cell": 5, "direction": "left"})
    assert after["grid"][3:6] == ["Edgar", "Jo", "Pam"]


def test_jo_pushes_his_column():
    state = started(effects=["jo"])
    after = assert_correct(state, {"type": "push", "cell": 5, "direction": "up"})
    assert [after["grid"][c] for c in (2, 5, 8)] == ["Jo", "James", "Alice"]


def test_jo_from_the_middle_pushes_the_whole_line():
    grid = g.swap(ROW_MAJOR, 4, 5)  # Jo in the centre
    state = started(grid=grid, effects=["jo"])
    after = assert_correct(state, {"type": "push", "cell": 4, "direction": "right"})
    assert after["grid"][3:6] == ["Edgar", "Pam", "Jo"]


def test_jo_cannot_push_into_empty_space_at_the_edge():
    assert_error(started(effects=["jo"]), {"type": "push", "cell": 5, "direction": "right"}, "empty space")
    grid = g.swap(ROW_MAJOR, 2, 5)  # Jo top-right: nothing above him
    assert_error(started(grid=grid, effects=["jo"]), {"type": "push", "cell": 2, "direction": "up"}, "empty space")
    assert_correct(started(grid=grid, effects=["jo"]), {"type": "push", "cell": 2, "direction": "down"})


def test_jo_does_not_swap_when_his_card_is_active():
    assert_error(started(effects=["jo"]), {"type": "swap", "cells": [4, 5]}, "Jo does not swap")
    assert_correct(started(), {"type": "swap", "cells": [4, 5]})  # without the card he does


def test_only_jo_pushes_and_only_with_his_card():
    assert_error(started(), {"type": "push", "cell": 5, "direction": "left"}, "only Jo")
    assert_error(started(effects=["jo"]), {"type": "push", "cell": 4, "direction": "left"}, "only Jo")


# -- Chloé the rabbit -----------------------------------------------------------------------------
def test_chloe_can_only_swap_diagonally():
    state = started(effects=["chloe"])
    assert_correct(state, {"type": "swap", "cells": [6, 4]})  # Chloé <-> Edgar, diagonal
    assert_error(state, {"type": "swap", "cells": [6, 3]}, "Chloé")  # Chloé <-> Pam, beside
    assert_error(state, {"type": "swap", "cells": [6, 7]}, "Chloé")  # Chloé <-> Arthur, beside


def test_chloe_can_always_swap_with_her_two_girlfriends():
    state = started(effects=["chloe"])
    assert_correct(state, {"type": "swap", "cells": [6, 1]})  # Olivia, far
    assert_correct(state, {"type": "swap", "cells": [6, 2]})  # Alice, far


def test_others_still_never_swap_diagonally_with_chloes_card():
    assert_error(started(effects=["chloe"]), {"type": "swap", "cells": [3, 7]}, "adjacent")


def test_chloe_can_be_pushed_by_jo_if_both_effects_are_active():
    grid = ["Max", "Olivia", "Alice", "Pam", "Edgar", "Arthur", "Jo", "Chloé", "James"]
    state = started(grid=grid, effects=["jo", "chloe"])
    after = assert_correct(state, {"type": "push", "cell": 6, "direction": "right"})
    assert after["grid"][6:9] == ["James", "Jo", "Chloé"]


def test_chloe_and_jo_do_not_swap_diagonally_when_both_are_active():
    grid = ["Max", "Olivia", "Alice", "Pam", "Jo", "Arthur", "Chloé", "Edgar", "James"]
    assert_error(started(grid=grid, effects=["jo", "chloe"]), {"type": "swap", "cells": [6, 4]}, "Jo does not swap")


# -- Arthur the cat and James the fox ------------------------------------------------------------
GRID_AM = ["Max", "Pam", "Arthur", "Olivia", "Edgar", "Alice", "Chloé", "Jo", "James"]


def test_no_movement_may_leave_arthur_and_max_side_by_side():
    state = started(grid=GRID_AM, effects=["arthur"])
    assert_error(state, {"type": "swap", "cells": [1, 2]}, "Arthur and Max")  # Arthur beside Max
    assert_correct(state, {"type": "swap", "cells": [2, 5]})  # away: fine


def test_arthur_and_max_on_a_diagonal_is_allowed():
    """ "No movement may leave Arthur and Max side by side, but a diagonal is allowed"."""
    # Max at 4 (centre), Arthur at 2: Max moves to 1? beside Arthur (error); Max to 5? beside
    # (error); Arthur down-left to the diagonal is the allowed way.
    grid = ["Pam", "Edgar", "Arthur", "Olivia", "Max", "Alice", "Chloé", "Jo", "James"]
    state = started(grid=grid, effects=["arthur"])
    assert_correct(state, {"type": "swap", "cells": [3, 6]})  # Max stays diagonal to Arthur
    assert_error(state, {"type": "swap", "cells": [4, 5]}, "Arthur and Max")  # Max to 5: beside


def test_jo_cannot_push_arthur_beside_max():
    grid = ["Max", "Jo", "Arthur", "Pam", "Edgar", "Alice", "Chloé", "Olivia", "James"]
    state = started(grid=grid, effects=["arthur", "jo"])
    assert_error(state, {"type": "push", "cell": 1, "direction": "right"}, "Arthur and Max")


def test_james_and_olivia_must_always_remain_side_by_side():
    grid = ["Max", "Olivia", "Alice", "Pam", "James", "Jo", "Chloé", "Arthur", "Edgar"]
    state = started(grid=grid, effects=["james"])
    assert_correct(state, {"type": "swap", "cells": [4, 5]})  # diagonal: still touching
    assert_error(state, {"type": "swap", "cells": [4, 7]}, "James and Olivia")
    grid = ["James", "Olivia", "Alice", "Pam", "Max", "Jo", "Chloé", "Arthur", "Edgar"]
    state = started(grid=grid, effects=["james"])
    assert_error(state, {"type": "swap", "cells": [1, 6]}, "James and Olivia")  # girlfriends, but Olivia leaves James


def test_jo_pushing_james_away_from_olivia_is_an_error():
    grid = ["Olivia", "Max", "Alice", "James", "Pam", "Jo", "Chloé", "Arthur", "Edgar"]
    state = started(grid=grid, effects=["james", "jo"])
    assert_error(state, {"type": "push", "cell": 5, "direction": "left"}, "James and Olivia")


@pytest.mark.parametrize(
    "move",
    [
        {"type": "swap", "cells": [0, 0]},
        {"type": "swap", "cells": [0, 9]},
        {"type": "swap"},
        {"type": "push", "cell": 5, "direction": "north"},
        {"type": "swap", "cells": [0, 1], "extra": 1},
        {"type": "photo", "rituals": {"dance": True}},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(move):
    from games.engines.base import IllegalMove

    state = started()
    with pytest.raises(IllegalMove):
        act(state, move)
