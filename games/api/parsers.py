"""The JSON request parser: DRF's, with a nesting limit.

Python's json module recurses once per level, and so do the validators and the JSON encoder that
see the data afterwards: a body of about a thousand nested brackets, small enough for the size
limit, would end in a RecursionError (a 500) somewhere. No request of this API nests deeper than a
few levels, so anything over MAX_DEPTH is refused as malformed before it is decoded.

A NUL character (`\u0000`) is valid JSON but cannot be stored: PostgreSQL's text and jsonb refuse
it, so a string with one that reached the database (a Pick Pic comment, say) was a 500. It is
refused here too, once for every endpoint.
"""
from __future__ import annotations

import codecs
import re

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

MAX_DEPTH = 64
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in `raw` (JSON text), brackets in strings aside."""
    deepest = level = 0
    for bracket in _BRACKET.findall(_STRING.sub(b"", raw)):
        level += 1 if bracket in (b"[", b"{") else -1
        deepest = max(deepest, level)
    return deepest


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        raw = stream.read() if stream is not None else b""
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if depth(text.encode("utf-8")) > MAX_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels")
        try:
            data = json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if has_nul(data):
            raise ParseError("JSON parse error - strings may not contain NUL (\\u0000)")
        return data


def has_nul(data) -> bool:
    if isinstance(data, str):
        return "\x00" in data
    if isinstance(data, dict):
        return any(has_nul(k) or has_nul(v) for k, v in data.items())
    if isinstance(data, list):
        return any(has_nul(v) for v in data)
    return False
