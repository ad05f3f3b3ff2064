"""The third-party example bot (examples/http_bot.py), as docs/bots.md tells a reader to run it:
its typed client generated from a live server's document, then two copies of it, one per
account, playing a whole 2-player Photograph against each other over HTTP until it ends."""

from __future__ import annotations

import subprocess
import sys

import pytest

from games.models import Event, Game
from tests.worker import ROOT

pytestmark = pytest.mark.django_db(transaction=True)
BOT = ROOT / "examples" / "http_bot.py"
PASSWORD = "correct horse battery"  # make_player's


def test_two_example_bots_play_a_whole_photograph_over_http(server, make_player, tmp_path):
    said = subprocess.run(
        [sys.executable, str(BOT), "generate", "--server", server.url, "--client-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert said.returncode == 0, said.stderr
    assert (tmp_path / "darkroom_client" / "api" / "games" / "games_moves_create.py").exists()
    first, second = make_player("bot-one"), make_player("bot-two")
    created = first.post("/api/v1/games/", {"kind": "photograph", "seats": 2})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert second.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    assert first.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    bots = [
        subprocess.Popen(
            [
                sys.executable,
                str(BOT),
                "play",
                "--server",
                server.url,
                "--client-dir",
                str(tmp_path),
                "--username",
                player.user.username,
                "--password",
                PASSWORD,
                "--level",
                str(level),
                "--until-finished",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for player, level in ((first, 1), (second, 2))
    ]
    try:
        outputs = [bot.communicate(timeout=240) for bot in bots]
    finally:
        for bot in bots:
            bot.kill()
    for bot, (out, err) in zip(bots, outputs):
        assert bot.returncode == 0, f"{out}\n{err}\n{server.output()[-2000:]}"
        assert " moves, " in out and not err.strip(), (out, err)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    moves = Event.objects.filter(game=game, actor__isnull=False).exclude(type="PlayerJoined")
    # every move was the bots' own, each posted with an Idempotency-Key, none a timeout's
    assert moves.count() > 5 and not Event.objects.filter(game=game, type="TimerExpired").exists()
    assert all(e.idempotency_key for e in moves), [e.type for e in moves if not e.idempotency_key]
    assert {e.user_id for e in moves} == {first.user.pk, second.user.pk}
