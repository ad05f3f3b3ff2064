"""The typed errors every app raises, with stable codes: accounts and games both raise them, and one
handler (games.api.errors) maps every DomainError to HTTP, so every client sees `{"code", "detail"}`
with the same status for the same cause. Games' own errors (games.errors) extend DomainError."""

from __future__ import annotations


class DomainError(Exception):
    status = 400
    code = "invalid"

    def __init__(self, detail: str, **extra):
        super().__init__(detail)
        self.detail = detail
        self.extra = extra


class Invalid(DomainError):
    status, code = 400, "invalid"


class Forbidden(DomainError):
    status, code = 403, "forbidden"


class NotFound(DomainError):
    status, code = 404, "not_found"


class EndpointTaken(DomainError):
    """A push endpoint another account holds, asked for without the browser's own keys."""

    status, code = 409, "push_endpoint_taken"
