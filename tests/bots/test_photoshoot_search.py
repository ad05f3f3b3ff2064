"""Photoshoot's level-3 photographer under a small CPU budget: it never undoes the action before
(no swap straight back, the way a team of bots used to swap two cells for a whole game), and when
its budget runs out it plays level 2's choice, never worse. (Strength is measured by
`make bots-strength`; these check behaviour.)"""

from __future__ import annotations

import random
from datetime import timedelta

from games import bots, engines
from games.bots import Budget, arena
from games.engines.photoshoot import objectives as obj

MOVEMENTS = ("swap", "push")


def _straight_back(view, move) -> bool:
    """The move swaps back the two cells the latest action (still standing) just swapped."""
    last = view.get("last_action")
    return bool(
        move
        and move["type"] == "swap"
        and last
        and last["kind"] == "swap"
        and last["status"] != "challenged"
        and sorted(last["cells"]) == sorted(move["cells"])
    )


def test_a_level_3_team_at_a_20_ms_budget_validates_objectives_and_never_swaps_straight_back():
    backs, actions = [], []

    def bot(kind, level, **seen):
        move = bots.decide(kind, level, **seen)
        if move and move["type"] in MOVEMENTS:
            actions.append(move)
            if _straight_back(seen["view"], move):
                backs.append((seen["seat"], move))
        return move

    outcome = arena.play(
        "photoshoot", [3, 3], "small-budget", {"hourglass_seconds": 30}, budget=Budget(seconds=0.02), bot=bot
    )
    assert len(actions) > 100
    assert backs == []
    # Bots never err (no token drawn), so the team's score is 2 per validated objective.
    assert outcome["team_scores"][0] >= 4, outcome


def _positions(players: int = 2, count: int = 25):
    """Positions of a real cooperative game, the photographer to act, none where one movement
    completes the objective (there any level takes that movement)."""
    engine = engines.get("photoshoot")
    state = engine.setup(players, {}, "positions")
    chooser = random.Random(3)
    clock, events, found = arena.T0, [], []
    while len(found) < count:
        clock += timedelta(seconds=1)
        active = sorted(engine.active_players(state))
        seat = active[0]
        legal = engine.legal_moves(state, seat)
        if state["phase"] == "round":
            afters = [engine.play(state, seat, m, clock).state for m in legal if m["type"] in MOVEMENTS]
            if not any(obj.matches(s["grid"], s["objective"]) for s in afters if s.get("objective")):
                found.append((state, list(events), seat))
        move = chooser.choice([m for m in legal if m["type"] in MOVEMENTS] or legal)
        step = engine.play(state, seat, move, clock)
        events.append(
            {
                "seq": len(events) + 1,
                "type": step.event_type,
                "actor": seat,
                "data": {"move": move, "record": step.record},
                "fresh": True,
            }
        )
        state = step.state
    return engine, found


def test_when_its_budget_runs_out_level_3_plays_level_2_s_choice():
    engine, positions = _positions()
    for state, events, seat in positions:
        seen = arena.bot_inputs(engine, state, events, seat)
        common = dict(seat=seat, options={}, rules_version=engine.rules_version, seed="budget", **seen)
        spent = bots.decide("photoshoot", 3, budget=Budget(seconds=0.0), **common)
        assert spent == bots.decide("photoshoot", 2, **common)
        assert not _straight_back(seen["view"], spent)
