"""docs/curl-walkthrough.sh runs against a live server: the walkthrough cannot drift from the API."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from games.models import Game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_the_curl_walkthrough_plays_a_whole_game_against_a_live_server(live_server):
    assert shutil.which("curl"), "curl is needed to run the walkthrough"
    result = subprocess.run(
        ["bash", str(ROOT / "docs" / "curl-walkthrough.sh")],
        cwd=ROOT,
        env={**os.environ, "API": f"{live_server.url}/api/v1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "sha256(seed) == seed_hash" in result.stdout
    game = Game.objects.get()
    assert game.status == "finished" and game.kind == "pickpic"
    assert f"Done: game {game.pk} finished" in result.stdout
