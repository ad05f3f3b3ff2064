"""config/jsoncodec.py: orjson where it writes what json would, json where it would not."""

import datetime
import decimal
import json
import uuid

import pytest

from config import jsoncodec


def test_it_writes_what_the_json_module_reads_back_as_the_same_value():
    value = {
        "reel": [1, 2, 3],
        "sunset": None,
        "done": [True, False],
        "score": 2.5,
        "name": "Zoë ✓",
        "nested": {"layout": [[1, 2], [3]]},
    }
    assert json.loads(jsoncodec.dumps(value)) == value
    assert jsoncodec.loads(jsoncodec.dumps(value)) == value


def test_int_keys_become_strings_as_with_json():
    assert json.loads(jsoncodec.dumps({1: "a", 2: "b"})) == json.loads(json.dumps({1: "a", 2: "b"}))


def test_datetimes_and_uuids_are_written_as_isoformat_and_str_write_them():
    at = datetime.datetime(2026, 12, 1, 16, 31, 39, 339929, tzinfo=datetime.UTC)
    on_the_second = at.replace(microsecond=0)
    game = uuid.uuid4()
    assert json.loads(jsoncodec.dumps([at, on_the_second, game])) == [
        at.isoformat(),
        on_the_second.isoformat(),
        str(game),
    ]


def test_an_int_beyond_64_bits_is_written_whole_by_the_json_module():
    big = 2**70 + 1
    assert json.loads(jsoncodec.dumps({"n": big})) == {"n": big}


def test_what_default_cannot_write_raises_its_own_error():
    def default(value):
        if isinstance(value, decimal.Decimal):
            return str(value)
        raise TypeError(f"{type(value).__name__} is not JSON")

    assert json.loads(jsoncodec.dumps([decimal.Decimal("1.50")], default=default)) == ["1.50"]
    with pytest.raises(TypeError, match="object is not JSON"):
        jsoncodec.dumps([object()], default=default)


def test_text_it_cannot_read_is_a_value_error():
    with pytest.raises(ValueError):
        jsoncodec.loads(b"{not json")
