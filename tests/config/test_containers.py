"""The image runs as a non-root user with a HEALTHCHECK, compose checks every long-running
service, and the health commands they run do answer against a live server."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_image_runs_as_an_unprivileged_user():
    users = re.findall(r"^USER\s+(\S+)", DOCKERFILE, re.M)
    assert users and users[-1] not in {"root", "0"}
    assert re.search(rf"useradd .*--uid (\d+) .*{users[-1]}", DOCKERFILE)
    assert DOCKERFILE.index("USER ") > DOCKERFILE.index("pip install")  # installs done as root


def dockerfile_healthcheck() -> list[str]:
    match = re.search(r"^HEALTHCHECK .*?CMD (\[.*?\])$", DOCKERFILE, re.M | re.S)
    assert match, "the Dockerfile has no HEALTHCHECK"
    return json.loads(match.group(1))


@pytest.mark.parametrize("service", ["db", "redis", "web", "live", "worker", "outbound", "push", "bots", "beat"])
def test_every_long_running_service_has_a_healthcheck(service):
    assert COMPOSE["services"][service]["healthcheck"]["test"]


def on(command: list[str], live_server) -> list[str]:
    return [part.replace("http://127.0.0.1:8000", live_server.url) for part in command]


def run(command: list[str]) -> subprocess.CompletedProcess:
    """The command as the container runs it, with this virtualenv's `python` first on the PATH."""
    path = f"{Path(sys.executable).parent}:/usr/bin:/bin"
    return subprocess.run(["/usr/bin/env", *command], capture_output=True, text=True, timeout=30, env={"PATH": path})


@pytest.mark.django_db(transaction=True)
def test_the_image_and_web_healthchecks_pass_against_a_live_server(live_server):
    for command in (
        dockerfile_healthcheck(),
        COMPOSE["services"]["web"]["healthcheck"]["test"][1:],
        COMPOSE["services"]["live"]["healthcheck"]["test"][1:],
    ):
        command = on(command, live_server)
        assert live_server.url in " ".join(command)
        result = run(command)
        assert result.returncode == 0, result.stderr


def test_the_healthcheck_fails_when_nothing_answers():
    command = [part.replace("127.0.0.1:8000", "127.0.0.1:9") for part in dockerfile_healthcheck()]
    assert run(command).returncode != 0


def test_web_worker_and_beat_share_the_metrics_directory_that_migrate_empties():
    services = COMPOSE["services"]
    directory = COMPOSE["x-app"]["environment"]["PROMETHEUS_MULTIPROC_DIR"]
    for name in ("web", "live", "worker", "beat", "migrate"):
        assert any(v.endswith(f":{directory}") for v in services[name]["volumes"]), name
    assert f"rm -rf {directory}/*" in " ".join(services["migrate"]["command"])


LONG_RUNNING = ["db", "redis", "proxy", "web", "live", "worker", "outbound", "push", "bots", "beat"]
# The services that run the app's image, migrate aside: the processes of the Procfile.
APP = [name for name, service in COMPOSE["services"].items() if service.get("build") and name != "migrate"]


@pytest.mark.parametrize("service", LONG_RUNNING)
def test_every_long_running_service_comes_back_by_itself_when_it_dies(service):
    assert COMPOSE["services"][service]["restart"] in {"always", "unless-stopped"}


def test_the_app_services_and_the_proxy_are_the_procfile_s_processes():
    procfile = {line.split(":", 1)[0] for line in (ROOT / "Procfile").read_text().splitlines() if line}
    assert set(APP) | {"proxy"} == procfile


def test_compose_serves_web_and_live_with_the_procfile_s_servers():
    """`web` (the image's CMD) serves REST under WSGI, `live` the requests that wait under ASGI, as
    the Procfile's lines of the same names do: an image-based deployment keeps streams on an event
    loop and REST off one."""
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    image = json.loads(re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.M).group(1))
    services = COMPOSE["services"]
    assert "command" not in services["web"]
    for name, command in (("web", image), ("live", services["live"]["command"])):
        server = (command[1], command[command.index("--worker-class") + 1])
        assert all(part in procfile[name] for part in server), (name, server)
    assert image[1] == "config.wsgi:application" and services["live"]["command"][1] == "config.asgi:application"


def test_the_proxy_fills_the_template_make_run_fills_and_waits_for_web_and_live():
    proxy = COMPOSE["services"]["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert "./deploy/nginx.conf.template:/etc/nginx/templates/nginx.conf.template:ro" in proxy["volumes"]
    assert proxy["environment"]["NGINX_ENVSUBST_OUTPUT_DIR"] == "/etc/nginx"
    assert {name: proxy["environment"][name] for name in ("WEB_UPSTREAM", "LIVE_UPSTREAM")} == {
        "WEB_UPSTREAM": "web:8000",
        "LIVE_UPSTREAM": "live:8000",
    }
    assert proxy["depends_on"] == {"web": {"condition": "service_healthy"}, "live": {"condition": "service_healthy"}}
    assert COMPOSE["services"]["live"]["environment"]["DJANGO_SETTINGS_MODULE"] == "config.live_settings"


@pytest.mark.parametrize("service", APP)
def test_every_app_service_waits_for_the_migrations_and_redis(service):
    """Started before `migrate` finished, a process would meet tables that are not there yet (and
    metrics files that migrate is about to delete)."""
    waits = COMPOSE["services"][service]["depends_on"]
    assert waits["migrate"] == {"condition": "service_completed_successfully"}
    assert waits["redis"] == {"condition": "service_healthy"}


@pytest.mark.parametrize("service", [name for name in APP if "worker" in COMPOSE["services"][name].get("command", [])])
def test_every_celery_worker_s_healthcheck_is_timed_and_retried_alike(service):
    """Left out, they are Docker's defaults (a 30 s timeout, no start period: a worker still
    starting counts as failing); every worker spells out the same ones."""
    check = COMPOSE["services"][service]["healthcheck"]
    assert {key: check.get(key) for key in ("interval", "timeout", "start_period", "retries")} == {
        "interval": "30s",
        "timeout": "15s",
        "start_period": "30s",
        "retries": 3,
    }


def queues_consumed(command: list[str]) -> set[str]:
    return set(command[command.index("-Q") + 1].split(","))


def test_clocks_and_outside_parties_have_worker_processes_of_their_own_in_compose_and_the_procfile():
    """Timers and sweeps are consumed apart from webhooks and email, by both ways of running the
    stack; every queue the settings route to has a consumer; timer workers have a twin, and the
    scheduler is one (Celery's rule), restarted when it dies."""
    from django.conf import settings

    base = settings.CELERY_QUEUE
    production = {name: spec["queue"].replace(base, "darkroom", 1) for name, spec in settings.TASK_QUEUES.items()}
    services = COMPOSE["services"]
    assert queues_consumed(services["worker"]["command"]) == {production["timers"]}
    assert queues_consumed(services["outbound"]["command"]) == {production["webhooks"], production["email"]}
    assert queues_consumed(services["push"]["command"]) == {production["push"]}
    assert queues_consumed(services["bots"]["command"]) == {production["bots"]}
    assert services["worker"]["deploy"]["replicas"] >= 2 and services["beat"]["deploy"]["replicas"] == 1
    assert services["beat"]["restart"] == "unless-stopped"
    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    consumed = {
        name: queues_consumed(command.replace("${CELERY_QUEUE:-darkroom}", "darkroom").split())
        for name, command in procfile.items()
        if " worker " in command
    }
    assert consumed == {
        "worker": {production["timers"]},
        "outbound": {production["webhooks"], production["email"]},
        "push": {production["push"]},
        "bots": {production["bots"]},
    }
    assert set().union(*consumed.values()) == set(production.values())  # every queue has a consumer


def test_each_worker_reserves_as_many_tasks_in_compose_as_in_the_procfile():
    """--prefetch-multiplier, where a worker line gives one; the settings' value where it does not."""
    from django.conf import settings

    def prefetch(command: list[str]) -> int:
        flag = "--prefetch-multiplier"
        return int(command[command.index(flag) + 1]) if flag in command else settings.CELERY_WORKER_PREFETCH_MULTIPLIER

    procfile = dict(line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line)
    workers = {name: command.split() for name, command in procfile.items() if " worker " in command}
    assert {name: prefetch(command) for name, command in workers.items()} == {
        name: prefetch(COMPOSE["services"][name]["command"]) for name in workers
    }
    assert prefetch(workers["bots"]) == 1  # a search is long: a second one would wait behind it
