"""The container image, built as its Dockerfile says and started as its CMD says.

This machine has no container runtime (and no registry to pull `python:3.11-slim` from), so the
test builds the image's exact file set instead: every COPY line's sources copied from the
repository into a scratch /app (a source the repository lacks fails the build, as Docker's
would; a directory the COPY lines leave out is missing here too, so an app that needs it fails
below), the ENV lines applied, the RUN line that installs (pip with the constraints, then
collectstatic) run in a fresh virtualenv. Then, with the production environment of
docs/operations.md and a database of its own: `check --deploy`, `migrate`, and the CMD's server,
which must answer /healthz, /readyz, a registration and a static file. WEB_CONCURRENCY sets its
worker processes.

Slow (a fresh install, about a minute): `-m "not slow"` leaves it out of a quick run.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import dj_database_url
import httpx
import psycopg
import pytest
from psycopg import sql

from tests.config.test_deploy import documented_environment
from tests.live_server import free_port
from tests.loopback import TLS

# A minute alone; on a loaded 2-core machine, with the suite's other processes, it has taken
# seven (414 s): the limits are there to catch a hang, not a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

ROOT = Path(__file__).resolve().parents[2]
HOST = "darkroom.example.org"
# What a build inherits from this machine: a PATH and pip's own configuration (its index).
PASSED_ON = ("HOME", "LANG", "LC_ALL", "TMPDIR", "SSL_CERT_FILE")


def instructions(dockerfile: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), continuation lines joined, comments dropped."""
    lines = [line for line in dockerfile.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    return [(m.group(1).upper(), m.group(2).strip()) for m in re.finditer(r"^\s*([A-Za-z]+)\s+(.*)$", joined, re.M)]


class Image:
    def __init__(self, where: Path):
        self.root = where
        self.app = where / "app"
        self.venv = where / "venv"
        self.env: dict[str, str] = {}
        self.runs: list[str] = []
        self.cmd: list[str] = []

    def build(self) -> None:
        workdir = None
        for name, args in instructions((ROOT / "Dockerfile").read_text()):
            if name == "FROM":
                assert args.startswith("python:3.11"), args  # the virtualenv below is this machine's 3.11
            elif name == "WORKDIR":
                workdir = args
            elif name == "COPY":
                assert workdir == "/app", "the test maps WORKDIR /app to its scratch directory"
                self.copy(shlex.split(args))
            elif name == "ENV":
                self.env.update(dict(word.split("=", 1) for word in shlex.split(args)))
            elif name == "RUN":
                self.runs.append(args)
            elif name == "CMD":
                self.cmd = json.loads(args)

    def copy(self, words: list[str]) -> None:
        assert not any(w.startswith("--") for w in words), f"COPY {words}: flags are not built here"
        *sources, destination = words
        target = self.app / destination
        for source in sources:
            path = ROOT / source
            assert path.exists(), f"COPY {source}: not in the repository"
            into = target / path.name if destination.endswith("/") or len(sources) > 1 else target
            if path.is_dir():
                shutil.copytree(path, into, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, into)

    def base_env(self) -> dict[str, str]:
        passed = {k: v for k, v in os.environ.items() if k in PASSED_ON or k.startswith("PIP_")}
        return {
            **passed,
            **self.env,
            "PATH": f"{self.venv / 'bin'}:/usr/bin:/bin",
            "PROMETHEUS_MULTIPROC_DIR": str(self.root / "metrics"),
        }

    def install(self) -> None:
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True, timeout=120)
        (self.root / "metrics").mkdir()
        installs = [run for run in self.runs if run.startswith("pip install")]
        assert len(installs) == 1, self.runs
        # As written, but with pip's cache (the image keeps none, the test may) and without
        # compiling every module to bytecode first (a minute of the suite's CPU; what runs here
        # compiles what it imports as it imports it).
        command = installs[0].replace("--no-cache-dir", "").replace("pip install", "pip install --no-compile", 1)
        done = subprocess.run(
            ["/bin/sh", "-c", command], cwd=self.app, env=self.base_env(), capture_output=True, text=True, timeout=900
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    def manage(self, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.venv / "bin" / "python"), "manage.py", *args],
            cwd=self.app,
            env={**self.base_env(), **env},
            capture_output=True,
            text=True,
            timeout=300,
        )


@pytest.fixture
def database():
    """A database of the test's own, dropped afterwards."""
    url = dj_database_url.parse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/darkroom"))
    name = f"darkroom_image_{os.getpid()}"
    params = {
        "host": url["HOST"] or None,
        "port": url["PORT"] or None,
        "user": url["USER"] or None,
        "password": url["PASSWORD"] or None,
        "dbname": "postgres",
        "autocommit": True,
    }
    with psycopg.connect(**params) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    auth = url["USER"] + (f":{url['PASSWORD']}" if url["PASSWORD"] else "")
    yield f"postgres://{auth}@{url['HOST'] or '127.0.0.1'}:{url['PORT'] or 5432}/{name}"
    with psycopg.connect(**params) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def production(database_url: str) -> dict[str, str]:
    env = documented_environment()
    env.update(
        {
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "METRICS_TOKEN": secrets.token_urlsafe(20),
            "DATABASE_URL": database_url,
            "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
            "CACHE_PREFIX": f"darkroom-image-{os.getpid()}",
            "CELERY_QUEUE": f"darkroom-image-{os.getpid()}",
        }
    )
    assert env["DJANGO_DEBUG"] == "false" and env["DJANGO_ALLOWED_HOSTS"] == HOST
    return env


def workers_of(pid: int) -> int:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return len(children.read_text().split()) if children.exists() else -1


def test_the_image_builds_migrates_and_serves(tmp_path, database):
    image = Image(tmp_path)
    image.build()
    assert image.cmd and image.cmd[0] == "gunicorn"
    image.install()  # pip install, then collectstatic: the build fails here if an app is missing
    assert (image.app / "staticfiles" / "web" / "app.js").exists()

    env = production(database)
    checked = image.manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert checked.returncode == 0 and "no issues" in checked.stdout, checked.stdout + checked.stderr
    migrated = image.manage("migrate", "--no-input", env=env)
    assert migrated.returncode == 0, migrated.stdout[-2000:] + migrated.stderr[-2000:]

    port = free_port()
    command = [part.replace("0.0.0.0:8000", f"127.0.0.1:{port}") for part in image.cmd]
    assert f"127.0.0.1:{port}" in command
    log = open(tmp_path / "server.log", "w")
    server = subprocess.Popen(
        [str(image.venv / "bin" / command[0]), *command[1:]],
        cwd=image.app,
        env={**image.base_env(), **env, "WEB_CONCURRENCY": "1"},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "server.log").read_text()[-3000:]
            try:
                if httpx.get(f"{base}/healthz", timeout=2, verify=TLS).json() == {"status": "ok"}:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "server.log").read_text()[-3000:]
            time.sleep(0.3)
        assert workers_of(server.pid) == 1  # WEB_CONCURRENCY, not a number in the CMD

        ready = httpx.get(f"{base}/readyz", timeout=10, verify=TLS)  # from loopback: with its checks
        assert ready.status_code == 200 and ready.json()["checks"]["migrations"]["ok"], ready.text
        # As the TLS proxy in front sends it (the documented environment trusts one proxy).
        proxied = {"Host": HOST, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
        with httpx.Client(base_url=base, headers=proxied, timeout=30, verify=TLS) as client:
            created = client.post(
                "/api/v1/accounts/register/", json={"username": "imaged", "password": "correct horse battery"}
            )
            assert created.status_code == 201, created.text
            me = client.get("/api/v1/accounts/me/", headers={"Authorization": f"Token {created.json()['token']}"})
            assert me.status_code == 200 and me.json()["username"] == "imaged"
            assert client.get("/static/web/app.js").status_code == 200
            # collectstatic wrote a gzip twin of each file, and a browser that takes gzip gets it.
            assert (image.app / "staticfiles" / "web" / "app.js.gz").exists()
            squeezed = client.get("/static/web/app.js", headers={"Accept-Encoding": "gzip"})
            assert squeezed.headers.get("content-encoding") == "gzip"
            assert client.get("/metrics").status_code == 401
            assert (
                client.get("/metrics", headers={"Authorization": f"Bearer {env['METRICS_TOKEN']}"}).status_code == 200
            )
            # Plain HTTP from outside the proxy is sent to HTTPS.
            assert httpx.get(f"{base}/api/v1/kinds/", headers={"Host": HOST}, verify=TLS).status_code == 301
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
        log.close()
