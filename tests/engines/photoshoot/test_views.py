"""Hidden information: the table is public, the piles' order is not, and nobody learns whether an
action was an error before a challenge (or the cooperative referee) judges it."""

import copy
import json
import random

import pytest
from jsonschema import Draft202012Validator

from games.engines.photoshoot import ENGINE
from tests.engines.contract import T0, play_random_game
from tests.engines.photoshoot.helpers import act, started

SEATS = [None, 0, 1, 2, 3]


def everything_seen(state, players=4):
    return json.dumps([ENGINE.view(state, v) for v in [None, *range(players)]], sort_keys=True)


def reshuffled(state, seed):
    other = copy.deepcopy(state)
    chooser = random.Random(seed)
    chooser.shuffle(other["objective_pile"])
    for pile in other["piles"].values():
        chooser.shuffle(pile)
    if other["last"]:
        chooser.shuffle(other["last"]["before"]["objective_pile"])
    return other


@pytest.mark.parametrize("players", [3, 6])
def test_the_order_of_the_objective_and_effect_piles_never_changes_what_anyone_sees(players):
    def check(before, event, after):
        described = json.dumps([ENGINE.describe(event, v) for v in [None, *range(players)]])
        for pile, run in ((after["objective_pile"], 3), *((p, 2) for p in after["piles"].values())):
            if len(pile) >= run:
                assert json.dumps(pile[-run:])[1:-1] not in described, "a pile's order leaked in the log"
        if event["seq"] % 4:
            return
        seen = everything_seen(after, players)
        assert seen == everything_seen(reshuffled(after, event["seq"]), players)
        assert after["_seed"] not in seen

    play_random_game(ENGINE, players, f"piles-{players}", on_step=check)


def test_views_show_pile_sizes_not_cards():
    view = ENGINE.view(started(), 0)
    assert view["objective_pile_size"] == 49 and view["effect_piles"] == {"blue": 10, "orange": 4}
    assert 'objective_pile"' not in json.dumps(view) and '"piles"' not in json.dumps(view)


def test_whether_an_action_was_an_error_is_not_shown_before_a_challenge():
    state = started()
    error = act(state, {"type": "swap", "cells": [0, 8]})
    correct = act(state, {"type": "swap", "cells": [0, 1]})
    assert error["last"]["faults"] and not correct["last"]["faults"]
    forged = copy.deepcopy(error)
    forged["last"]["faults"] = []
    assert everything_seen(forged) == everything_seen(error)
    for seat in SEATS:
        view = ENGINE.view(error, seat)
        assert set(view["last_action"]) == set(ENGINE.view(correct, seat)["last_action"])
        assert "faults" not in view["last_action"] and "before" not in view["last_action"]
        assert view["challengeable"] == 1


def test_the_records_of_an_error_and_of_a_correct_action_look_alike():
    state = started()
    records = []
    for cells in ([0, 8], [0, 1]):
        result = ENGINE.play(state, 0, {"type": "swap", "cells": cells}, T0)
        assert result.event_type == "CharactersSwapped"
        records.append(result.record)
        event = {"seq": 9, "type": result.event_type, "actor": 0, "data": {"move": {}, "record": result.record}}
        for seat in SEATS:
            described = json.dumps(ENGINE.describe(event, seat))
            assert "fault" not in described and "error" not in described
    assert set(records[0]) == set(records[1])


def test_after_a_challenge_the_verdict_is_public():
    from tests.engines.photoshoot.helpers import challenge

    result = challenge(act(started(), {"type": "swap", "cells": [0, 8]}))
    assert result.record["error"] is True and result.record["faults"]
    assert ENGINE.view(result.state, None)["last_action"]["status"] == "challenged"


def test_every_view_keeps_the_view_schema_and_every_legal_move_the_move_schema():
    views = Draft202012Validator(ENGINE.view_schema())
    moves = Draft202012Validator(ENGINE.move_schema())

    def check(before, event, after):
        if event["seq"] % 7 and after["phase"] != "over":
            return
        for seat in (None, 0, 1):
            errors = list(views.iter_errors(ENGINE.view(after, seat)))
            assert not errors, errors[0].message
        for seat in ENGINE.active_players(after):
            for move in ENGINE.legal_moves(after, seat):
                assert moves.is_valid(move), move

    play_random_game(ENGINE, 5, "schemas", on_step=check)


def refusals_written_in(path):
    """The message of every `Refusal("...")` a module of the package writes."""
    import ast

    tree = ast.parse(path.read_text(), filename=str(path))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Refusal"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_every_fault_the_rules_can_find_is_known_to_the_descriptions():
    """A verdict's faults are recorded as English text; the descriptions find each one's message
    again so that the server can say it in the reader's language: none may be missing."""
    from pathlib import Path

    from games.engines.photoshoot import challenges

    package = Path(challenges.__file__).parent
    written = set().union(*(refusals_written_in(path) for path in package.glob("*.py")))
    assert written and written <= set(challenges.FAULTS)


def test_a_recorded_verdict_is_described_with_its_messages_and_its_english_unchanged():
    from games.engines.base import Refusal
    from tests.golden.test_golden import HERE

    recorded = 0
    for path in sorted((HERE / "photoshoot").glob("*.json")):
        for event in json.loads(path.read_text())["events"]:
            record = (event.get("data") or {}).get("record")
            if not isinstance(record, dict) or not record.get("faults"):
                continue
            faults = ENGINE.describe({**event, "fresh": False}, None)["record"]["faults"]
            assert faults == record["faults"]  # the same English, word for word
            assert all(type(fault) is Refusal for fault in faults), (path.name, record["faults"])
            recorded += len(faults)
    assert recorded > 100


def test_a_fault_with_arguments_is_read_back_with_them():
    from games.engines.base import Refusal
    from games.engines.photoshoot.challenges import read_faults

    wave, phrase, unknown = read_faults(
        ["seats [1, 3] did not join the Mexican wave", 'Max moved without "Ouistiti !"', "a fault of another time"]
    )
    assert (wave.template, wave.args) == ("seats %(seats)s did not join the Mexican wave", {"seats": [1, 3]})
    assert (phrase.template, phrase.args) == (
        '%(character)s moved without "%(phrase)s"',
        {"character": "Max", "phrase": "Ouistiti !"},
    )
    assert type(unknown) is str and not isinstance(unknown, Refusal)
