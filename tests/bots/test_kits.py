"""What the game kits know: Walking in Provence's judgement of a move, which level 3 searches
from, and Photoshoot's imagined table, which must play the game's own rules version.
(Strength is measured by `make bots-strength`, never asserted here.)"""

from __future__ import annotations

import copy
import itertools
import random
from datetime import timedelta

import pytest

from games import bots, engines
from games.bots import Budget, arena
from games.bots.kinds import kit_for, margin
from games.bots.kinds import pickpic as pickpic_kit
from games.bots.kinds import provence as provence_kit
from games.bots.search import Seat
from games.engines.base import EngineError
from games.engines.pickpic import moves as pickpic_moves
from games.engines.provence import cards, layout, photos, scoring


def provence_positions(phase: str, count: int = 3):
    """Seeded Walking in Provence positions in `phase`, a few rounds in, with seat 0 to move."""
    engine = engines.get("provence")
    found = []
    for game in range(count):
        state = engine.setup(2, {}, f"kits-{game}")
        chooser = random.Random(game)
        while not (state["phase"] == phase and state["round"] >= 3 + game):
            for seat in sorted(engine.active_players(state)):
                state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)), arena.T0)
        found.append(state)
    return engine, found


def reference(state: dict, seat: int, move: dict) -> float:
    """The judgement worked out the long way: the move played onto a copy of the seat's own
    landscape, the engine's final scoring of the table, and every photo the tokens then frame
    counted at its next spot."""
    table = copy.deepcopy(state)
    land = table["landscapes"][seat]
    if move["type"] == "place":
        layout.place(land, move["card"], move["x"], move["y"], move["rotation"], move["under"])
    else:
        land.update({t: move[t] for t in ("photographer", "drone") if t in move})
    scores, _, _ = scoring.final(table)
    grid = layout.visible(land)
    framed = 0
    for photo in table["photos"]:
        if seat not in photos.holders(photo) and photos.completed(grid, land, photo["card"]):
            framed += cards.PHOTO[photo["card"]]["spots"][photos.award(copy.deepcopy(photo), [seat])]
    return margin(scores, seat) + framed


@pytest.mark.parametrize("phase", ["scene", "walking"])
def test_provence_judges_each_move_as_the_engine_would_score_it(phase):
    engine, states = provence_positions(phase)
    for state in states:
        view = engine.view(state, 0)
        legal = engine.legal_moves(state, 0)
        sample = random.Random(phase).sample(legal, min(40, len(legal)))
        judged = provence_kit.judge(view, 0, sample)
        assert judged == [reference(state, 0, move) for move in sample]


def test_provence_level_3_plays_its_best_judged_move_unless_the_search_is_sure():
    """Level 2 judges a random few moves on imagined games; level 3 judges every move and keeps
    the best unless its play-outs show another better beyond their noise. With one play-out per
    move it can never be sure, so it plays the best-judged move: no move level 2 finds is
    judged better."""
    engine, states = provence_positions("scene")
    for n, state in enumerate(states):
        view, legal = engine.view(state, 0), engine.legal_moves(state, 0)
        judged = provence_kit.judge(view, 0, legal)
        inputs = dict(seat=0, view=view, legal=legal, log=[], options={}, rules_version=None, seed=f"s{n}")
        level3 = bots.decide("provence", 3, budget=Budget(iterations=3, width=3), **inputs)
        assert judged[legal.index(level3)] == max(judged)


def test_provence_play_outs_play_the_judged_best_of_a_sample():
    engine, states = provence_positions("scene")
    state = states[0]
    me = Seat(
        engine=engine,
        kit=kit_for("provence"),
        seat=0,
        view=engine.view(state, 0),
        legal=engine.legal_moves(state, 0),
        log=[],
        options={},
    )
    moves = engine.legal_moves(state, 1)
    for seed in range(20):
        chosen = me.kit.playout(me, state, 1, moves, random.Random(seed))
        sample = random.Random(seed)
        if sample.random() < provence_kit.PLAYOUT_EPSILON:
            continue  # now and then a move at random, to keep play-outs varied
        tried = sample.sample(moves, provence_kit.PLAYOUT_SAMPLE)
        values = provence_kit.judge(state, 1, tried, goals=False)
        assert provence_kit.judge(state, 1, [chosen], goals=False)[0] == max(values)


@pytest.mark.parametrize("players", [2, 4])
def test_photoshoot_imagined_table_plays_the_games_rules_version(players):
    """Rules version 2 declares rituals with the action (`answered`): an imagined table left on
    version 1 refused every such action, and the level-3 photographer, seeing one playable move,
    swapped two characters back and forth all game."""
    engine = engines.get("photoshoot")
    assert engine.rules_version >= 2
    state = engine.setup(players, {}, "kits-imagined")
    clock = arena.T0
    while not any(
        m["type"] in ("swap", "push") for s in engine.active_players(state) for m in engine.legal_moves(state, s)
    ):
        seat = min(engine.active_players(state))
        clock += timedelta(seconds=1)
        state = engine.apply(state, seat, engine.legal_moves(state, seat)[0], clock)
    seat = next(
        s
        for s in sorted(engine.active_players(state))
        if any(m["type"] in ("swap", "push") for m in engine.legal_moves(state, s))
    )
    legal = engine.legal_moves(state, seat)
    me = Seat(
        engine=engine,
        kit=kit_for("photoshoot"),
        seat=seat,
        view=engine.view(state, seat),
        legal=legal,
        log=[],
        options={},
    )
    world = me.imagine(random.Random(0))
    for move in legal:
        if move["type"] not in ("swap", "push", "photo"):
            continue
        try:
            real = engine.play(state, seat, move, clock + timedelta(seconds=1))
        except EngineError:
            continue
        imagined = engine.play(world, seat, move, clock + timedelta(seconds=1))
        assert imagined.event_type == real.event_type
        assert imagined.state["grid"] == real.state["grid"]


# --- Pick Pic -------------------------------------------------------------------------------
WATERFALL, KITCHEN, SUNFLOWERS = 9, 7, 18  # Frozen Waterfall, Grandmother's Kitchen, Sunflower Field
ICY = [114, 79, 108]  # Glacier Cave, Icebergs in a Fjord, Polar Bear on Drifting Ice
CLASSROOM, BOOTS = 28, 90  # Empty Classroom (memory, like the kitchen), Worn Hiking Boots


def pickpic_rank_inputs(stack: list[int], table=(WATERFALL, KITCHEN, SUNFLOWERS)) -> dict:
    """Seat 0 of 3 about to rank `stack` (four gifts and the random card) under `table`."""
    view = {
        "phase": "rank",
        "active": [0, 1, 2],
        "players": 3,
        "round": 1,
        "target": 20,
        "comments": False,
        "cards_per_gift": 2,
        "scores": [0, 0, 0],
        "deck_size": 80,
        "discard_size": 0,
        "table": list(table),
        "done": [False, False, False],
        "last_round": None,
        "result": None,
        "you": {"seat": 0, "gifts": {"1": [1, 2], "2": [3, 4]}, "stack": list(stack)},
    }
    legal = [{"type": "rank", "order": list(o)} for o in itertools.permutations(stack)]
    return {"seat": 0, "view": view, "legal": legal, "log": [], "options": {}, "rules_version": None}


@pytest.mark.parametrize("level", [2, 3])
def test_pickpic_ranks_a_clearly_unfitting_card_last(level):
    """Icy pictures under a frozen waterfall, and a busy restaurant kitchen: the kitchen is the
    card nobody would have chosen, so both thinking levels rank it last."""
    kitchen_rush = 101
    stack = [ICY[0], kitchen_rush, ICY[1], 76, ICY[2]]  # 76: Snowman in a Garden
    move = bots.decide("pickpic", level, seed="s", budget=Budget(iterations=40), **pickpic_rank_inputs(stack))
    assert move["order"][-1] == kitchen_rush


def test_pickpic_level_3_weighs_who_would_have_given_a_card():
    """The classroom fits the waterfall a little better than the hiking boots do, so level 2
    ranks the boots last. But a player holding the classroom would have given it to the kitchen
    (a memory), or kept it from the sunflowers no more than the boots: it is the likelier random
    card, and level 3 ranks it last."""
    fit = pickpic_kit.fit
    assert fit(CLASSROOM, WATERFALL) > fit(BOOTS, WATERFALL)
    assert fit(CLASSROOM, KITCHEN) > fit(CLASSROOM, WATERFALL) + 0.1
    stack = [ICY[0], CLASSROOM, ICY[1], BOOTS, ICY[2]]
    inputs = pickpic_rank_inputs(stack)
    odds = pickpic_kit.random_odds(inputs["view"], 0)
    assert sum(odds.values()) == pytest.approx(1.0)
    assert max(odds, key=odds.get) == CLASSROOM
    assert all(odds[c] < odds[BOOTS] for c in ICY)
    level2 = bots.decide("pickpic", 2, seed="s", **inputs)
    level3 = bots.decide("pickpic", 3, seed="s", budget=Budget(iterations=40), **inputs)
    assert level2["order"][-1] == BOOTS
    assert level3["order"][-1] == CLASSROOM


def test_pickpic_random_odds_read_only_the_view():
    """The same view gives the same odds, whoever asks and whatever was asked before."""
    stack = [ICY[0], CLASSROOM, ICY[1], BOOTS, ICY[2]]
    first = pickpic_kit.random_odds(pickpic_rank_inputs(stack)["view"], 0)
    pickpic_kit._odds.cache_clear()
    pickpic_kit.random_odds(pickpic_rank_inputs(list(reversed(stack)))["view"], 0)
    assert pickpic_kit.random_odds(pickpic_rank_inputs(stack)["view"], 0) == first


def test_pickpic_level_3_gives_each_player_the_cards_of_its_picture():
    """Two icy pictures and two homely ones, for a frozen waterfall and a grandmother's kitchen.
    (A few play-outs cannot tell the splits apart beyond their noise: 300 can.)"""
    hand = [ICY[0], 49, ICY[1], 55]  # 49: Hands Kneading Bread, 55: Morning Coffee Steam
    view = {
        "phase": "give",
        "active": [0, 1, 2],
        "players": 3,
        "round": 1,
        "target": 20,
        "comments": False,
        "cards_per_gift": 2,
        "scores": [0, 0, 0],
        "deck_size": 90,
        "discard_size": 0,
        "table": [SUNFLOWERS, WATERFALL, KITCHEN],
        "done": [False, False, False],
        "last_round": None,
        "result": None,
        "you": {"seat": 0, "hand": hand},
    }
    legal = pickpic_moves.give_moves(3, 0, hand)
    move = bots.decide(
        "pickpic",
        3,
        seat=0,
        view=view,
        legal=legal,
        log=[],
        options={},
        rules_version=None,
        seed="s",
        budget=Budget(iterations=300),
    )
    assert sorted(move["gifts"]["1"]) == sorted(ICY[:2])
    assert sorted(move["gifts"]["2"]) == [49, 55]
