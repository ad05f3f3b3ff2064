"""The served OpenAPI document as a test sees it: fetched from /api/v1/schema/ and used to
validate real responses with jsonschema (its schemas are JSON Schema 2020-12: OpenAPI 3.1)."""

from __future__ import annotations

import json
import re

from django.test import Client
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOC_URI = "urn:darkroom:openapi"


def fetch_document() -> dict:
    response = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content)


def request_bodies(doc: dict):
    """(method, path, media type, schema) of every request body the document declares."""
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for media_type, content in operation.get("requestBody", {}).get("content", {}).items():
                yield method, path, media_type, content["schema"]


class Contract:
    def __init__(self, doc: dict):
        self.doc = doc
        resource = Resource.from_contents(doc, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(DOC_URI, resource)
        self._validators: dict[str, Draft202012Validator] = {}

    def validator(self, pointer: str) -> Draft202012Validator:
        if pointer not in self._validators:
            self._validators[pointer] = Draft202012Validator(
                {"$ref": f"{DOC_URI}#{pointer}"},
                registry=self.registry,
                format_checker=Draft202012Validator.FORMAT_CHECKER,
            )
        return self._validators[pointer]

    def component(self, name: str) -> Draft202012Validator:
        return self.validator(f"/components/schemas/{name}")

    def operation(self, path: str, method: str) -> tuple[str, dict]:
        """The documented path template matching a concrete path, and its operation."""
        for template, item in self.doc["paths"].items():
            pattern = "^" + "[^/]+".join(map(re.escape, re.split(r"\{[^}]+\}", template))) + "$"
            if re.match(pattern, path) and method in item:
                return template, item[method]
        raise AssertionError(f"{method.upper()} {path} is not in the document")

    def check_response(self, method: str, path: str, response) -> None:
        """The response's status is documented for the operation and its body has the schema."""
        template, operation = self.operation(path.split("?")[0], method.lower())
        status = str(response.status_code)
        assert status in operation["responses"], f"{method} {template}: {status} is undocumented"
        documented = operation["responses"][status]
        if "content" not in documented:
            assert not response.content, f"{method} {template} {status}: documented without a body"
            return
        escaped = template.replace("~", "~0").replace("/", "~1")
        pointer = f"/paths/{escaped}/{method.lower()}/responses/{status}/content/application~1json/schema"
        errors = sorted(self.validator(pointer).iter_errors(response.json()), key=lambda e: e.path)
        assert not errors, f"{method} {template} {status}: " + "; ".join(
            f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]
        )
