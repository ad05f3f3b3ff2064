"""The move vocabulary: the published JSON Schema accepts every listed move."""

import jsonschema

from games.engines.provence import ENGINE
from tests.engines.provence.test_engine import first_moves


def test_every_legal_move_matches_the_move_schema():
    schema = ENGINE.move_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    state = ENGINE.setup(3, {}, "schema")
    for move in ENGINE.legal_moves(state, 0)[::25]:
        jsonschema.validate(move, schema)
    state = first_moves(state).state
    for move in ENGINE.legal_moves(state, 0)[::10]:
        jsonschema.validate(move, schema)


def test_the_schema_rejects_junk():
    schema = ENGINE.move_schema()
    for bad in (
        {"type": "place", "card": "s01", "x": 0, "y": 0, "rotation": 45},
        {"type": "walk", "photographer": [1]},
        {"type": "walk", "fly": True},
        {"type": "dance"},
    ):
        assert not jsonschema.Draft202012Validator(schema).is_valid(bad)


def test_options_schema_has_no_options():
    schema = ENGINE.options_schema()
    assert schema["type"] == "object" and schema["properties"] == {}
    assert schema["additionalProperties"] is False


def test_move_types_follow_the_phase():
    state = ENGINE.setup(2, {}, "types")
    assert ENGINE.move_types(state, 0) == {"place"}
    assert ENGINE.move_types(state, None) == set()
    state = first_moves(state).state
    assert ENGINE.move_types(state, 1) == {"walk"}
