"""Backups that restore (docs/operations.md, "Backups"): a logical dump of a database with games
in every state, restored into a fresh database by pg_restore, replays every game to the same row
and snapshots (`manage.py verify_games`); a restored game whose row was changed is named."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

import psycopg
import pytest
from django.db import connection

from accounts.models import Rating
from games.models import Game, Snapshot
from tests.accounts.test_ratings import play_out
from tests.conftest import start_game
from tests.worker import ROOT

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (shutil.which("pg_dump") and shutil.which("pg_restore")), reason="needs PostgreSQL's pg_dump and pg_restore"
    ),
]


def dsn(name: str) -> str:
    params = connection.settings_dict
    return (
        f"postgresql://{params['USER'] or 'postgres'}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}/{name}"
    )


def some_moves(game_id, players, count):
    by_seat = {p.game(game_id)["your_seat"]: p for p in players}
    for _ in range(count):
        game = by_seat[0].game(game_id)
        if game["status"] != "active":
            return
        seat = game["active_seats"][0]
        listed = by_seat[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert by_seat[seat].move(game_id, listed["moves"][0], listed["version"]).status_code == 201


def verify(database: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": dsn(database), "DJANGO_SETTINGS_MODULE": "tests.settings"}
    return subprocess.run(
        [sys.executable, "manage.py", "verify_games"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def restored():
    """A fresh database with the test database's pg_dump restored into it by pg_restore."""
    name = f"darkroom_restore_{os.getpid()}"
    with psycopg.connect(dsn("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    dump = tempfile.NamedTemporaryFile(prefix="darkroom-", suffix=".dump", delete=False).name

    def restore() -> str:
        subprocess.run(
            ["pg_dump", "--format=custom", "--file", dump, dsn(connection.settings_dict["NAME"])],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "--dbname", dsn(name), dump],
            check=True,
            capture_output=True,
        )
        return name

    yield restore
    os.unlink(dump)
    with psycopg.connect(dsn("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restored_dump_replays_every_game_to_its_row_and_snapshots(settings, restored, alice, bob, carol):
    settings.SNAPSHOT_EVERY = 3  # snapshots to check too
    finished = start_game(alice, [bob], options={"hand_size": 2})
    assert play_out(finished, [alice, bob])["status"] == "finished"
    assert Rating.objects.filter(kind="duel").count() == 2
    for kind in ("pickpic", "photograph", "provence", "photoshoot"):
        some_moves(
            start_game(alice, [bob, carol] if kind == "pickpic" else [bob], kind=kind),
            [alice, bob, carol] if kind == "pickpic" else [alice, bob],
            4,
        )
    assert alice.post("/api/v1/games/", {"kind": "duel", "options": {}}).status_code == 201  # still open
    games = Game.objects.count()
    assert set(Game.objects.values_list("status", flat=True)) == {"open", "active", "finished"}

    assert Snapshot.objects.exists()
    database = restored()
    checked = verify(database)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == f"{games} games replayed: each agrees with its events"

    with psycopg.connect(dsn(database), autocommit=True) as conn:  # a row the restore got wrong
        conn.execute("UPDATE games_game SET status = 'active', result = NULL WHERE id = %s", [finished])
    checked = verify(database)
    assert checked.returncode == 1
    assert f"game {finished}: status is 'active', its events say 'finished'" in checked.stderr
    assert f"1 of {games} games disagree with their events" in checked.stderr
