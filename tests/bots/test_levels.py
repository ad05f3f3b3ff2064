"""Bots play whole games legally at every level, and Photoshoot's Control team challenges only
on evidence. (Strength is measured by `make bots-strength`, never asserted here.)"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games import bots
from games import engines
from games.bots import Budget, arena

SMALL = Budget(iterations=12, width=3)


@pytest.mark.parametrize(
    "kind, levels",
    [
        ("photograph", (3, 2)),
        ("photograph", (1, 2, 1)),
        ("provence", (2, 1)),
        ("pickpic", (3, 2, 1)),
        ("pickpic", (1, 1, 2, 2)),
        ("photoshoot", (2, 2)),
        ("photoshoot", (3, 1, 3, 1)),
    ],
)
def test_bots_of_every_level_play_a_whole_game_to_its_end(kind, levels):
    outcome = arena.play(kind, levels, f"levels-{kind}-{len(levels)}", budget=SMALL, tick=3.0)
    # (a cooperative Photoshoot team below the target has no winner: the outcome still stands)
    assert outcome is not None and len(outcome["places"]) == len(levels)


@pytest.mark.parametrize("kind, players", [("photograph", 2), ("provence", 3), ("pickpic", 3), ("photoshoot", 4)])
def test_every_level_answers_with_one_of_the_legal_moves(kind, players):
    engine = engines.get(kind)
    state = engine.setup(players, {}, f"legal-{kind}")
    chooser = random.Random(kind)
    for index in range(6):
        active = sorted(engine.active_players(state))
        seat = chooser.choice(active)
        legal = engine.legal_moves(state, seat)
        for level in bots.LEVELS:
            move = bots.decide(
                kind,
                level,
                seat=seat,
                view=engine.view(state, seat),
                legal=legal,
                log=[],
                options={},
                rules_version=None,
                seed="s",
                budget=SMALL,
            )
            # None: a Photoshoot controller with nothing to challenge lets its chance pass
            assert move in legal or (move is None and {m["type"] for m in legal} == {"challenge"})
        state = engine.apply(state, seat, chooser.choice(legal), arena.T0 + timedelta(seconds=index))


def test_a_level_the_bots_do_not_have_is_refused():
    with pytest.raises(bots.BotError):
        bots.decide(
            "pickpic", 4, seat=0, view={}, legal=[{"type": "give"}], log=[], options={}, rules_version=None, seed="s"
        )


@pytest.mark.parametrize("version", [1, 2, 3])
@pytest.mark.parametrize("level", bots.LEVELS)
def test_photoshoot_control_bots_challenge_only_actions_that_broke_a_rule(level, version):
    """Level-1 photographers err often; the Control team's bots, at any level, challenge only
    when the table shows the error, so every challenge they make is upheld."""
    engine = engines.get("photoshoot", version)
    state = engine.setup(4, {}, "evidence")
    events: list[dict] = []
    challenges = errors_left = 0
    chooser = random.Random(level)
    clock = arena.T0
    for _ in range(3000):
        if engine.is_over(state) or challenges >= 4:
            break
        actor = move = None
        for seat in sorted(engine.active_players(state)):
            team = next(t for t, seats in enumerate(state["teams"]) if seat in seats)
            mine = level if team != state["photographers"] else 1
            seen = arena.bot_inputs(engine, state, events, seat)
            move = bots.decide(
                "photoshoot", mine, seat=seat, options={}, rules_version=version, seed=f"b{seat}", budget=SMALL, **seen
            )
            if move is not None:
                actor = seat
                break
        if actor is None:
            due = min(engine.deadlines(state), key=lambda d: d.at)
            move, clock = due.move, max(clock, due.at)
        else:
            clock += timedelta(seconds=2)
        last = state.get("last")
        if last and last["status"] == "open" and last["faults"] and move.get("type") != "challenge":
            errors_left += 1
        step = engine.play(state, actor, move, clock)
        if step.event_type == "ActionChallenged":
            assert step.record["error"], f"a challenge without evidence: {step.record}"
            challenges += 1
        events.append(
            {
                "seq": len(events) + 1,
                "type": step.event_type,
                "actor": actor,
                "data": {"move": move, "record": step.record},
            }
        )
        state = step.state
        chooser.random()
    assert challenges >= 2, "the photographers' errors were there to catch"


def test_level_3_ranks_only_the_moves_it_had_time_for_before_searching():
    """A level-3 move's CPU budget covers its ranking of level 2's candidates (Photograph's
    sunset lists many): once the ranking's share is spent, only the moves scored so far are
    ranked, always at least one, so the search still has a move to play."""
    from games.bots.kinds import kit_for
    from games.bots.search import Seat, scored_moves

    engine = engines.get("photograph")
    state = engine.setup(2, {}, "ranking-cut")
    seat = min(engine.active_players(state))
    me = Seat(
        engine=engine,
        kit=kit_for("photograph"),
        seat=seat,
        view=engine.view(state, seat),
        legal=engine.legal_moves(state, seat),
        log=[],
        options={},
    )
    everything = scored_moves(me, random.Random(1), samples=2, cap=90)
    spent = scored_moves(me, random.Random(1), samples=2, cap=90, until=0.0)
    assert len(everything) > 1
    assert len(spent) == 1 and spent[0][2] in me.legal


# Before the hourglass, Arthur beside Max: one swap mends the square. With James away from Olivia
# as well, no single swap does, and the photographer mends again.
ARTHUR_BY_MAX = ["Max", "Arthur", "Alice", "Pam", "Edgar", "Jo", "Chloé", "Olivia", "James"]
BOTH_AT_FAULT = ["Max", "Arthur", "Alice", "Pam", "Edgar", "Jo", "Olivia", "Chloé", "James"]


@pytest.mark.parametrize(
    "grid, effects",
    [(ARTHUR_BY_MAX, ["arthur", "edgar-smile"]), (BOTH_AT_FAULT, ["arthur", "james", "pam-wave"])],
    ids=["one-move", "several-moves"],
)
@pytest.mark.parametrize("level", bots.LEVELS)
def test_photoshoot_bots_mend_the_square_at_the_ready_step_with_legal_mends(level, grid, effects):
    """Rules version 2: a mend is a move with its rituals, refused when it breaks a rule or
    leaves a square one move could have mended; a bot photographer mends with one of the mends
    the engine offers, and the round starts once the square is mended."""
    engine = engines.get("photoshoot", 2)
    state = engine.setup(4, {}, "mending")
    state["grid"], state["effects"][0] = list(grid), list(effects)
    for seat in (0, 2, 1):
        state = engine.apply(state, seat, {"type": "ready"}, arena.T0)
    events: list[dict] = []
    for mends in range(1, 4):
        assert engine.view(state, None)["mending"] is True
        seen = arena.bot_inputs(engine, state, events, 0)
        move = bots.decide(
            "photoshoot", level, seat=0, options={}, rules_version=2, seed="mender", budget=SMALL, **seen
        )
        assert move in seen["legal"] and move["type"] == "mend"
        step = engine.play(state, 0, move, arena.T0 + timedelta(seconds=mends))
        events.append(
            {"seq": len(events) + 1, "type": step.event_type, "actor": 0, "data": {"move": move, "record": step.record}}
        )
        state = step.state
        if state["phase"] == "round":
            break
    assert state["phase"] == "round" and engine.view(state, None)["turn"] == 0
    assert mends == (1 if grid is ARTHUR_BY_MAX else 2)
