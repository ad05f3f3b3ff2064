"""Writes in bulk (games/play/bulk.py): several writes as one statement, all or nothing."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.play import bulk
from games.models import Game, Snapshot
from tests.conftest import start_game


@pytest.fixture
def game(alice, bob):
    return Game.objects.get(pk=start_game(alice, [bob]))


def test_an_insert_and_an_update_run_as_one_statement(game):
    game.rated = not game.rated
    with CaptureQueriesContext(connection) as captured:
        bulk.write(
            bulk.insert_sql(
                Snapshot, ["game", "version", "state", "created_at"], [[game.pk, 90, {"reel": [1]}, timezone.now()]]
            ),
            bulk.update_sql(Game, ["rated"], [game]),
        )
    assert len(captured.captured_queries) == 1
    assert Snapshot.objects.get(game=game, version=90).state == {"reel": [1]}
    assert Game.objects.get(pk=game.pk).rated == game.rated


def test_when_one_part_fails_no_part_is_written(game):
    Snapshot.objects.create(game=game, version=91, state={})
    before = Game.objects.get(pk=game.pk).rated
    game.rated = not before
    with pytest.raises(IntegrityError), transaction.atomic():
        bulk.write(
            bulk.update_sql(Game, ["rated"], [game]),
            bulk.insert_sql(
                Snapshot, ["game", "version", "state", "created_at"], [[game.pk, 91, {"again": True}, timezone.now()]]
            ),
        )
    assert Game.objects.get(pk=game.pk).rated == before
    assert Snapshot.objects.get(game=game, version=91).state == {}


def test_parts_with_nothing_to_write_are_left_out(game):
    with CaptureQueriesContext(connection) as captured:
        bulk.write(bulk.insert_sql(Snapshot, ["game", "version", "state", "created_at"], []), None)
    assert captured.captured_queries == []
