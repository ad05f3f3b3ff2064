"""The one place errors become HTTP: every 4xx body is {"code", "detail"} (plus context)."""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response

from config.middleware import HybridMiddleware

from games.errors import DomainError

DRF_CODES = {
    exceptions.ParseError: "malformed",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
}


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("request body too large")
    default_code = "too_large"


def _flatten(detail, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [
            m
            for key, value in detail.items()
            for m in _flatten(value, f"{prefix}{key}: " if key != "non_field_errors" else prefix)
        ]
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [f"{prefix}{detail}"]


# While the database is unreachable (down, restarting, the pool out of connections) a request
# gets this, not a 500 with a traceback; the next request after it is back is served as usual.
UNAVAILABLE_RETRY_SECONDS = 5


def unavailable() -> Response:
    return Response(
        {
            "code": "unavailable",
            "detail": gettext("the database is unavailable; try again shortly"),
            "retry_after": UNAVAILABLE_RETRY_SECONDS,
        },
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(UNAVAILABLE_RETRY_SECONDS)},
    )


def exception_handler(exc, context):
    if isinstance(exc, (OperationalError, InterfaceError)):
        return unavailable()
    if isinstance(exc, DomainError):
        retry = exc.extra.get("retry_after")
        return Response(
            {"code": exc.code, "detail": str(exc.detail), **exc.extra},
            status=exc.status,
            headers={"Retry-After": str(retry)} if retry is not None else None,
        )
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(gettext("request body over the size limit"))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.ValidationError):
        return Response(
            {
                "code": "invalid",
                "detail": "; ".join(_flatten(exc.detail)),
                "fields": exc.detail if isinstance(exc.detail, dict) else None,
            },
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, exceptions.APIException):
        code = DRF_CODES.get(type(exc), getattr(exc, "default_code", "error"))
        body = {"code": code, "detail": str(exc.detail)}
        headers = {}
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            headers["Retry-After"] = str(int(exc.wait) + 1)
            body["retry_after"] = int(exc.wait) + 1
        elif getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        return Response(body, status=exc.status_code, headers=headers)
    return None


# ---------------------------------------------------------------------------------------------
# Errors outside DRF's views: unknown routes, Django's own 400/403/500, and the debug pages.
# ---------------------------------------------------------------------------------------------
PLAIN = {
    400: ("malformed", gettext_lazy("bad request")),
    403: ("forbidden", gettext_lazy("forbidden")),
    404: ("not_found", gettext_lazy("no such resource")),
    405: ("method_not_allowed", gettext_lazy("method not allowed")),
    413: ("too_large", gettext_lazy("request body over the size limit")),
    500: ("server_error", gettext_lazy("internal server error: the error was logged")),
}
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "ETag", "Content-Language", "Vary")


def json_error(status_code: int, code: str | None = None, detail: str | None = None) -> JsonResponse:
    default_code, default_detail = PLAIN.get(status_code, ("error", gettext_lazy("error")))
    return JsonResponse({"code": code or default_code, "detail": str(detail or default_detail)}, status=status_code)


def bad_request(request, exception=None):
    return json_error(400)


def permission_denied(request, exception=None):
    if request.path.startswith(reverse("admin:index")):
        # The admin's pages are HTML for people: the refusal says which permission is missing.
        detail = str(exception or "") or gettext("This page needs a permission your account does not have.")
        return render(
            request,
            "admin/403.html",
            {**admin.site.each_context(request), "detail": detail, "title": gettext("Not allowed")},
            status=403,
        )
    return json_error(403)


def not_found(request, exception=None):
    return json_error(404)


def server_error(request):
    return json_error(500)


class JsonErrorsMiddleware(HybridMiddleware):
    """Every error answer is {"code", "detail"} JSON, DJANGO_DEBUG on or off.

    handler404/handler500 cover production; with DEBUG on Django answers unknown routes and
    uncaught exceptions with its HTML debug pages instead (after logging them as usual), and the
    browsable API renders errors as HTML for browsers. This rewrites those answers; the admin
    keeps its HTML pages."""

    def after(self, request, response, state):
        if (
            response.status_code < 400
            or request.path.startswith("/admin/")
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        data = getattr(response, "data", None)
        if isinstance(data, dict) and "code" in data:
            replaced = JsonResponse(data, status=response.status_code)
        else:
            replaced = json_error(response.status_code)
        for header in KEPT_HEADERS:
            if header in response:
                replaced[header] = response[header]
        return replaced
