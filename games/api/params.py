"""Query parameters read strictly: a value the document does not allow is a 400, never ignored
(DRF's LimitOffsetPagination quietly falls back to its defaults on `limit=abc`)."""

from __future__ import annotations

import re

from django.utils.translation import gettext

from rest_framework.pagination import LimitOffsetPagination

from games.errors import Invalid

TRUE, FALSE = {"true", "1", "yes"}, {"false", "0", "no"}
MAX_PAGE = 1000
MAX_OFFSET = 10**9  # PostgreSQL's OFFSET is a bigint: a larger one must not reach it
# ASCII digits only: int() also takes " 3\n" and "٣", which no document calls an integer.
WHOLE = re.compile(r"^-?[0-9]+$")


def single(request, name: str) -> str | None:
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise Invalid(gettext("%(name)s is given more than once") % {"name": name})
    return values[0] if values else None


def flag(request, name: str) -> bool:
    raw = single(request, name)
    if raw is None or raw.lower() in FALSE:
        return False
    if raw.lower() in TRUE:
        return True
    raise Invalid(gettext("%(name)s must be true or false") % {"name": name})


def whole(request, name: str, default: int, low: int, high: int | None = None) -> int:
    raw = single(request, name)
    if raw is None:
        return default
    try:
        if not WHOLE.match(raw):
            raise ValueError(raw)
        value = int(raw)
    except ValueError:  # also past Python's 4300-digit limit
        raise Invalid(gettext("%(name)s must be a whole number") % {"name": name}) from None
    if value < low or (high is not None and value > high):
        raise Invalid(
            gettext("%(name)s must be from %(low)s to %(high)s") % {"name": name, "low": low, "high": high}
            if high is not None
            else gettext("%(name)s must be at least %(low)s") % {"name": name, "low": low}
        )
    return value


class Pagination(LimitOffsetPagination):
    max_limit = MAX_PAGE

    def get_limit(self, request):
        return whole(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request):
        return whole(request, self.offset_query_param, 0, 0, MAX_OFFSET)


def page_parameters():
    """The two paging parameters, with their bounds, for @extend_schema."""
    from drf_spectacular.utils import OpenApiParameter

    return [
        OpenApiParameter(
            "limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}, description="page size (default 50)"
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}),
    ]
