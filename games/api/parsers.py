"""The JSON request parser: DRF's, with a nesting limit.

Python's json module recurses once per level, and so do the validators and the JSON encoder that
see the data afterwards: a body of about a thousand nested brackets, small enough for the size
limit, would end in a RecursionError (a 500) somewhere. No request of this API nests deeper than a
few levels, so anything over MAX_DEPTH is refused as malformed before it is decoded.
"""

from __future__ import annotations

import codecs
import io
import re

from django.utils.translation import gettext

from rest_framework import parsers
from rest_framework.exceptions import ParseError

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
    """DRF's parser, given the body only once its nesting is known to be shallow enough."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read() if stream is not None else b""
        try:
            codec = codecs.lookup(parsers.get_encoding(parser_context or {}))
            text = raw if codec.name == "utf-8" else codec.decode(raw)[0].encode("utf-8")
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(gettext("JSON parse error - %(exc)s") % {"exc": exc}) from None
        if depth(text) > MAX_DEPTH:
            raise ParseError(
                gettext("JSON parse error - nested deeper than %(MAX_DEPTH)s levels") % {"MAX_DEPTH": MAX_DEPTH}
            )
        return super().parse(io.BytesIO(raw), media_type, parser_context)
