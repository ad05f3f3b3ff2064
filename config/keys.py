"""This deployment's names in Redis: every key and channel goes under the cache's key prefix, so
test runs (and deployments sharing a Redis) keep to their own channels, claims and keys."""

from __future__ import annotations

from django.conf import settings


def deployment_key(*parts) -> str:
    return ":".join([settings.CACHES["default"].get("KEY_PREFIX", "darkroom"), *map(str, parts)])
