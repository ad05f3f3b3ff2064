"""Probes: /healthz says the process lives; /readyz says PostgreSQL, Redis and the migrations are
ready, and answers 503 with the failing check when one is not (a private Redis, stopped)."""

import shutil
import socket
import subprocess
import time

import pytest
from django.test import override_settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def private_redis():
    """A redis-server of this test's own on a free port (never the shared one)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is needed for this test")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield port, process
    if process.poll() is None:
        process.terminate()
        process.wait(10)


def redis_at(port):
    url = f"redis://127.0.0.1:{port}/0"
    return override_settings(
        CELERY_BROKER_URL=url,
        CACHES={"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}},
    )


def test_healthz_answers_without_auth_host_or_database(client, settings):
    settings.ALLOWED_HOSTS = ["darkroom.example.org"]
    response = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_is_200_when_database_redis_and_migrations_are_ready(client):
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert {name for name, check in body["checks"].items() if check["ok"]} >= {"database", "redis", "migrations"}


@pytest.mark.django_db
def test_readyz_is_503_with_json_detail_when_redis_stops(client, private_redis):
    port, process = private_redis
    with redis_at(port):
        assert client.get("/readyz").status_code == 200
        process.terminate()
        process.wait(10)
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["code"] == "not_ready"
    assert body["checks"]["redis"]["ok"] is False
    assert "redis" in body["detail"] and "Connection" in body["checks"]["redis"]["detail"]
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_readyz_reports_a_broker_apart_from_the_cache(client, private_redis):
    port, process = private_redis
    dead = free_port()
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{dead}/0"):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["ok"] is False
    assert response.json()["checks"]["redis"]["ok"] is True


@pytest.mark.django_db
def test_readyz_is_503_when_a_migration_is_missing(client, monkeypatch):
    from config import health

    monkeypatch.setattr(health, "_migrated", False)
    from django.db.migrations.recorder import MigrationRecorder

    applied = MigrationRecorder.Migration.objects.filter(app="games").order_by("-name").first()
    applied.delete()  # as if never applied; rolled back with the test's transaction
    response = client.get("/readyz")
    assert response.status_code == 503
    assert f"games.{applied.name}" in response.json()["checks"]["migrations"]["detail"]


@pytest.mark.django_db
def test_readyz_tells_a_stranger_only_that_it_is_not_ready(client, settings):
    """Error text names hosts and ports: only loopback (no proxy between) or the metrics token
    may read it."""
    settings.METRICS_TOKEN = "s3cret"
    dead = free_port()
    with override_settings(CELERY_BROKER_URL=f"redis://127.0.0.1:{dead}/0"):
        stranger = client.get("/readyz", REMOTE_ADDR="203.0.113.7")
        proxied = client.get("/readyz", HTTP_X_FORWARDED_FOR="203.0.113.7")
        scraper = client.get("/readyz", REMOTE_ADDR="203.0.113.7", HTTP_AUTHORIZATION="Bearer s3cret")
        local = client.get("/readyz")
    for answer in (stranger, proxied):
        assert answer.status_code == 503
        assert answer.json() == {"status": "unavailable", "code": "not_ready", "detail": "not ready"}
    for answer in (scraper, local):
        assert answer.status_code == 503
        assert (
            str(dead) in answer.json()["checks"]["broker"]["detail"]
            or "Connection" in answer.json()["checks"]["broker"]["detail"]
        )
    assert client.get("/readyz", REMOTE_ADDR="203.0.113.7").json() == {"status": "ok"}
