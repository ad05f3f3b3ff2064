"""The one place errors become HTTP: every 4xx body is {"code", "detail"} (plus context)."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied, RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

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
    default_detail = "request body too large"
    default_code = "too_large"


def _flatten(detail, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [m for key, value in detail.items()
                for m in _flatten(value, f"{prefix}{key}: " if key != "non_field_errors" else prefix)]
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [f"{prefix}{detail}"]


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        retry = exc.extra.get("retry_after")
        return Response({"code": exc.code, "detail": exc.detail, **exc.extra}, status=exc.status,
                        headers={"Retry-After": str(retry)} if retry is not None else None)
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge("request body over the size limit")
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.ValidationError):
        return Response({"code": "invalid", "detail": "; ".join(_flatten(exc.detail)),
                         "fields": exc.detail if isinstance(exc.detail, dict) else None},
                        status=status.HTTP_400_BAD_REQUEST)
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
