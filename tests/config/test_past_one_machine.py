"""The settings of docs/operations.md#past-one-machine, as a deployment sets them in its
environment: behind PgBouncer nothing is prepared and no cursor lives on the server; a replica
adds the router, the pin and a pool that gives up quickly; Sentinel rewrites every Redis role to
ask the Sentinels for the master. The behaviour itself runs against real servers in
tests/faults/test_pgbouncer.py, test_replica.py and test_sentinel.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import redis.sentinel
from django.core.management import call_command

from config import redis as redis_roles

ROOT = Path(__file__).resolve().parents[2]
BASE = {
    "DATABASE_URL": "postgres://darkroom@db.internal:5432/darkroom",
    "REDIS_URL": "redis://redis.internal:6379/4",
    "DJANGO_SECRET_KEY": "a-real-secret-of-some-length",
}
SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'databases': s.DATABASES, 'routers': s.DATABASE_ROUTERS, "
    "'pin': 'config.database.ReplicaPinMiddleware' in s.MIDDLEWARE, 'cache': s.CACHES['default'], "
    "'broker': s.CELERY_BROKER_URL, 'broker_options': s.CELERY_BROKER_TRANSPORT_OPTIONS}, default=str))"
)


def settings_with(**env: str) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "REPLICA_", "CACHE_", "CELERY_"))
    }
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**base, **BASE, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )


def shown(**env: str) -> dict:
    result = settings_with(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_behind_pgbouncer_nothing_is_prepared_and_no_cursor_lives_on_the_server():
    direct = shown()["databases"]["default"]
    assert direct["OPTIONS"]["prepare_threshold"] == 5 and direct["OPTIONS"]["server_side_binding"] is True
    assert direct["DISABLE_SERVER_SIDE_CURSORS"] is False
    pooled = shown(DATABASE_PGBOUNCER="on")["databases"]["default"]
    assert pooled["OPTIONS"]["prepare_threshold"] is None and "server_side_binding" not in pooled["OPTIONS"]
    assert pooled["DISABLE_SERVER_SIDE_CURSORS"] is True
    refused = settings_with(DATABASE_PGBOUNCER="on", DATABASE_PREPARE="on")
    assert refused.returncode != 0 and "DATABASE_PREPARE cannot be on behind PgBouncer" in refused.stderr


def test_several_hosts_in_database_url_go_to_libpq_as_it_takes_them():
    url = "postgres://darkroom:secret@pg-1.internal:5432,pg-2.internal:5433/darkroom?target_session_attrs=read-write"
    default = shown(DATABASE_URL=url)["databases"]["default"]
    assert (default["HOST"], default["PORT"], default["NAME"], default["USER"], default["PASSWORD"]) == (
        "pg-1.internal,pg-2.internal",
        "5432,5433",
        "darkroom",
        "darkroom",
        "secret",
    )
    assert default["OPTIONS"]["target_session_attrs"] == "read-write"


def test_a_replica_adds_the_router_the_pin_and_a_pool_that_gives_up_quickly():
    plain = shown()
    assert "replica" not in plain["databases"] and plain["routers"] == [] and not plain["pin"]
    with_replica = shown(
        REPLICA_DATABASE_URL="postgres://darkroom@replica.internal:5432/darkroom", REPLICA_CONNECT_TIMEOUT="1.5"
    )
    replica = with_replica["databases"]["replica"]
    assert replica["HOST"] == "replica.internal" and replica["TEST"]["MIRROR"] == "default"
    assert replica["OPTIONS"]["pool"]["timeout"] == 1.5 and replica["OPTIONS"]["connect_timeout"] == 2
    assert with_replica["routers"] == ["config.database.ReplicaRouter"] and with_replica["pin"]
    short = settings_with(REPLICA_DATABASE_URL="postgres://r/x", REPLICA_MAX_LAG="10", REPLICA_PIN_SECONDS="3")
    assert short.returncode != 0 and "REPLICA_PIN_SECONDS must be at least" in short.stderr


def test_under_sentinel_every_redis_role_asks_the_sentinels_for_the_master():
    on = shown(REDIS_SENTINELS="10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26380", REDIS_SENTINEL_MASTER="main")
    assert on["cache"]["LOCATION"] == "redis://main/4"
    assert on["cache"]["OPTIONS"]["CONNECTION_FACTORY"] == "django_redis.pool.SentinelConnectionFactory"
    assert on["cache"]["OPTIONS"]["SENTINELS"] == [["10.0.0.1", 26379], ["10.0.0.2", 26379], ["10.0.0.3", 26380]]
    assert on["broker"] == "sentinel://10.0.0.1:26379/4;sentinel://10.0.0.2:26379/4;sentinel://10.0.0.3:26380/4"
    assert on["broker_options"]["master_name"] == "main"
    # Celery would read a redis:// CELERY_BROKER_URL itself, around the Sentinels: refused.
    around = settings_with(REDIS_SENTINELS="10.0.0.1:26379", CELERY_BROKER_URL="redis://redis.internal:6379/4")
    assert around.returncode != 0 and "leave CELERY_BROKER_URL unset" in around.stderr


def test_the_factories_find_the_master_through_the_sentinels(settings):
    settings.REDIS_SENTINELS = [("127.0.0.1", 1), ("127.0.0.1", 2), ("127.0.0.1", 3)]
    settings.REDIS_SENTINEL_MASTER = "main"
    settings.REDIS_URL = "redis://ignored.internal:6379/7"
    for client in (
        redis_roles.publisher(),
        redis_roles.subscriber(),
        redis_roles.probe(settings.REDIS_URL, 1),
        redis_roles.async_subscriber(),
        redis_roles.async_commands(),
    ):
        pool = client.connection_pool
        assert type(pool).__name__ == "SentinelConnectionPool" and pool.service_name == "main"
        assert pool.connection_kwargs["db"] == 7
    assert isinstance(redis_roles.publisher().connection_pool, redis.sentinel.SentinelConnectionPool)
    call_command("check")  # the cache's "server" is the master's name: one server, no darkroom.E001
