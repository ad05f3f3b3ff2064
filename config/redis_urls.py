"""Redis URLs rewritten for Sentinel (config/settings.py): only what the settings need, no client.

With Sentinel, a URL's host and port mean nothing (the master is wherever the Sentinels say); its
database number and password still do."""

from __future__ import annotations

from urllib.parse import urlsplit


def database(url: str) -> int:
    path = urlsplit(url.split(";")[0]).path.strip("/")
    return int(path) if path.isdigit() else 0


def _password(url: str) -> str:
    parts = urlsplit(url)
    return f":{parts.password}@" if parts.password else ""


def on_master(url: str, master: str) -> str:
    """django-redis's Sentinel form: the master's name as the URL's host."""
    return f"redis://{_password(url)}{master}/{database(url)}"


def sentinel_broker(url: str, sentinels: list[tuple[str, int]]) -> str:
    """Kombu's: one sentinel:// URL per Sentinel, joined by semicolons."""
    return ";".join(f"sentinel://{_password(url)}{host}:{port}/{database(url)}" for host, port in sentinels)
