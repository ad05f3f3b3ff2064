"""`make run` needs Python, PostgreSQL and Redis only: `make install` fetches no browser, no node
and no proxy (the test tools come with `make test`), and Procfile.dev's three processes are the
whole site: one server for every route (streams and long-polls too), one worker on every queue,
one beat."""

import os
import subprocess
import threading

import httpx
import pytest
from django.conf import settings

from tests.conftest import start_game
from tests.live_server import Server, game_stream
from tests.loopback import TLS
from tests.worker import ROOT

TEST_TOOLS = ("chromium", "npm", "nodejs", "nginx")


def dev_line(name: str) -> str:
    for line in (ROOT / "Procfile.dev").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise KeyError(f"Procfile.dev has no {name}: line")


def planned(target: str) -> str:
    """What `make TARGET` would run from scratch (a dry run: nothing is installed)."""
    return subprocess.run(
        ["make", "-n", "-B", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "MAKEFLAGS": ""},
        check=True,
    ).stdout


def test_make_install_fetches_no_browser_no_node_and_no_proxy():
    plan = planned("install")
    assert "pip install" in plan
    assert [tool for tool in TEST_TOOLS if tool in plan] == []


def test_make_test_fetches_the_test_tools_first():
    plan = planned("test")
    assert all(tool in plan for tool in TEST_TOOLS)
    assert plan.index("npm ci") < plan.index("lint-imports")


def test_the_development_worker_takes_every_queue():
    line = dev_line("worker").replace("${CELERY_QUEUE:-darkroom}", settings.CELERY_QUEUE)
    queues = set(line.split(" -Q ", 1)[1].split()[0].split(","))
    assert queues == {spec["queue"] for spec in settings.TASK_QUEUES.values()}
    assert set(name for name in ("web", "worker", "beat")) == {
        line.split(":", 1)[0]
        for line in (ROOT / "Procfile.dev").read_text().splitlines()
        if line and not line.startswith("#")
    }


@pytest.fixture(scope="module")
def dev_server(django_db_setup, django_db_blocker):
    server = Server(command=["/bin/sh", "-c", f"exec {dev_line('web')}"])
    with django_db_blocker.unblock():
        server.start()
    yield server
    server.stop()


@pytest.mark.django_db(transaction=True)
def test_the_development_server_serves_the_pages_the_api_and_live_updates(dev_server, alice, bob):
    assert httpx.get(f"{dev_server.url}/", verify=TLS).status_code == 200
    assert httpx.get(f"{dev_server.url}/admin/login/", verify=TLS).status_code == 200
    game = start_game(alice, [bob])
    stream = game_stream(dev_server, bob.token, game)
    assert stream.status == 200 and stream.next().event == "ready"
    answers = []
    with httpx.Client(
        base_url=f"{dev_server.url}/api/v1", headers={"Authorization": f"Token {alice.token}"}, timeout=30, verify=TLS
    ) as http:
        waiting = threading.Thread(
            target=lambda: answers.append(
                httpx.get(
                    f"{dev_server.url}/api/v1/games/{game}/events/",
                    params={"after": 4, "wait": 20},
                    headers={"Authorization": f"Token {bob.token}"},
                    timeout=30,
                    verify=TLS,
                )
            )
        )
        waiting.start()
        listed = http.get(f"/games/{game}/legal-moves/").json()
        moved = http.post(
            f"/games/{game}/moves/", json={"move": listed["moves"][0], "expected_version": listed["version"]}
        )
    assert moved.status_code == 201, moved.text
    waiting.join(30)
    assert answers and [e["seq"] for e in answers[0].json()["events"]] == [5]
    assert stream.until(lambda m: m.id == "5", timeout=20)[-1].data["event"]["seq"] == 5
    stream.close()
