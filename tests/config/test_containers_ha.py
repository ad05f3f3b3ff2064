"""docker-compose.ha.yml, over docker-compose.yml (docs/operations.md#past-one-machine): every app
process reaches PostgreSQL through PgBouncer in transaction mode with the replica for the reads
that may lag, and Redis through three Sentinels watching the master and its replica; two of each
app process; every service it adds has a healthcheck and comes back by itself."""

import re
from pathlib import Path

import pytest
import yaml

from tests.config.test_containers import APP, COMPOSE

ROOT = Path(__file__).resolve().parents[2]
HA = yaml.safe_load((ROOT / "docker-compose.ha.yml").read_text())
ADDED = [name for name in HA["services"] if name not in COMPOSE["services"]]
SENTINELS = [name for name in ADDED if name.startswith("sentinel-")]


def test_it_adds_the_pooler_the_replicas_and_three_sentinels():
    assert {"pgbouncer", "db-replica", "redis-replica"} <= set(ADDED)
    assert len(SENTINELS) == 3  # an odd number: two of them agree the master is down


@pytest.mark.parametrize("service", ADDED)
def test_every_added_service_has_a_healthcheck_and_comes_back_by_itself(service):
    assert HA["services"][service]["healthcheck"]["test"]
    assert HA["services"][service]["restart"] in {"always", "unless-stopped"}


@pytest.mark.parametrize("service", APP)
def test_every_app_process_goes_through_the_pooler_the_replica_and_the_sentinels(service):
    env = HA["services"][service]["environment"]
    host, port = re.search(r"@([\w-]+):(\d+)/", env["DATABASE_URL"]).groups()
    assert host == "pgbouncer" and port == HA["services"]["pgbouncer"]["environment"]["LISTEN_PORT"]
    assert env["DATABASE_PGBOUNCER"] == "on"
    assert re.search(r"@db-replica:5432/darkroom$", env["REPLICA_DATABASE_URL"])
    assert sorted(item.split(":")[0] for item in env["REDIS_SENTINELS"].split(",")) == SENTINELS
    waits = HA["services"][service]["depends_on"]
    assert all(waits[name] == {"condition": "service_healthy"} for name in ["pgbouncer", *SENTINELS])


def test_the_pooler_is_in_transaction_mode_in_front_of_the_primary_and_migrations_go_around_it():
    pooler = HA["services"]["pgbouncer"]["environment"]
    assert pooler["POOL_MODE"] == "transaction" and pooler["DB_HOST"] == "db"
    assert "@db:5432/" in HA["services"]["migrate"]["environment"]["DATABASE_URL"]


def test_the_replica_streams_from_the_primary_which_lets_it():
    replica = " ".join(HA["services"]["db-replica"]["command"])
    assert "pg_basebackup -h db" in replica and " -R " in replica and "hot_standby=on" in replica
    script = next(v.split(":")[0] for v in HA["services"]["db"]["volumes"] if "docker-entrypoint-initdb.d" in v)
    assert "host replication all all" in (ROOT / script).read_text()


def test_the_sentinels_watch_the_master_with_a_quorum_of_two_and_the_replica_follows_it():
    config = (ROOT / "deploy" / "ha" / "sentinel.conf").read_text()
    assert re.search(r"^sentinel monitor darkroom redis 6379 2$", config, re.M)
    assert HA["services"]["redis-replica"]["command"][-3:] == ["--replicaof", "redis", "6379"]
    env = HA["services"]["web"]["environment"]
    assert env["REDIS_SENTINEL_MASTER"] == "darkroom"


def test_two_of_each_app_process():
    for name in ("web", "live", "worker", "beat"):
        assert HA["services"][name]["deploy"]["replicas"] == 2, name
