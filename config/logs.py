"""Structured logs: one JSON object per line, each with the request id that caused it.

A request's id comes from its `X-Request-ID` header (when it is a sane token) or is made up; it
goes back in the response's `X-Request-ID`, onto every log line written while the request runs,
and into the headers of every Celery task the request publishes, so the worker's lines for that
task carry the same id (`request_id`). Lines outside any request or task have `request_id` null.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import time
import uuid
from datetime import datetime, timezone


from config.middleware import HybridMiddleware

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
HEADER = "X-Request-ID"
TASK_HEADER = "request_id"
SANE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
# LogRecord's own attributes: anything else on a record came from `extra=` and is logged too.
_RESERVED = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "request_id"}

access_log = logging.getLogger("darkroom.access")


def new_id() -> str:
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id.get(),
        }
        for key, value in vars(record).items():
            if key not in _RESERVED and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class RequestIdMiddleware(HybridMiddleware):
    """Gives each request an id and writes one access line per request."""

    def before(self, request):
        given = request.headers.get(HEADER, "")
        request.request_id = given if SANE_ID.match(given) else new_id()
        return request_id.set(request.request_id), time.perf_counter()

    def after(self, request, response, state):
        response[HEADER] = request.request_id
        match = getattr(request, "resolver_match", None)
        status = response.status_code
        level = logging.ERROR if status >= 500 else logging.WARNING if status >= 400 else logging.INFO
        access_log.log(
            level,
            "%s %s %s",
            request.method,
            request.path,
            status,
            extra={
                "method": request.method,
                "path": request.path,
                "status": status,
                "route": match.route if match else None,
                "duration_ms": round((time.perf_counter() - state[1]) * 1000, 2),
            },
        )
        return response

    def done(self, state):
        request_id.reset(state[0])


# -- Celery: the id travels in the task's headers ---------------------------------------------
def _publishing(headers=None, **kwargs):
    rid = request_id.get()
    if rid is not None and headers is not None and TASK_HEADER not in headers:
        headers[TASK_HEADER] = rid


_task_tokens: dict[str, contextvars.Token] = {}


task_log = logging.getLogger("darkroom.tasks")


def _task_starts(task_id=None, task=None, **kwargs):
    rid = getattr(task.request, TASK_HEADER, None) if task is not None else None
    _task_tokens[task_id] = request_id.set(rid if isinstance(rid, str) and SANE_ID.match(rid) else None)
    task_log.info(
        "task %s started", getattr(task, "name", "?"), extra={"task": getattr(task, "name", None), "task_id": task_id}
    )


def _task_ends(task_id=None, **kwargs):
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        try:
            request_id.reset(token)
        except ValueError:  # set in another context (a thread pool): just clear it
            request_id.set(None)


def connect_celery() -> None:
    from celery import signals

    signals.before_task_publish.connect(_publishing, weak=False, dispatch_uid="darkroom-rid-publish")
    signals.task_prerun.connect(_task_starts, weak=False, dispatch_uid="darkroom-rid-prerun")
    signals.task_postrun.connect(_task_ends, weak=False, dispatch_uid="darkroom-rid-postrun")


def config(level: str, fmt: str) -> dict:
    """The LOGGING setting: JSON lines (`fmt` "json") or plain text for a terminal ("text")."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
        "formatters": {
            "json": {"()": "config.logs.JsonFormatter"},
            "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": "json" if fmt == "json" else "text",
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # The access line says it all; Django's own 4xx warnings would say it twice.
            "django.request": {"level": "ERROR"},
            "django.server": {"level": "WARNING"},
            # httpx logs each request's URL at INFO: for APNs that URL holds the device's token.
            # The delivery's attempt log records how each send went.
            "httpx": {"level": "WARNING"},
        },
    }
