"""The JSON renderer: DRF's output, written by orjson (config.jsoncodec).

The same bytes as DRF's JSONRenderer with this project's settings (compact, UTF-8, U+2028 and
U+2029 escaped for script embedding), and DRF's own formatting for what orjson would write its
own way (datetimes end in Z with milliseconds, as DRF's encoder writes them). A client that asks
for an indented body (`Accept: application/json; indent=2`) gets DRF's renderer.
"""

from __future__ import annotations

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

from config import jsoncodec

_default = JSONEncoder().default


def json_bytes(data) -> bytes:
    """`data` as DRF's JSONRenderer writes it (compact, UTF-8): the API's bodies and the streams'
    events."""
    body = jsoncodec.dumps(data, default=_default, options=orjson.OPT_PASSTHROUGH_DATETIME)
    if b"\xe2\x80\xa8" in body or b"\xe2\x80\xa9" in body:
        body = body.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
    return body


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        return json_bytes(data)
