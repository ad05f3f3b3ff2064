"""The OpenAPI document's typed parts that serializers cannot express: each kind's schemas as named
components, the shared shapes (results, clocks, events, notification data), and the error
responses every operation can give.

Built from `all_kinds()` at request time, so a new engine (or a test engine in EXTRA_ENGINES)
appears in the document with nothing to register: each kind contributes `<Kind>Move`,
`<Kind>View`, `<Kind>Event` and `<Kind>Options`, and `Move`, `View`, `Event`, `Options` are the
unions a field refers to. A client picks the member by the game's `kind`.
"""

from __future__ import annotations

import re
from typing import Any

from accounts.models import NotificationPreference
from games.play import store
from games.engines.base import SEAT_SCHEMA, Engine, nullable, result_schema
from games.play.kinds import all_kinds, get_engine
from games.play.options import schema_for

MARKER = "x-darkroom"
ERROR_REF = {"$ref": "#/components/schemas/ErrorOut"}

# The codes each status can carry (games.errors, accounts.services, games.api.errors).
ERROR_CODES = {
    400: "invalid / malformed / illegal_move / unavailable_move / bad_credentials",
    401: "not_authenticated / authentication_failed (a missing or unknown token)",
    403: "forbidden / not_a_player / not_your_seat",
    404: "not_found",
    406: "not_acceptable (ask for application/json)",
    409: "version_conflict / not_your_turn / game_not_active / game_not_open / game_full / "
    "already_joined / wrong_player_count / username_taken / not_yet / invitation_closed / "
    "already_exists / game_not_finished",
    413: "too_large (the request body is over the size limit)",
    415: "unsupported_media_type (send application/json)",
    422: "idempotency_mismatch (the Idempotency-Key was used for another request)",
    429: "throttled (see Retry-After)",
    503: "unavailable (the database is unreachable for now; see Retry-After)",
}
RETRY_AFTER = {
    "Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer", "minimum": 1}}
}
WITH_BODY = {"post", "put", "patch", "delete"}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def kind_name(kind: str) -> str:
    """`pickpic` -> `Pickpic`, `my_game` -> `MyGame`: the prefix of a kind's components."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", kind) if part)


def _untitled(schema: Any) -> Any:
    """An engine's schema without the titles of its inner parts: generators name classes after
    titles, and two kinds may both call a move "play"."""
    if isinstance(schema, dict):
        return {k: _untitled(v) for k, v in schema.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_untitled(v) for v in schema]
    return schema


CLOCKS: dict[str, Any] = {
    "type": "object",
    "required": ["control", "seats"],
    "description": "per-seat time controls; null when the game has none",
    "properties": {
        "control": {"type": "string", "enum": ["per_move", "bank"]},
        "seats": {
            "type": "object",
            "propertyNames": {"pattern": "^[0-9]+$"},
            "description": "seat number (as a string) -> its clock",
            "additionalProperties": {
                "type": "object",
                "required": ["left", "since", "allowance", "reminded"],
                "properties": {
                    "left": {"type": "number", "description": "seconds left when `since` was set"},
                    "since": nullable(
                        {"type": "string", "format": "date-time", "description": "running since (null: stopped)"}
                    ),
                    "allowance": {"type": "number"},
                    "reminded": {"type": "boolean"},
                },
            },
        },
    },
}
NOTIFICATION_DATA: dict[str, Any] = {
    "type": "object",
    "description": "what the notification is about; which fields depend on its "
    "`type`: your_turn {version}, reminder {seat, deadline}, "
    "timed_out {seat, policy, deadline}, dispute {dispute, seq, "
    "status, outcome, resolution, rolled_back_to}, finished {result}, chat {message, channel}, invitation "
    "{rematch}, abort_vote {seat}, tournament {tournament, event (registered, "
    "round, bye, over, cancelled), round, table, rank}, ladder {ladder, event (challenged, won, lost, "
    "declined), challenge}; game and kind "
    "when about a game",
    "properties": {
        "game": {"type": "string", "format": "uuid"},
        "kind": {"type": "string"},
        "version": {"type": "integer"},
        "seat": SEAT_SCHEMA,
        "deadline": {"type": "string", "format": "date-time"},
        "policy": nullable({"type": "string", "enum": ["auto_move", "forfeit"]}),
        "dispute": {"type": "integer"},
        "seq": {"type": "integer"},
        "status": {"type": "string"},
        "outcome": {
            "type": "string",
            "description": "a dispute's outcome in words, e.g. \"Your dispute was "
            'upheld; the game was rolled back to before move 7."',
        },
        "resolution": {"type": "string", "description": "staff's message to the players, with a decision"},
        "rolled_back_to": nullable({"type": "integer", "description": "a rollback's last kept event"}),
        "result": ref("GameResult"),
        "message": {"type": "integer"},
        "channel": {"type": "string"},
        "rematch": {"type": "boolean"},
        "tournament": {"type": "string", "format": "uuid"},
        "event": {
            "type": "string",
            "enum": ["registered", "round", "bye", "over", "cancelled", "challenged", "won", "lost", "declined"],
        },
        "ladder": {"type": "string", "description": "a ladder's kind"},
        "challenge": {"type": "integer"},
        "round": {"type": "integer", "minimum": 1},
        "table": {"type": "integer", "minimum": 1},
        "rank": {"type": "integer", "minimum": 1},
    },
}
ABORTED_RESULT: dict[str, Any] = {
    "type": "object",
    "required": ["aborted", "reason"],
    "description": "an aborted game's result: it counts for nobody (docs/social.md)",
    "properties": {"aborted": {"const": True}, "reason": {"type": "string"}},
}
EVENT_COMMON: dict[str, Any] = {
    "type": "object",
    "required": ["seq", "type", "actor", "created_at"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "type": {"type": "string"},
        "actor": nullable(SEAT_SCHEMA),
        "created_at": {"type": "string", "format": "date-time"},
        "auto": {"type": "boolean", "description": "played by the server for the seat"},
    },
}
SERVER_EVENT: dict[str, Any] = {
    "type": "object",
    "required": ["seq", "type", "actor", "created_at", "data"],
    "description": "written by the server, the same for every kind",
    "properties": {
        **EVENT_COMMON["properties"],
        "type": {"type": "string", "enum": sorted(store.SERVER_TYPES)},
        "data": {
            "type": "object",
            "additionalProperties": True,
            "description": "the event's public facts (by `type`: docs/api.md)",
        },
    },
}
SHARED: dict[str, Any] = {
    # Named members: a generated client makes one class per member (inline ones it may not).
    "Result": {
        **result_schema(),
        "description": "the outcome: one list entry per seat; `breakdown` items as the kind's view shows them",
    },
    "AbortedResult": ABORTED_RESULT,
    "GameResult": {
        "anyOf": [ref("Result"), ref("AbortedResult")],
        "description": "a finished game's `Result`, or an aborted game's `AbortedResult`",
    },
    "Clocks": CLOCKS,
    "NotificationData": NOTIFICATION_DATA,
    # A JSON Schema is an open object (any keyword may appear): free-form, not an empty one.
    "JsonSchema": {"type": "object", "additionalProperties": True, "description": "a JSON Schema (draft 2020-12)"},
    "FieldErrors": {
        "type": "object",
        "description": "field -> its problems; a nested object's field -> its own FieldErrors",
        "additionalProperties": {"anyOf": [{"type": "array", "items": {"type": "string"}}, ref("FieldErrors")]},
    },
    "Channels": {
        "type": "object",
        "description": "notification type -> the channels it goes to",
        "propertyNames": {"enum": list(NotificationPreference.TYPES)},
        "additionalProperties": {
            "type": "array",
            "items": {"type": "string", "enum": list(NotificationPreference.CHANNELS)},
        },
    },
    "EventCommon": EVENT_COMMON,
    "ServerEvent": SERVER_EVENT,
}


def _moves(name: str, schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`<Kind>Move`, and each move type as a component of its own (`PickpicMoveGive`) when the
    schema is a oneOf over types: one named class per move in a generated client."""
    members = schema.get("oneOf")
    types = [m.get("properties", {}).get("type", {}).get("const") for m in members or []]
    if not members or not all(isinstance(t, str) for t in types) or len(set(types)) < len(types):
        return {f"{name}Move": schema}
    out = {f"{name}Move{kind_name(t)}": member for t, member in zip(types, members)}
    rest = {k: v for k, v in schema.items() if k != "oneOf"}
    return {**out, f"{name}Move": {**rest, "oneOf": [ref(n) for n in out]}}


def kind_components() -> dict[str, dict[str, Any]]:
    components: dict[str, dict[str, Any]] = {}
    kinds = all_kinds()
    engines = {kind_name(kind): get_engine(kind) for kind in kinds}
    for name, engine in engines.items():
        components.update(_moves(name, _untitled(engine.move_schema())))
        components[f"{name}View"] = _untitled(engine.view_schema())
        components[f"{name}Event"] = {"allOf": [ref("EventCommon"), _untitled(engine.event_schema())]}
        components[f"{name}Options"] = schema_for(engine)
    unions = {
        "Move": ("a move of the game's kind", "move_schema"),
        "View": ("the game as the caller may see it", "view_schema"),
        "Event": ("a log entry: a server event or a move's", "event_schema"),
        "Options": ("the options of the game's kind", "options_schema"),
    }
    for union, (text, method) in unions.items():
        # Kinds with schemas of their own first: a client that tries the members in order (as
        # generated ones do) must not stop at a kind whose default schema takes any object.
        ordered = sorted(engines, key=lambda n: getattr(type(engines[n]), method) is getattr(Engine, method))
        members = [ref(f"{n}{union}") for n in ordered]
        if union == "Event":
            members = [ref("ServerEvent"), *members]
        components[union] = {"anyOf": members, "description": f"{text}: the `<Kind>{union}` of the game's `kind`"}
    return components


def _resolve_markers(node: Any) -> Any:
    if isinstance(node, dict):
        if MARKER in node:
            rest = {k: v for k, v in node.items() if k not in (MARKER, "type")}
            if "null" in node.get("type", []):
                return {"anyOf": [ref(node[MARKER]), {"type": "null"}], **rest}
            return {**ref(node[MARKER]), **rest}
        return {k: _resolve_markers(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve_markers(v) for v in node]
    return node


def _error_response(status: int, existing: dict[str, Any] | None) -> dict[str, Any]:
    out = {"description": ERROR_CODES.get(status, "error"), "content": {"application/json": {"schema": ERROR_REF}}}
    if existing and existing.get("description"):
        out["description"] = existing["description"]
    if status in (429, 503):
        out["headers"] = RETRY_AFTER
    return out


def _add_errors(path: str, method: str, operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    statuses = {401, 406, 429, 503}
    if method in WITH_BODY:
        statuses |= {400, 413, 415}
    if any(p.get("in") == "query" for p in operation.get("parameters", [])):
        statuses.add(400)
    if "{" in path:
        statuses.add(404)
    statuses |= {int(code) for code in responses if str(code).isdigit() and int(code) >= 400}
    for status in sorted(statuses):
        responses[str(status)] = _error_response(status, responses.get(str(status)))


def postprocess(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular hook: the kinds' components, typed JSON fields, every error response."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(SHARED)
    schemas.update(kind_components())
    create = schemas.get("CreateGameInRequest", {}).get("properties", {}).get("kind")
    if create is not None:
        create["enum"] = all_kinds()
    result["components"]["schemas"] = _resolve_markers(schemas)
    result["paths"] = _resolve_markers(result.get("paths", {}))
    for path, item in result["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                _add_errors(path, method, operation)
                for parameter in operation.get("parameters", []):
                    if parameter["name"] == "kind":
                        parameter["schema"] = {"type": "string", "enum": all_kinds()}
    return result
