"""Trace one move's path over HTTP and print it (the measure is defined in
tests/move_trace.py). Runs against a throw-away test database:

    DATABASE_URL=... REDIS_URL=... .venv/bin/python scripts/trace_move.py
"""

import itertools
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from tests.move_trace import report, trace_move  # noqa: E402

_names = itertools.count()


class Player:
    def __init__(self):
        name = f"tracer{next(_names)}"
        self.client = APIClient()
        response = self.client.post(
            "/api/v1/accounts/register/",
            {"username": name, "password": "correct horse battery", "email": f"{name}@example.com"},
            format="json",
        )
        assert response.status_code == 201, response.content
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")


def main() -> None:
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    try:
        print(report(trace_move(Player)))
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
