"""While the database is unreachable the API answers 503 {"code": "unavailable", ...} with
Retry-After, never a 500 with a traceback. The real outage, a private PostgreSQL
stopped under a live server, is tests/faults; here the mapping, on a read and a write."""

import pytest
from django.db import InterfaceError, OperationalError

from games.play import access

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("error", [OperationalError("connection refused"), InterfaceError("connection already closed")])
def test_a_database_that_cannot_be_reached_is_a_503_with_retry_after(alice, duel, monkeypatch, error):
    def unreachable(*args, **kwargs):
        raise error

    monkeypatch.setattr(access, "get_game", unreachable)
    for answer in (alice.get(f"/api/v1/games/{duel}/"), alice.post(f"/api/v1/games/{duel}/resign/")):
        assert answer.status_code == 503
        assert answer.json() == {
            "code": "unavailable",
            "detail": "the database is unavailable; try again shortly",
            "retry_after": 5,
        }
        assert answer["Retry-After"] == "5"


def test_every_operation_documents_the_503(alice):
    document = alice.get("/api/v1/schema/", format="json")
    paths = document.json()["paths"] if document["Content-Type"].startswith("application/json") else None
    if paths is None:
        import yaml

        paths = yaml.safe_load(document.content)["paths"]
    operations = [op for item in paths.values() for op in item.values() if isinstance(op, dict) and "responses" in op]
    assert operations and all("503" in op["responses"] for op in operations)
