"""Safe by default: a deployment that sets nothing but a database, Redis and a secret runs with
debug off, HTTPS only and no proxy trusted; without a secret it does not start; compose refuses
to start without one and publishes the proxy's port alone; the web server's worker count comes from
WEB_CONCURRENCY."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
MINIMAL = {
    "DATABASE_URL": "postgres://darkroom@db.internal:5432/darkroom",
    "REDIS_URL": "redis://redis.internal:6379/0",
}
SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps({'debug': s.DEBUG, 'redirect': s.SECURE_SSL_REDIRECT, 'metrics_open': s.METRICS_OPEN, "
    "'proxies': s.REST_FRAMEWORK['NUM_PROXIES'], 'key': s.SECRET_KEY}))"
)


def settings_with(env: dict) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "METRICS_"))}
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**base, **env, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )


def test_a_deployment_with_a_database_redis_and_a_secret_is_not_in_debug_mode():
    result = settings_with({**MINIMAL, "DJANGO_SECRET_KEY": "a-real-secret-of-some-length"})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "debug": False,
        "redirect": True,
        "metrics_open": False,
        "proxies": 0,
        "key": "a-real-secret-of-some-length",
    }


def test_without_a_secret_and_without_debug_it_refuses_to_start():
    result = settings_with(MINIMAL)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_development_asks_for_debug_and_only_then_gets_the_development_key():
    result = settings_with({**MINIMAL, "DJANGO_DEBUG": "true"})
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["debug"] is True and shown["metrics_open"] is True and shown["key"].startswith("dev-only")
    makefile = (ROOT / "Makefile").read_text()
    run = re.search(r"^run:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "$(DEV)" in run and re.search(r"^DEV\s*=\s*DJANGO_DEBUG=\$\$\{DJANGO_DEBUG:-true\}", makefile, re.M)


def test_proxies_are_a_count_you_declare():
    result = settings_with({**MINIMAL, "DJANGO_SECRET_KEY": "k", "DJANGO_TRUSTED_PROXIES": "2"})
    assert json.loads(result.stdout)["proxies"] == 2
    assert settings_with({**MINIMAL, "DJANGO_SECRET_KEY": "k", "DJANGO_TRUSTED_PROXIES": "-1"}).returncode != 0


def test_compose_needs_a_secret_and_publishes_only_the_proxy_s_port():
    text = (ROOT / "docker-compose.yml").read_text()
    compose = yaml.safe_load(text)
    secret = compose["x-app"]["environment"]["DJANGO_SECRET_KEY"]
    assert re.fullmatch(r"\$\{DJANGO_SECRET_KEY:\?[^}]+\}", secret), secret
    published = {name for name, service in compose["services"].items() if service.get("ports")}
    assert published == {"proxy"}
    assert compose["x-app"]["environment"]["DJANGO_DEBUG"] == "false"


def gunicorn_settings(env: dict) -> dict:
    code = (
        "import json, runpy; c = runpy.run_path('gunicorn.conf.py'); "
        "print(json.dumps({'workers': c['workers'], 'forwarded': c['forwarded_allow_ips']}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in ("WEB_CONCURRENCY", "FORWARDED_ALLOW_IPS")}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30, env={**base, **env}
    )
    return json.loads(result.stdout)


def test_web_concurrency_comes_from_the_environment():
    assert gunicorn_settings({}) == {"workers": 2, "forwarded": ""}
    assert gunicorn_settings({"WEB_CONCURRENCY": "5"})["workers"] == 5
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.M).group(1)
    procfile = (ROOT / "Procfile").read_text()
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for command in (" ".join(json.loads(cmd)), procfile, json.dumps(compose["services"]["web"].get("command", ""))):
        assert "--workers" not in command and " -w " not in command


def test_django_s_smtp_backend_asked_for_is_the_one_with_a_deadline_on_a_whole_message():
    """A mail server cannot outlive an email's lease (accounts/mail.py), whichever SMTP backend the
    environment names."""
    show = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.EMAIL_BACKEND, s.EMAIL_DEADLINE_SECONDS]))"
    )
    for asked in ("django.core.mail.backends.smtp.EmailBackend", "accounts.mail.SMTPBackend"):
        result = subprocess.run(
            [sys.executable, "-c", show],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env={
                **os.environ,
                **MINIMAL,
                "DJANGO_SECRET_KEY": "a-real-secret-of-some-length",
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "EMAIL_BACKEND": asked,
            },
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == ["accounts.mail.SMTPBackend", 20]
