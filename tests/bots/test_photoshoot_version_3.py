"""Photoshoot's bots under rules version 3, which turn on who is still at the table: "the player
after" skips a forfeited seat (Olivia's slap, Max's stroke) and the stroke is owed by one seat.
A bot judges and plays from its seat's view, so the view carries what the rules turn on (the
seats that left, whether the latest action's player owed the stroke) and the bots' imagined
table follows it: the Control team's bots challenge only what broke a rule, and a photographer
bot takes the moves the rules allow."""

from __future__ import annotations

import pytest

from games import bots, engines
from games.bots import Budget, arena
from games.engines.photoshoot import effects as fx
from games.engines.photoshoot import grid as g
from games.engines.photoshoot import objectives as obj
from tests.engines.photoshoot.helpers import ROW_MAJOR, act, started

SMALL = Budget(iterations=12, width=3)
ENGINE = engines.get("photoshoot")
OLIVIA, MAX, OTHER = [1, 4], [0, 3], [7, 8]  # moves Olivia; moves Max; moves neither


def _after(state, seat, move):
    """(state, log) once `seat` has played `move`, as the bots read them."""
    step = ENGINE.play(state, seat, move, arena.T0)
    return step.state, [
        {"seq": 1, "type": step.event_type, "actor": seat, "data": {"move": move, "record": step.record}}
    ]


def _control_choices(state, events, seats=(1, 3, 5)):
    """What every control seat's bot does about the latest action, at every level."""
    chosen = set()
    for seat in seats:
        for level in bots.LEVELS:
            move = bots.decide(
                "photoshoot",
                level,
                seat=seat,
                options={},
                rules_version=3,
                seed=f"c{seat}",
                budget=SMALL,
                **arena.bot_inputs(ENGINE, state, events, seat),
            )
            chosen.add((move or {"type": None})["type"])
    return chosen


def test_control_bots_judge_olivia_s_slap_against_the_next_seat_that_plays():
    """Olivia: "slap the hand of the player after them". With seat 2 gone, seat 0's slap of
    seat 4 (who plays next) is right and the bots let it stand; a slap of seat 2 is caught."""
    state = ENGINE.forfeit(started(6, effects=["olivia-slap"]), 2)
    right = _after(state, 0, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 4}})
    assert right[0]["last"]["faults"] == []
    assert _control_choices(*right) == {"pass"}
    wrong = _after(state, 0, {"type": "swap", "cells": OLIVIA, "rituals": {"slap": 2}})
    assert wrong[0]["last"]["faults"]
    assert _control_choices(*wrong) == {"challenge"}


def test_control_bots_judge_max_s_stroke_by_the_seat_that_owed_it():
    """Max: "the next player must stroke his tile before playing". A photographer alone in its
    team (its teammate left) is its own next player: its first move of Max owes nothing, and
    the bots let it stand, though the table now says the seat owes the stroke; its next action
    without the stroke is caught."""
    state = ENGINE.forfeit(started(4, effects=["max-stroke"]), 2)
    first = _after(state, 0, {"type": "swap", "cells": MAX})
    assert first[0]["last"]["faults"] == [] and first[0]["stroke_due"] == 0
    assert _control_choices(*first, seats=(1, 3)) == {"pass"}
    forgot = _after(
        act(first[0], {"type": "swap", "cells": MAX, "rituals": {"stroke": True}}), 0, {"type": "swap", "cells": OTHER}
    )
    assert forgot[0]["last"]["faults"]
    assert _control_choices(*forgot, seats=(1, 3)) == {"challenge"}


def _olivia_objective():
    """An objective the square ROW_MAJOR is one movement from improving, and only by moving
    Olivia: the best a photographer can do is a move the slap goes with."""
    for card in range(obj.COUNT):
        best: dict[int, list] = {}
        for movement in fx.correct_movements(ROW_MAJOR, []):
            after = g.swap(ROW_MAJOR, movement[1], movement[2])
            best.setdefault(obj.placed(after, card), []).append(set(movement[1:]))
        top = max(best)
        if (
            top > obj.placed(ROW_MAJOR, card)
            and not obj.matches(ROW_MAJOR, card)
            and all(1 in cells for cells in best[top])
        ):
            return card
    raise AssertionError("no objective only Olivia's move improves")


@pytest.mark.parametrize("level", [2, 3])
def test_photographer_bots_move_olivia_and_slap_the_next_seat_that_plays(level):
    state = ENGINE.forfeit(started(6, effects=["olivia-slap"], objective=_olivia_objective()), 2)
    move = bots.decide(
        "photoshoot",
        level,
        seat=0,
        options={},
        rules_version=3,
        seed="p",
        budget=SMALL,
        **arena.bot_inputs(ENGINE, state, [], 0),
    )
    assert 1 in move["cells"] and move["rituals"]["slap"] == 4
    assert ENGINE.play(state, 0, move, arena.T0).state["last"]["faults"] == []
