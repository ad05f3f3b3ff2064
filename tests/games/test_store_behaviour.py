"""The store's loading promises, pinned one by one (mutation testing found them unstated): when a
snapshot is written, what the cache holds after a write, many games' states at once, and the
event listing's window."""

import json
import time

from django.utils import timezone

from games.play import statecache, store
from games.models import Event, Game, Snapshot
from games.play.store import NewEvent


def noted(game_id, count, state=None, captured=None):
    """Append `count` server events (a dispute resolved: replay leaves the state as it is)."""
    game = Game.objects.get(pk=game_id)
    store.append(
        game, game.version, [NewEvent(store.DISPUTE_RESOLVED, {}) for _ in range(count)], timezone.now(), state
    )
    return game


def test_a_snapshot_is_written_each_time_the_version_crosses_a_multiple_of_five(duel):
    # SNAPSHOT_EVERY is 5 in the test settings; the started duel is at version 4, with none yet.
    assert Game.objects.get(pk=duel).version == 4 and not Snapshot.objects.filter(game_id=duel).exists()
    noted(duel, 1)  # 5: crosses
    noted(duel, 3)  # 8: does not
    noted(duel, 3)  # 11: crosses 10
    game = Game.objects.get(pk=duel)
    snapshots = list(Snapshot.objects.filter(game=game).order_by("version").values_list("version", "state"))
    assert [version for version, _ in snapshots] == [5, 11]
    for version, state in snapshots:  # events that bring no state still get a true snapshot
        assert json.dumps(state, sort_keys=True) == json.dumps(store.replay_from_scratch(game, version), sort_keys=True)


def test_an_open_game_has_no_state_and_no_snapshot(alice, bob, carol):
    game_id = alice.post("/api/v1/games/", {"kind": "pickpic"}).json()["id"]
    for player in (bob, carol):
        player.post(f"/api/v1/games/{game_id}/join/")
    noted(game_id, 5)
    game = Game.objects.get(pk=game_id)
    assert game.status == "open" and game.version == 9  # created, three joins, five notes
    assert store.state_at(game) is None
    assert not Snapshot.objects.filter(game=game).exists()


def test_the_state_a_write_brings_is_cached_under_its_game_and_version(duel, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = noted(duel, 2, state={"brought": "by the write"})
    assert game.version == 6
    assert json.loads(statecache.shared(f"state:{duel}:6")) == {"brought": "by the write"}
    assert store.state_at(game) == {"brought": "by the write"}  # the cache is read first
    assert store.replay_from_scratch(game) != {"brought": "by the write"}  # replay ignores it
    statecache.forget(duel, 6)


def test_without_a_state_nothing_is_cached_before_the_next_snapshot(duel, django_capture_on_commit_callbacks):
    noted(duel, 1)  # 5: a snapshot (and its cache entry)
    with django_capture_on_commit_callbacks(execute=True):
        game = noted(duel, 1)  # 6: neither
    assert statecache.shared(f"state:{duel}:6") is None
    assert store.state_at(game) == store.replay_from_scratch(game)


def second_duel(alice, bob):
    other = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    bob.post(f"/api/v1/games/{other}/join/")
    alice.post(f"/api/v1/games/{other}/start/")
    return other


def test_the_states_of_many_games_are_each_game_s_latest(alice, bob, duel):
    other = second_duel(alice, bob)  # both at version 4: the same version, different games
    alice.move(other, {"type": "play", "card": alice.game(other)["state"]["hand"][0]})
    noted(duel, 1)
    games = list(Game.objects.filter(pk__in=[duel, other]))
    assert {game.version for game in games} == {5}
    statecache.forget(duel, 5)  # one miss, one hit
    states = store.states_of(games)
    assert set(map(str, states)) == {duel, other}
    for game in games:
        assert json.dumps(states[game.pk], sort_keys=True) == json.dumps(
            store.replay_from_scratch(game), sort_keys=True
        )
    assert states[games[0].pk] != states[games[1].pk]


def test_cached_states_of_many_games_cost_no_query(alice, bob, duel, django_assert_num_queries):
    other = second_duel(alice, bob)
    games = list(Game.objects.filter(pk__in=[duel, other]))
    expected = {game.pk: store.replay_from_scratch(game) for game in games}
    for game in games:
        statecache.client().set(
            statecache.shared_key(store._cache_key(game.pk, game.version)), json.dumps(expected[game.pk])
        )
    with django_assert_num_queries(0):
        assert store.states_of(games) == expected


def test_the_events_after_a_number_come_in_order_and_at_most_the_limit(alice, bob, duel):
    second_duel(alice, bob)  # another game's events are not this one's
    game = noted(duel, 4)  # version 8
    assert [e.seq for e in store.events(game)] == list(range(1, 9))
    assert [e.seq for e in store.events(game, after=3)] == [4, 5, 6, 7, 8]
    assert [e.seq for e in store.events(game, after=3, limit=2)] == [4, 5]
    assert list(store.events(game, after=8)) == []
    assert all(isinstance(e, Event) for e in store.events(game, limit=1))


def test_an_append_sets_the_game_columns_it_is_given_with_the_version(duel):
    game = Game.objects.get(pk=duel)
    store.append(
        game,
        game.version,
        [NewEvent(store.GAME_CANCELLED, {})],
        timezone.now(),
        status=Game.Status.CANCELLED,
        active_seats=[],
    )
    stored = Game.objects.get(pk=duel)
    assert (stored.version, stored.status, stored.active_seats) == (5, "cancelled", [])


def test_an_event_records_the_user_who_caused_it(alice, duel):
    game = Game.objects.get(pk=duel)
    store.append(game, game.version, [NewEvent(store.DISPUTE_OPENED, {}, user_id=alice.user.pk)], timezone.now())
    assert Event.objects.get(game=game, seq=5).user_id == alice.user.pk


def test_one_write_for_two_games_moves_both(alice, bob, duel):
    other = second_duel(alice, bob)
    games = [Game.objects.get(pk=duel), Game.objects.get(pk=other)]
    store.append_many(
        [store.Append(game, game.version, [NewEvent(store.DISPUTE_RESOLVED, {})], timezone.now()) for game in games]
    )
    assert [Game.objects.get(pk=game.pk).version for game in games] == [5, 5]
    assert [Event.objects.filter(game=game).count() for game in games] == [5, 5]


def test_a_state_brought_between_snapshots_is_cached_too(duel, django_capture_on_commit_callbacks):
    noted(duel, 1)  # 5: a snapshot
    with django_capture_on_commit_callbacks(execute=True):
        noted(duel, 1, state={"between": "snapshots"})  # 6: no snapshot due
    assert json.loads(statecache.shared(f"state:{duel}:6")) == {"between": "snapshots"}
    statecache.forget(duel, 6)


def test_one_write_for_two_games_tells_each_game_its_version_and_each_mover_after_commit(
    alice, bob, duel, django_capture_on_commit_callbacks
):
    """The sweeper's batch write announces, per game, the new version on the game's channel and
    the game on the streams of those who caused its events; and counts the moves by kind."""
    from config.metrics import MOVES
    from games.realtime import channels

    other = second_duel(alice, bob)
    games = [Game.objects.get(pk=duel), Game.objects.get(pk=other)]
    names = [
        channels.channel(duel),
        channels.channel(other),
        channels.user_channel(alice.user.pk),
        channels.user_channel(bob.user.pk),
    ]
    moves_before = MOVES.labels("duel", "false")._value.get()
    listener = channels.client().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(*names)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            store.append_many(
                [
                    store.Append(
                        games[0],
                        games[0].version,
                        [NewEvent("Moved", {}, actor=0, user_id=alice.user.pk)],
                        timezone.now(),
                        store.state_at(games[0]),
                    ),
                    store.Append(
                        games[1],
                        games[1].version,
                        [NewEvent("Moved", {}, actor=1, user_id=bob.user.pk)],
                        timezone.now(),
                        store.state_at(games[1]),
                    ),
                ]
            )
        heard, deadline = set(), time.monotonic() + 10
        while len(heard) < 4 and time.monotonic() < deadline:
            message = listener.get_message(timeout=1)  # None: nothing yet, or a subscription's ack
            if message is None:
                continue
            heard.add(
                (
                    message["channel"].decode() if isinstance(message["channel"], bytes) else message["channel"],
                    message["data"].decode() if isinstance(message["data"], bytes) else message["data"],
                )
            )
    finally:
        listener.close()
    # a game's message: its version, then the write's events riding with it (news.ride)
    rides = {name: json.loads(data.partition(" ")[2]) for name, data in heard if " " in data}
    assert {(name, data.partition(" ")[0]) for name, data in heard} == {
        (channels.channel(duel), "5"),
        (channels.channel(other), "5"),
        (channels.user_channel(alice.user.pk), str(duel)),
        (channels.user_channel(bob.user.pk), str(other)),
    }
    assert [(e["seq"], e["type"], e["actor"]) for e in rides[channels.channel(duel)]["events"]] == [(5, "Moved", 0)]
    assert [(e["seq"], e["type"], e["actor"]) for e in rides[channels.channel(other)]["events"]] == [(5, "Moved", 1)]
    assert MOVES.labels("duel", "false")._value.get() == moves_before + 2


def test_the_events_read_for_a_page_are_this_game_s_after_one_number_up_to_another_at_most_limit(alice, bob, duel):
    from tests.conftest import start_game

    start_game(bob, [alice])  # another game's events are never among them
    game = noted(duel, 3)  # version 7: four events of the start, three notes

    def seqs(*args, **kwargs):
        return [e.seq for e in store.events_read(game, *args, **kwargs)]

    assert seqs() == [1, 2, 3, 4, 5, 6, 7]
    assert seqs(2) == [3, 4, 5, 6, 7]
    assert seqs(2, upto=5) == [3, 4, 5]
    assert seqs(2, limit=2) == [3, 4]
    assert seqs(2, limit=2, upto=3) == [3]
    assert seqs(7) == [] and seqs(2, upto=2) == []
    fields = [
        "game_id",
        "seq",
        "type",
        "actor",
        "data",
        "created_at",
        "idempotency_key",
        "request_hash",
        "user_id",
        "id",
    ]
    orm = Event.objects.filter(game=game).order_by("seq")
    assert [[getattr(e, f) for f in fields] for e in store.events_read(game)] == [
        [getattr(e, f) for f in fields] for e in orm
    ]


def test_the_state_a_write_cached_is_read_back_without_a_query(
    duel, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        game = noted(duel, 1, state={"cached": "by the write"})  # version 5
    with django_assert_num_queries(0):
        assert store.state_at(game) == {"cached": "by the write"}
    statecache.forget(duel, 5)


def test_a_state_not_cached_costs_two_queries_its_snapshot_and_the_events_after_it(duel, django_assert_num_queries):
    noted(duel, 1)  # version 5: a snapshot (the cache is only written after commit)
    game = noted(duel, 2)  # version 7
    expected = store.replay_from_scratch(game)
    with django_assert_num_queries(2):
        assert store.state_at(game) == expected


def test_many_games_states_are_loaded_from_each_game_s_latest_snapshot_on(alice, bob, duel):
    """The snapshots' states are marked (a write may bring any state): what comes back shows which
    snapshot each game was loaded from, and that the events before it were not replayed again."""
    other = second_duel(alice, bob)
    noted(duel, 1, state={"snapshot": 5})  # version 5: a snapshot
    noted(duel, 5, state={"snapshot": 10})  # version 10: the latest snapshot
    noted(duel, 2)  # version 12: two events after it
    noted(other, 1, state={"snapshot": "other"})
    games = list(Game.objects.filter(pk__in=[duel, other]))
    assert store.states_of(games) == {
        Game.objects.get(pk=duel).pk: {"snapshot": 10},
        Game.objects.get(pk=other).pk: {"snapshot": "other"},
    }
