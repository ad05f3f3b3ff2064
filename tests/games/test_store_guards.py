"""The store's promises that no other test pins down: a version ahead of the game is as wrong as
one behind it, a writer that skipped the row lock still cannot fork history, and a forfeit replays
the same with no cache or snapshot to lean on."""

import json

import pytest
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.play import store
from games.errors import VersionConflict
from games.models import Event, Game, Snapshot
from games.play.store import NewEvent
from tests.conftest import start_game


def test_append_ahead_of_the_game_conflicts_and_leaves_no_gap(duel):
    game = Game.objects.get(pk=duel)
    before = game.version
    with pytest.raises(VersionConflict) as conflict:
        with transaction.atomic():
            store.append(game, before + 1, [NewEvent(store.DISPUTE_RESOLVED, {})], timezone.now())
    assert conflict.value.current == before
    assert list(Event.objects.filter(game_id=duel).order_by("seq").values_list("seq", flat=True)) == list(
        range(1, before + 1)
    )
    assert Game.objects.get(pk=duel).version == before


def test_a_writer_that_lost_the_race_without_the_lock_gets_the_current_version(duel):
    """Two Game objects read at the same version: the second append collides on (game, seq) and
    is a conflict that writes nothing (the unique constraint is the backstop behind the row lock)."""
    first, second = Game.objects.get(pk=duel), Game.objects.get(pk=duel)
    start = first.version
    with transaction.atomic():
        store.append(
            first,
            start,
            [NewEvent(store.DISPUTE_RESOLVED, {"by": "first"}), NewEvent(store.DISPUTE_RESOLVED, {})],
            timezone.now(),
        )
    with pytest.raises(VersionConflict) as conflict:
        with transaction.atomic():
            store.append(second, start, [NewEvent(store.DISPUTE_RESOLVED, {"by": "second"})], timezone.now())
    assert conflict.value.current == start  # the version the writer decided on: stale, so it reloads
    assert not Event.objects.filter(game_id=duel, data__by="second", type=store.DISPUTE_RESOLVED).exists()


@pytest.mark.django_db(transaction=True)
def test_a_forfeit_replays_identically_with_no_cache_and_no_snapshot(alice, bob, carol):
    """Forfeit a seat in a game that goes on, then drop every cache entry and snapshot: the state
    rebuilt from the events alone is the one the server had."""
    from datetime import timedelta

    from games.play import deadlines

    game_id = start_game(
        alice,
        [bob, carol],
        kind="pickpic",
        options={"time_control": "per_move", "move_seconds": 60, "timeout_policy": "forfeit"},
    )
    game = Game.objects.get(pk=game_id)
    Game.objects.filter(pk=game_id).update(next_deadline=timezone.now() - timedelta(seconds=1))
    clocks = game.clocks  # only seat 0 has run out of time: the other two play on
    clocks["seats"]["0"]["since"] = (timezone.now() - timedelta(seconds=120)).isoformat()
    Game.objects.filter(pk=game_id).update(clocks=clocks)
    # The expiry, the forfeit, and the cards the forfeited seat must still give (played for it).
    assert deadlines.expire_due(game_id) == 3
    assert list(Event.objects.filter(game=game).order_by("seq").values_list("type", flat=True))[-3:] == [
        "TimerExpired",
        store.SEAT_FORFEITED,
        "CardsGiven",
    ]
    game.refresh_from_db()
    assert game.status == "active"
    assert [e.data["seat"] for e in Event.objects.filter(game=game, type=store.SEAT_FORFEITED)] == [0]
    served = json.dumps(store.state_at(game), sort_keys=True)
    cache.clear()
    Snapshot.objects.filter(game=game).delete()
    rebuilt = store.state_at(game)
    assert json.dumps(rebuilt, sort_keys=True) == served
    assert set(rebuilt["_forfeited"]) == {
        e.data["seat"] for e in Event.objects.filter(game=game, type=store.SEAT_FORFEITED)
    }
