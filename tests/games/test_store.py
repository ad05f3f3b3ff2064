"""The event store: append-only in PostgreSQL itself, gap-free, and snapshots that always agree
with a full replay."""

import json

import pytest
from django.core.cache import cache
from django.db import DatabaseError, connection, transaction

from games.play import projection, statecache, store
from games.errors import VersionConflict
from games.models import Event, Game, Snapshot
from games.play.store import NewEvent


def play_to_the_end(game_id, players):
    while True:
        game = players[0].game(game_id)
        if game["status"] != "active":
            return game
        seat = game["active_seats"][0]
        moves = players[seat].get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert players[seat].move(game_id, moves["moves"][-1], moves["version"]).status_code == 201


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE games_event SET type = 'Forged' WHERE game_id = %s",
        "UPDATE games_event SET data = '{}'::jsonb WHERE game_id = %s",
        "DELETE FROM games_event WHERE game_id = %s",
    ],
)
def test_raw_sql_cannot_change_or_delete_events(duel, sql):
    before = list(Event.objects.filter(game_id=duel).values_list("seq", "type", "data"))
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [duel])
    assert list(Event.objects.filter(game_id=duel).values_list("seq", "type", "data")) == before


@pytest.mark.django_db(transaction=True)
def test_raw_sql_cannot_truncate_events(duel):
    """Committed events (a TRUNCATE inside the inserting transaction fails for another reason),
    on a connection without the test-only door's setting, as every production connection is."""
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL darkroom.allow_truncate = 'off'")
            cursor.execute("TRUNCATE games_event CASCADE")
    assert Event.objects.filter(game_id=duel).count() == 4


def test_skipping_triggers_by_replication_role_does_not_work_either(duel):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute("DELETE FROM games_event WHERE game_id = %s", [duel])


@pytest.mark.django_db(transaction=True)
def test_the_test_only_truncate_door_needs_its_setting(duel):
    """The test settings open the door on every connection; with the setting off it is shut."""
    with pytest.raises(DatabaseError):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL darkroom.allow_truncate = 'off'")
            cursor.execute("TRUNCATE games_event CASCADE")
    assert Event.objects.filter(game_id=duel).count() == 4


def test_append_with_a_stale_version_conflicts_and_writes_nothing(duel):
    from django.utils import timezone

    game = Game.objects.get(pk=duel)
    with pytest.raises(VersionConflict) as conflict:
        with transaction.atomic():
            store.append(game, game.version - 1, [NewEvent("Noted", {})], timezone.now())
    assert conflict.value.current == game.version
    assert Event.objects.filter(game=game).count() == game.version


def test_seq_is_gap_free_and_the_version_is_the_last_seq(alice, bob, duel):
    play_to_the_end(duel, {0: alice, 1: bob})
    seqs = list(Event.objects.filter(game_id=duel).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert Game.objects.get(pk=duel).version == seqs[-1]


def test_snapshots_and_the_cache_agree_with_a_full_replay_at_every_version(alice, bob, duel):
    play_to_the_end(duel, {0: alice, 1: bob})
    game = Game.objects.get(pk=duel)
    assert Snapshot.objects.filter(game=game).count() >= 2  # SNAPSHOT_EVERY is 5 in tests
    for version in range(game.version + 1):
        full = store.replay_from_scratch(game, version)
        statecache.forget(game.pk, version)
        from_snapshot = store.state_at(game, version)
        assert json.dumps(from_snapshot, sort_keys=True) == json.dumps(full, sort_keys=True)
        assert json.dumps(store.state_at(game, version), sort_keys=True) == json.dumps(full, sort_keys=True)


def test_loading_replays_only_the_tail_after_the_latest_snapshot(alice, bob, duel, django_assert_max_num_queries):
    play_to_the_end(duel, {0: alice, 1: bob})
    game = Game.objects.get(pk=duel)
    cache.clear()
    statecache.forget_all_in_memory()
    snapshot = Snapshot.objects.filter(game=game).order_by("-version").first()
    tail = Event.objects.filter(game=game, seq__gt=snapshot.version).count()
    assert tail < game.version
    with django_assert_max_num_queries(3):  # snapshot + tail events, no per-event query
        store.state_at(game)


def test_many_states_load_from_snapshots_and_tails_when_the_cache_is_cold(alice, bob, django_assert_max_num_queries):
    """The sweeper's batch load: two queries for every missing game, each state as a full replay."""
    from tests.conftest import start_game

    ids = [start_game(alice, [bob]) for _ in range(3)]
    play_to_the_end(ids[0], {0: alice, 1: bob})  # snapshots and a tail after them
    moves = alice.get(f"/api/v1/games/{ids[1]}/legal-moves/").json()
    if moves["moves"]:
        alice.move(ids[1], moves["moves"][0], moves["version"])
    games = list(Game.objects.filter(pk__in=ids))
    for game in games:
        statecache.forget(game.pk, game.version)
    with django_assert_max_num_queries(3 + len(games)):  # cache, snapshots, tails (+ a seed per start replayed)
        loaded = store.states_of(games)
    assert {str(pk) for pk in loaded} == set(ids)
    for game in games:
        assert json.dumps(loaded[game.pk], sort_keys=True) == json.dumps(
            store.replay_from_scratch(game), sort_keys=True
        )


def test_a_corrupt_snapshot_is_caught_by_comparing_with_a_full_replay(alice, bob, duel):
    """The comparison is what guards the snapshot path: prove it can fail."""
    play_to_the_end(duel, {0: alice, 1: bob})
    game = Game.objects.get(pk=duel)
    snapshot = Snapshot.objects.filter(game=game).order_by("-version").first()
    snapshot.state = {**snapshot.state, "tricks": [99, 99]}
    snapshot.save()
    cache.clear()
    statecache.forget_all_in_memory()
    assert store.state_at(game, snapshot.version) != store.replay_from_scratch(game, snapshot.version)


def test_the_game_projection_can_be_rebuilt_from_the_events(alice, bob, duel):
    play_to_the_end(duel, {0: alice, 1: bob})
    game = Game.objects.get(pk=duel)
    rebuilt = projection.rebuild_projection(game)
    assert rebuilt == {
        "version": game.version,
        "status": game.status,
        "active_seats": game.active_seats,
        "result": game.result,
    }


def test_the_seed_is_in_the_first_event_and_its_hash_public_from_the_start(alice, duel):
    first = Event.objects.get(game_id=duel, seq=1)
    assert first.type == "GameCreated" and len(first.data["seed"]) == 64
    assert store.seed_hash(first.data["seed"]) == alice.game(duel)["seed_hash"]
    assert alice.game(duel)["seed"] is None
