"""The web client's catalogs read without a JavaScript engine: web/static/web/i18n/<language>.js
and web/static/web/rules/<language>.js are `export default { ... };` of strings, arrays and
objects, with `//` comments (the subset of JavaScript docs/web.md tells translators to keep to)."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web" / "static" / "web"
TOKEN = re.compile(
    r"""\s+|//[^\n]*|(?P<string>"(?:[^"\\\n]|\\.)*")|(?P<name>[A-Za-z_$][\w$-]*)|(?P<punct>[{}\[\]:,;])"""
)


def tokens(text: str):
    at = 0
    while at < len(text):
        match = TOKEN.match(text, at)
        if not match:
            raise ValueError(f"not in the catalog format at {text[at : at + 40]!r}")
        at = match.end()
        if match.lastgroup:
            yield match.lastgroup, match.group(match.lastgroup)


def parse(text: str):
    """The value after `export default`: dicts, lists and strings."""
    items = list(tokens(text))
    if [v for _, v in items[:2]] != ["export", "default"]:
        raise ValueError("a catalog starts with `export default`")
    value, at = _value(items, 2)
    if items[at:] not in ([], [("punct", ";")]):
        raise ValueError(f"after the catalog: {items[at : at + 3]}")
    return value


def _value(items, at):
    kind, text = items[at]
    if kind == "string":
        return json.loads(text), at + 1
    if text == "{":
        out, at = {}, at + 1
        while items[at][1] != "}":
            key_kind, key = items[at]
            key = json.loads(key) if key_kind == "string" else key
            if items[at + 1][1] != ":":
                raise ValueError(f"no ':' after {key!r}")
            if key in out:
                raise ValueError(f"{key!r} twice")
            out[key], at = _value(items, at + 2)
            if items[at][1] == ",":
                at += 1
        return out, at + 1
    if text == "[":
        out, at = [], at + 1
        while items[at][1] != "]":
            item, at = _value(items, at)
            out.append(item)
            if items[at][1] == ",":
                at += 1
        return out, at + 1
    raise ValueError(f"unexpected {text!r}")


def catalog(language: str) -> dict:
    return parse((WEB / "i18n" / f"{language}.js").read_text(encoding="utf-8"))


def rules(language: str) -> dict:
    if language == "en":
        text = (WEB / "rules.js").read_text(encoding="utf-8")
        body = text[text.index("export const RULES = {") :].replace("export const RULES =", "export default", 1)
        return parse(body)
    return parse((WEB / "rules" / f"{language}.js").read_text(encoding="utf-8"))


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def placeholders(message) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}
