"""The OpenAPI document (/api/v1/schema/): valid, every body typed, every kind's schemas as named
components, list envelopes as returned, error responses and headers documented."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from games.api.schema import kind_name
from games.play.kinds import all_kinds, get_engine
from tests.api.openapi import fetch_document
from tests.api.test_untyped import untyped

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def doc(django_db_blocker):
    with django_db_blocker.unblock():
        return fetch_document()


def operations(doc):
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_the_document_validates_with_openapi_spec_validator(doc):
    assert doc["openapi"].startswith("3.1")
    validate(doc)  # raises on any violation


def test_the_validator_catches_the_old_email_default(doc):
    """The check above can fail: the document as it was (an email default of '') is refused."""
    broken = {
        **doc,
        "components": {
            **doc["components"],
            "schemas": {
                **doc["components"]["schemas"],
                "RegisterInRequest": {
                    "type": "object",
                    "properties": {"email": {"type": "string", "format": "email", "default": ""}},
                },
            },
        },
    }
    with pytest.raises(OpenAPIValidationError, match="is not a 'email'"):
        validate(broken)


def test_no_schema_in_the_document_is_untyped(doc):
    assert untyped(doc) == []


def test_every_kind_has_its_move_view_event_and_options_components(doc):
    schemas = doc["components"]["schemas"]
    for kind in all_kinds():
        engine, name = get_engine(kind), kind_name(kind)
        assert schemas[f"{name}Move"]["oneOf" if "oneOf" in schemas[f"{name}Move"] else "type"]
        assert schemas[f"{name}View"]["type"] == "object"
        assert set(schemas[f"{name}Options"]["properties"]) >= set(engine.options_schema().get("properties", {}))
        for union in ("Move", "View", "Event", "Options"):
            assert {"$ref": f"#/components/schemas/{name}{union}"} in schemas[union]["anyOf"]


@pytest.mark.parametrize("kind", ["pickpic", "photograph", "provence"])
def test_product_games_have_precise_view_schemas(doc, kind):
    view = doc["components"]["schemas"][f"{kind_name(kind)}View"]
    assert view["additionalProperties"] is False and len(view["required"]) >= 10
    event = doc["components"]["schemas"][f"{kind_name(kind)}Event"]["allOf"][1]
    assert event["properties"]["type"]["enum"], "the kind's event types are listed"


def test_kind_typed_fields_refer_to_the_unions(doc):
    schemas = doc["components"]["schemas"]

    def refs(schema):
        return [s.get("$ref") for s in schema.get("anyOf", [schema])]

    assert "#/components/schemas/Move" in refs(schemas["MoveInRequest"]["properties"]["move"])
    assert "#/components/schemas/Move" in refs(schemas["LegalMovesOut"]["properties"]["moves"]["items"])
    for name in ("GameDetailOut", "MoveOut", "StateAtOut"):
        assert "#/components/schemas/View" in refs(schemas[name]["properties"]["state"]), name
    assert "#/components/schemas/Options" in refs(schemas["GameOut"]["properties"]["options"])
    # A game's result: a finished game's Result, or an aborted game's (docs/social.md).
    assert "#/components/schemas/GameResult" in refs(schemas["GameOut"]["properties"]["result"])
    assert refs(schemas["GameResult"]) == ["#/components/schemas/Result", "#/components/schemas/AbortedResult"]
    assert "#/components/schemas/Clocks" in refs(schemas["GameOut"]["properties"]["clocks"])
    assert "#/components/schemas/Event" in refs(schemas["EventsOut"]["properties"]["events"]["items"])
    assert "#/components/schemas/NotificationData" in refs(schemas["NotificationOut"]["properties"]["data"])


def response_schema(doc, path, method, status="200"):
    return doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]


def resolve(doc, schema):
    return doc["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema


@pytest.mark.parametrize("path, item", [("/api/v1/games/", "GameOut"), ("/api/v1/notifications/", "NotificationOut")])
def test_lists_are_documented_as_the_envelopes_they_return(doc, path, item):
    envelope = resolve(doc, response_schema(doc, path, "get"))
    assert {"count", "next", "previous", "results"} <= set(envelope["required"])
    assert envelope["properties"]["results"]["items"] == {"$ref": f"#/components/schemas/{item}"}
    assert doc["paths"][path]["get"]["operationId"] in ("games_list", "notifications_list")


@pytest.mark.parametrize(
    "path, method, status, fields",
    [
        ("/api/v1/accounts/vacation/", "get", "200", {"on_vacation", "until", "days_per_year", "days_left"}),
        ("/api/v1/accounts/vacation/", "post", "201", {"start", "end"}),
        ("/api/v1/games/{game_id}/mute/", "post", "200", {"muted"}),
        ("/api/v1/games/{game_id}/mute/", "delete", "200", {"muted"}),
        ("/api/v1/notifications/read-all/", "post", "200", {"marked", "unread"}),
        ("/api/v1/notifications/unread-count/", "get", "200", {"unread"}),
    ],
)
def test_the_six_operations_once_without_a_body_are_typed(doc, path, method, status, fields):
    schema = resolve(doc, response_schema(doc, path, method, status))
    assert set(schema["required"]) == fields


def test_every_operation_documents_its_errors_with_the_error_schema(doc):
    for path, method, operation in operations(doc):
        codes = {c for c in operation["responses"] if int(c) >= 400}
        assert {"401", "406", "429"} <= codes, (path, method)
        if method in ("post", "put", "patch"):
            assert {"400", "413", "415"} <= codes, (path, method)
        if "{" in path:
            assert "404" in codes, (path, method)
        for code in codes:
            body = operation["responses"][code]["content"]["application/json"]["schema"]
            assert body == {"$ref": "#/components/schemas/ErrorOut"}, (path, method, code)
        assert "Retry-After" in operation["responses"]["429"]["headers"]
    error = doc["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) == {"code", "detail"}


def test_headers_are_documented(doc):
    game = doc["paths"]["/api/v1/games/{game_id}/"]["get"]
    assert "ETag" in game["responses"]["200"]["headers"] and "ETag" in game["responses"]["304"]["headers"]
    assert any(p["name"] == "If-None-Match" and p["in"] == "header" for p in game["parameters"])
    move = doc["paths"]["/api/v1/games/{game_id}/moves/"]["post"]
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in move["parameters"])
    assert "Idempotent-Replayed" in move["responses"]["201"]["headers"]
