"""A schema with nothing to say about its value's type (`{}`) is what a generator cannot use."""

from __future__ import annotations

TYPING = {"type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum"}
SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs")
SUBSCHEMAS = ("items", "additionalProperties", "contains")


def untyped(doc: dict) -> list[str]:
    """Pointers of schemas in the document that do not say what type their value has."""
    found: list[str] = []

    def schema(node, where):
        if not isinstance(node, dict):
            return
        combined = [k for k in ("anyOf", "oneOf", "allOf") if k in node]
        if not (TYPING & node.keys()):
            found.append(where)
        for key in SUBSCHEMA_MAPS:
            for name, sub in node.get(key, {}).items():
                schema(sub, f"{where}/{key}/{name}")
        for key in SUBSCHEMAS:
            if isinstance(node.get(key), dict):
                schema(node[key], f"{where}/{key}")
        for key in combined:
            for index, sub in enumerate(node[key]):
                # a member that only adds constraints (e.g. {"required": [...]}) is typed by its parent
                if set(sub) - {"required", "description"}:
                    schema(sub, f"{where}/{key}/{index}")

    def walk(node, where):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "schema":
                    schema(value, f"{where}/schema")
                else:
                    walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{where}/{index}")

    for name, component in doc["components"]["schemas"].items():
        schema(component, f"#/components/schemas/{name}")
    walk(doc["paths"], "#/paths")
    return found


def test_untyped_finds_an_untyped_property():
    doc = {
        "components": {"schemas": {"A": {"type": "object", "properties": {"x": {}, "y": {"type": "string"}}}}},
        "paths": {
            "/a/": {
                "get": {
                    "responses": {
                        "200": {
                            "content": {
                                "application/json": {"schema": {"type": "array", "items": {"description": "anything"}}}
                            }
                        }
                    }
                }
            }
        },
    }
    assert untyped(doc) == [
        "#/components/schemas/A/properties/x",
        "#/paths//a//get/responses/200/content/application/json/schema/items",
    ]
