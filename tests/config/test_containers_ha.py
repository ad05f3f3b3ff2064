"""docker-compose.ha.yml, over docker-compose.yml (docs/operations.md#past-one-machine): PostgreSQL
on two Patroni nodes in synchronous mode with a three-member etcd, HAProxy sending each port to the
node Patroni names for it, every app process through PgBouncer in transaction mode in front of
the primary, with the standby for the reads that may lag, and Redis through three Sentinels
watching the master and its replica; two of each app process; every service it adds has a
healthcheck and comes back by itself."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.config.test_containers import APP, COMPOSE

ROOT = Path(__file__).resolve().parents[2]
HA = yaml.safe_load((ROOT / "docker-compose.ha.yml").read_text())
SERVICES = HA["services"]
ADDED = [name for name in SERVICES if name not in COMPOSE["services"]]
SENTINELS = [name for name in ADDED if name.startswith("sentinel-")]
ETCD = [name for name in ADDED if name.startswith("etcd-")]
NODES = ["db", "db-2"]  # docker-compose.yml's PostgreSQL becomes the first Patroni node
PATRONI = yaml.safe_load((ROOT / "deploy" / "ha" / "patroni.yml").read_text())
HAPROXY = (ROOT / "deploy" / "ha" / "haproxy.cfg").read_text()


def url_host_port(url: str) -> tuple[str, str]:
    return re.search(r"@([\w-]+):(\d+)/darkroom$", url).groups()


def haproxy_section(port: str) -> str:
    """The `listen` section of haproxy.cfg bound to `port`."""
    for section in re.split(r"\n(?=\S)", HAPROXY):
        if re.search(rf"^\s+bind :{port}$", section, re.M):
            return section
    raise AssertionError(f"haproxy.cfg binds no section to {port}")


def mounted(service: str, target: str) -> Path:
    source = next(v.split(":")[0] for v in SERVICES[service]["volumes"] if v.split(":")[1] == target)
    return ROOT / source


def test_it_adds_two_patroni_nodes_three_etcd_members_haproxy_the_pooler_and_three_sentinels():
    assert {"db-2", "haproxy", "pgbouncer", "redis-replica"} <= set(ADDED)
    assert len(ETCD) == 3  # one etcd member would be the single point of failure Patroni removes
    assert len(SENTINELS) == 3  # an odd number: two of them agree the master is down
    for node in NODES:
        assert SERVICES[node]["build"] == "./deploy/ha/patroni"
        assert SERVICES[node]["image"] != COMPOSE["services"]["db"]["image"]  # never retag postgres:16


@pytest.mark.parametrize("service", [*ADDED, "db"])
def test_every_added_or_replaced_service_has_a_healthcheck_and_comes_back_by_itself(service):
    assert SERVICES[service]["healthcheck"]["test"]
    assert SERVICES[service]["restart"] in {"always", "unless-stopped"}


@pytest.mark.parametrize("service", APP)
def test_every_app_process_goes_through_the_pooler_the_standby_port_and_the_sentinels(service):
    env = SERVICES[service]["environment"]
    assert url_host_port(env["DATABASE_URL"]) == ("pgbouncer", SERVICES["pgbouncer"]["environment"]["LISTEN_PORT"])
    assert env["DATABASE_PGBOUNCER"] == "on"
    host, port = url_host_port(env["REPLICA_DATABASE_URL"])
    assert host == "haproxy" and "GET /replica" in haproxy_section(port)
    assert sorted(item.split(":")[0] for item in env["REDIS_SENTINELS"].split(",")) == SENTINELS
    waits = SERVICES[service]["depends_on"]
    assert all(waits[name] == {"condition": "service_healthy"} for name in ["pgbouncer", *SENTINELS])


def test_the_pooler_is_in_transaction_mode_in_front_of_the_primary_and_migrations_go_around_it():
    pooler = SERVICES["pgbouncer"]["environment"]
    assert pooler["POOL_MODE"] == "transaction" and pooler["DB_HOST"] == "haproxy"
    assert "GET /primary" in haproxy_section(pooler["DB_PORT"])
    host, port = url_host_port(SERVICES["migrate"]["environment"]["DATABASE_URL"])
    assert host == "haproxy" and port == pooler["DB_PORT"]
    for name in ("pgbouncer", "migrate"):
        assert SERVICES[name]["depends_on"]["haproxy"] == {"condition": "service_healthy"}


def test_the_pooler_retries_the_new_primary_soon_and_answers_no_primary_in_seconds():
    pooler = SERVICES["pgbouncer"]["environment"]
    assert int(pooler["SERVER_LOGIN_RETRY"]) <= 2 and int(pooler["QUERY_WAIT_TIMEOUT"]) <= 5


@pytest.mark.parametrize("check", ["/primary", "/replica"])
def test_haproxy_asks_each_node_s_patroni_and_cuts_a_node_that_stops_answering(check):
    section = next(s for s in re.split(r"\n(?=\S)", HAPROXY) if f"GET {check}" in s)
    rest_port = PATRONI["restapi"]["listen"].rsplit(":", 1)[1]
    pg_port = PATRONI["postgresql"]["listen"].rsplit(":", 1)[1]
    servers = re.findall(r"^\s+server (\S+) ([\w-]+):(\d+) check port (\d+)$", section, re.M)
    assert [(name, host, port, rest) for name, host, port, rest in servers] == [
        (node, node, pg_port, rest_port) for node in NODES
    ]
    assert "http-check expect status 200" in section
    assert re.search(r"^\s+default-server .*on-marked-down shutdown-sessions", HAPROXY, re.M)
    assert SERVICES["haproxy"]["volumes"] == ["./deploy/ha/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]


@pytest.mark.skipif(not shutil.which("haproxy"), reason="needs Debian's haproxy (make patroni)")
def test_haproxy_takes_the_configuration():
    result = subprocess.run(
        ["haproxy", "-c", "-f", str(ROOT / "deploy" / "ha" / "haproxy.cfg")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr + result.stdout


@pytest.mark.parametrize("node", NODES)
def test_each_patroni_node_reads_the_shared_configuration_under_its_own_name(node):
    env = SERVICES[node]["environment"]
    assert env["PATRONI_NAME"] == node
    assert env["PATRONI_RESTAPI_CONNECT_ADDRESS"] == f"{node}:{PATRONI['restapi']['listen'].rsplit(':', 1)[1]}"
    assert env["PATRONI_POSTGRESQL_CONNECT_ADDRESS"] == f"{node}:{PATRONI['postgresql']['listen'].rsplit(':', 1)[1]}"
    assert env["PATRONI_SUPERUSER_PASSWORD"] and env["PATRONI_REPLICATION_PASSWORD"]
    assert mounted(node, "/etc/patroni/patroni.yml") == ROOT / "deploy" / "ha" / "patroni.yml"
    assert mounted(node, "/etc/patroni/post_bootstrap.sh").is_file()
    assert all(SERVICES[node]["depends_on"][member] == {"condition": "service_healthy"} for member in ETCD)
    data = {v.split(":")[0] for v in SERVICES[node]["volumes"] if v.split(":")[1] == "/var/lib/postgresql/data"}
    assert len(data) == 1 and data <= set(HA["volumes"])
    others = {v.split(":")[0] for n in NODES if n != node for v in SERVICES[n]["volumes"]}
    assert not data & others  # a data directory of its own


def test_patroni_replicates_synchronously_not_strict_as_the_operations_guide_says():
    dcs = PATRONI["bootstrap"]["dcs"]
    assert dcs["synchronous_mode"] is True and dcs["synchronous_mode_strict"] is False
    guide = (ROOT / "docs" / "operations.md").read_text()
    assert "synchronous_mode: true" in guide and "synchronous_mode_strict: false" in guide
    assert sorted(host.split(":")[0] for host in PATRONI["etcd3"]["hosts"].split(",")) == ETCD
    users = PATRONI["postgresql"]["authentication"]
    assert f"host replication {users['replication']['username']} all scram-sha-256" in PATRONI["postgresql"]["pg_hba"]
    # The database every URL names is made once, on the node that creates the cluster.
    script = PATRONI["bootstrap"]["post_bootstrap"].split()[-1]
    assert script in {v.split(":")[1] for v in SERVICES["db"]["volumes"]}
    assert 'CREATE DATABASE darkroom"' in mounted("db", script).read_text()


def test_patroni_fails_over_at_the_pace_the_operations_guide_gives_and_the_fault_test_kills_at():
    from tests.faults.stack.patroni import PatroniCluster

    dcs = PATRONI["bootstrap"]["dcs"]
    pace = (dcs["ttl"], dcs["loop_wait"], dcs["retry_timeout"])
    assert dcs["ttl"] >= dcs["loop_wait"] + 2 * dcs["retry_timeout"]  # Patroni refuses less
    guide = (ROOT / "docs" / "operations.md").read_text()
    assert "ttl: {}, loop_wait: {}, retry_timeout: {}".format(*pace) in guide
    assert (PatroniCluster.TTL, PatroniCluster.LOOP_WAIT, PatroniCluster.RETRY_TIMEOUT) == pace


def test_the_patroni_image_runs_the_same_postgresql_as_compose_and_patroni_finds_it():
    dockerfile = (ROOT / "deploy" / "ha" / "patroni" / "Dockerfile").read_text()
    assert re.search(rf"^FROM {re.escape(COMPOSE['services']['db']['image'])}$", dockerfile, re.M)
    major = COMPOSE["services"]["db"]["image"].split(":")[1]
    assert PATRONI["postgresql"]["bin_dir"] == f"/usr/lib/postgresql/{major}/bin"
    assert re.search(r"apt-get install .*\bpatroni\b", dockerfile) and re.search(r"^USER postgres$", dockerfile, re.M)


def test_the_three_etcd_members_form_one_cluster_each_on_its_own_volume():
    for name in ETCD:
        env = SERVICES[name]["environment"]
        assert env["ETCD_NAME"] == name
        assert env["ETCD_ADVERTISE_CLIENT_URLS"] == f"http://{name}:2379"
        members = dict(item.split("=") for item in env["ETCD_INITIAL_CLUSTER"].split(","))
        assert members == {member: f"http://{member}:2380" for member in ETCD}
        assert env["ETCD_INITIAL_ADVERTISE_PEER_URLS"] == members[name]
        assert SERVICES[name]["volumes"] == [f"{name}:{env['ETCD_DATA_DIR']}"]


def test_the_sentinels_watch_the_master_with_a_quorum_of_two_and_the_replica_follows_it():
    config = (ROOT / "deploy" / "ha" / "sentinel.conf").read_text()
    assert re.search(r"^sentinel monitor darkroom redis 6379 2$", config, re.M)
    assert SERVICES["redis-replica"]["command"][-3:] == ["--replicaof", "redis", "6379"]
    env = SERVICES["web"]["environment"]
    assert env["REDIS_SENTINEL_MASTER"] == "darkroom"


def test_two_of_each_app_process():
    for name in ("web", "live", "worker", "beat"):
        assert SERVICES[name]["deploy"]["replicas"] == 2, name
