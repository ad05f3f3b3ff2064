"""JSON in and out of the server's own stores and responses, by orjson.

Python's json module was a fifth of the web server's instructions on the move loop (callgrind:
the response bodies, the state cache entries, the event rows sent to PostgreSQL and the jsonb
columns read back). orjson does the same work several times faster and writes the same text for
what the server stores: str keys (int keys become strings, as with json), aware datetimes as
`isoformat()` writes them, UUIDs as `str()`.

Where orjson would differ it is not used: an int beyond 64 bits, which it refuses to write, goes
to the json module; a request body is still parsed by the json module (games.api.parsers), since
orjson reads an int beyond 64 bits as a float and a client may send one. What the server reads
back with `loads` it wrote itself, through `dumps`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any, default: Callable[[Any], Any] | None = None, options: int = 0) -> bytes:
    """`value` as UTF-8 JSON text, compact. `options`: orjson's, besides string keys."""
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS | options)
    except orjson.JSONEncodeError:
        # An int beyond 64 bits, which orjson refuses: the json module writes every int (and
        # raises `default`'s own error for what neither can write).
        return json.dumps(value, default=default, separators=(",", ":"), ensure_ascii=False).encode()


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    return orjson.loads(text)
