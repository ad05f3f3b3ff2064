"""Redis by role (config/redis.py): one place makes every client, and the settings cannot split
the live news between two Redis servers without `manage.py check` saying so."""

from __future__ import annotations

import re
import socket
import threading
import time

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from config import redis as redis_roles
from config.outages import is_down
from games.realtime import channels, news


def with_cache_at(settings, url):
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}


def test_check_refuses_a_cache_on_another_redis_server_than_the_live_updates(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/3"
    with_cache_at(settings, "redis://10.0.0.9:6379/3")
    with pytest.raises(SystemCheckError, match="darkroom.E001"):
        call_command("check")


def test_check_accepts_another_database_on_the_same_server(settings):
    settings.REDIS_URL = "redis://127.0.0.1:6379/3"
    with_cache_at(settings, "redis://127.0.0.1/5")  # the default port is 6379: the same server
    call_command("check")


@pytest.fixture
def silent_redis():
    """A server that accepts connections and never answers: a stalled Redis."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                pass

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_publishing_to_a_stalled_redis_gives_up_and_the_write_carries_on(settings, silent_redis):
    """A stalled Redis costs a request about a second of waiting, not a thread held for the
    length of a long-poll: the publisher's timeout is the short one."""
    settings.REDIS_URL = silent_redis
    started = time.monotonic()
    news.publish([(channels.channel(1), "2")])
    waited = time.monotonic() - started
    assert is_down("live updates")
    assert waited < 10, f"publishing waited {waited:.1f} s on a Redis that never answered"
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert redis_roles.publisher().connection_pool.connection_kwargs["port"] == 6379  # made anew


def test_no_module_but_config_redis_makes_a_redis_client():
    """A client made elsewhere would pick its own server and timeouts: the split this module and
    its check exist to prevent (a hub subscribed on one server, news published on another)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    making = re.compile(
        r"\bRedis\(|\bStrictRedis\b|\.from_url\(|\bConnectionPool\b|\bSentinel\(|"
        r"get_redis_connection\(|\bConnection\("
    )
    found = [
        f"{path.relative_to(root)}:{n}"
        for package in ("accounts", "config", "games", "web")
        for path in sorted((root / package).rglob("*.py"))
        if path != root / "config" / "redis.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if making.search(line.split("#", 1)[0])
    ]
    assert found == []


def test_the_live_hub_subscribes_on_the_live_redis_of_the_moment(settings):
    """The hub's subscription comes from config.redis, so it follows REDIS_URL as the check sees it."""
    settings.REDIS_URL = "redis://127.0.0.1:6379/7"
    client = redis_roles.async_subscriber()
    kwargs = client.connection_pool.connection_kwargs
    assert (kwargs["port"], kwargs["db"], kwargs.get("socket_timeout")) == (
        6379,
        7,
        None,
    )  # a quiet channel is no error
    assert kwargs["health_check_interval"] == redis_roles.HEALTH_CHECK_SECONDS
