"""games/api/renderers.py: orjson writes the bodies DRF's JSONRenderer would write, byte for byte."""

import datetime
import decimal
import uuid

import pytest
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer as DRFRenderer

from games.api.renderers import JSONRenderer

AT = datetime.datetime(2026, 12, 1, 16, 31, 39, 339929, tzinfo=datetime.UTC)

BODIES = [
    {"id": uuid.UUID("06bd7816-0227-4df6-a1ae-4893089325de"), "created_at": AT, "finished_at": None},
    {
        "on_the_second": AT.replace(microsecond=0),
        "day": AT.date(),
        "at": datetime.time(16, 31, 39, 339929),
        "span": datetime.timedelta(seconds=90),
    },
    [{"seat": 0, "gifts": {"1": [27, 35], "2": [49, 66]}}, {"scores": [0, 12, 3], "left": 259200.0}],
    {"detail": gettext_lazy("Not found."), "price": decimal.Decimal("1.50")},
    {"name": "Zoë ✓ 写真", "line": "a\u2028b\u2029c", "quote": 'say "cheese"\n'},
    {"clocks": {0: {"left": 1.5}, 1: {"left": 0.0}}},
    [],
    {"nested": [[[1]]], "flags": [True, False]},
]


@pytest.mark.parametrize("body", BODIES)
def test_the_body_is_the_one_drf_writes(body):
    assert JSONRenderer().render(body, "application/json") == DRFRenderer().render(body, "application/json")


def test_no_data_is_an_empty_body():
    assert JSONRenderer().render(None, "application/json") == b""


def test_an_indented_body_is_drf_own():
    body = {"a": [1, 2]}
    context = {"indent": 2}
    assert JSONRenderer().render(body, "application/json; indent=2", context) == DRFRenderer().render(
        body, "application/json; indent=2", context
    )
    assert b"\n  " in JSONRenderer().render(body, "application/json; indent=2", context)


def test_the_api_answers_through_it(client):
    response = client.get("/api/v1/kinds/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert isinstance(response.accepted_renderer, JSONRenderer)
    assert response.content == DRFRenderer().render(response.data, "application/json")
