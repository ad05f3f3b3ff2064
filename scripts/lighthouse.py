"""`make lighthouse`: Lighthouse on the front page, the lobby and a game page, desktop and mobile.

It measures the server at LIGHTHOUSE_URL (default: `make run`'s http://127.0.0.1:8000): a guest
account and a game of Photograph against the computer are made through the API for the lobby and
the game page, then tests/lighthouse/run.mjs drives Debian's chromium (CHROME_PATH). Reports go to
tests/lighthouse/reports/ (one HTML report per page and form factor, and scores.json)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent.parent / "tests" / "lighthouse"


def main() -> int:
    base = os.environ.get("LIGHTHOUSE_URL", "http://127.0.0.1:8000").rstrip("/")
    guest = httpx.post(f"{base}/api/v1/accounts/guest/", json={"device": "lighthouse"}, timeout=30)
    guest.raise_for_status()
    token = guest.json()["token"]
    game = httpx.post(
        f"{base}/api/v1/games/",
        headers={"Authorization": f"Token {token}"},
        timeout=30,
        json={"kind": "photograph", "seats": 2, "bots": [2]},
    )
    game.raise_for_status()
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    return subprocess.call(["node", "run.mjs", base, token, game.json()["id"], "reports"], cwd=HERE, env=env)


if __name__ == "__main__":
    sys.exit(main())
