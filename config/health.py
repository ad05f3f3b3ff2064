"""Probes: `/healthz` (liveness: the process answers) and `/readyz` (readiness: PostgreSQL and
Redis answer, and every migration is applied).

Both are answered by a middleware placed first, before host validation, HTTPS redirects and
authentication, so a load balancer or Docker's HEALTHCHECK may call them by IP over plain HTTP.
They touch nothing but the checks: no session, no database write, no log line per probe.

`/readyz` says which check failed, and how, only to a caller on loopback (the container's own
HEALTHCHECK, a sidecar) that came through no proxy, or one with the metrics token: error text
names hosts and versions, which are nobody else's business. Anyone else gets the status alone.
"""

from __future__ import annotations

import time
from typing import Callable

from django.conf import settings
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse

from config.metrics import has_token
from config.middleware import HybridMiddleware

TIMEOUT_SECONDS = 2
LOOPBACK = {"127.0.0.1", "::1"}
PATHS = {"/healthz", "/healthz/", "/readyz", "/readyz/"}
_migrated = False  # once every migration is applied, it stays so for the life of the process


def _database() -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")


def _redis(url: str) -> None:
    from config import redis as redis_roles

    client = redis_roles.probe(url, TIMEOUT_SECONDS)
    try:
        client.ping()
    finally:
        client.close()


def _migrations() -> None:
    global _migrated
    if _migrated:
        return
    connection = connections["default"]
    executor = MigrationExecutor(connection)
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if pending:
        names = ", ".join(f"{m.app_label}.{m.name}" for m, _ in pending[:5])
        raise RuntimeError(f"{len(pending)} migration(s) not applied: {names}")
    _migrated = True


def checks() -> dict[str, Callable[[], None]]:
    found = {
        "database": _database,
        "migrations": _migrations,
        "redis": lambda: _redis(settings.CACHES["default"]["LOCATION"]),
    }
    if settings.CELERY_BROKER_URL != settings.CACHES["default"]["LOCATION"]:
        found["broker"] = lambda: _redis(settings.CELERY_BROKER_URL)
    return found


def readiness() -> tuple[bool, dict]:
    results = {}
    for name, check in checks().items():
        started = time.perf_counter()
        try:
            check()
            results[name] = {"ok": True}
        except Exception as error:  # any failure means "not ready": report it, never raise
            detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            results[name] = {"ok": False, "detail": f"{type(error).__name__}: {detail}"[:300]}
            if name == "database":
                connections["default"].close_if_unusable_or_obsolete()
        results[name]["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return all(r["ok"] for r in results.values()), results


class ProbeMiddleware(HybridMiddleware):
    def answers(self, request):
        return request.path in PATHS

    def answer(self, request):  # the readiness checks touch the database: a thread under ASGI
        if request.path in ("/healthz", "/healthz/"):
            return JsonResponse({"status": "ok"})
        ready, results = readiness()
        if not may_see_detail(request):
            if not ready:
                return JsonResponse({"status": "unavailable", "code": "not_ready", "detail": "not ready"}, status=503)
            return JsonResponse({"status": "ok"})
        if not ready:
            return JsonResponse(
                {
                    "status": "unavailable",
                    "code": "not_ready",
                    "detail": "; ".join(f"{k}: {v['detail']}" for k, v in results.items() if not v["ok"]),
                    "checks": results,
                },
                status=503,
            )
        return JsonResponse({"status": "ok", "checks": results})


def may_see_detail(request) -> bool:
    """The metrics token, or a loopback peer with no forwarding header (a proxy on the same host
    connects from loopback too, but says whom it forwards)."""
    if has_token(request):
        return True
    forwarded = "HTTP_X_FORWARDED_FOR" in request.META or "HTTP_FORWARDED" in request.META
    return request.META.get("REMOTE_ADDR") in LOOPBACK and not forwarded
