"""Strings in request bodies must be JSON strings.

The API document types these fields as strings, and its clients are generated from it; DRF's
CharField accepts a number too and turns it into text (12 becomes "12"), so a body the document
calls invalid was taken (the fuzzer found a registration whose password was a number). Applied
once at start (config.apps) to CharField itself, so every string field of every request body has
it: EmailField, RegexField, SlugField, URLField, a list's strings. Query parameters are text
anyway; responses are not parsed.
"""
from __future__ import annotations

from rest_framework import fields


def _strict(lenient):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return lenient(self, data)

    to_internal_value.lenient = lenient
    return to_internal_value


def apply() -> None:
    if not hasattr(fields.CharField.to_internal_value, "lenient"):
        fields.CharField.to_internal_value = _strict(fields.CharField.to_internal_value)
