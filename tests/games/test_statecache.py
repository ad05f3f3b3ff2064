"""The state cache's two layers (games/play/statecache.py): this process's memory, then Redis. A state
enters them only once its write commits; every reader gets its own copy; memory is bounded."""

import json
import uuid

import pytest
import redis
from django.db import transaction

from config import jsoncodec
from games.play import statecache


@pytest.fixture(autouse=True)
def empty_memory():
    statecache.forget_all_in_memory()
    yield
    statecache.forget_all_in_memory()


def drop_shared(name):
    statecache.client().delete(statecache.shared_key(name))


def name():
    return statecache.key(uuid.uuid4(), 7)


@pytest.mark.django_db(transaction=True)
def test_a_committed_state_is_read_from_memory_without_asking_redis():
    key = name()
    with transaction.atomic():
        statecache.put_after_commit({key: jsoncodec.dumps({"reel": [1, 2]})})
    assert json.loads(statecache.shared(key)) == {"reel": [1, 2]}  # shared with the other processes
    drop_shared(key)  # Redis forgets it: this process still knows it
    assert json.loads(statecache.get(key)) == {"reel": [1, 2]}


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_write_leaves_its_state_in_neither_layer():
    key = name()
    with pytest.raises(RuntimeError), transaction.atomic():
        statecache.put_after_commit({key: jsoncodec.dumps({"never": "committed"})})
        raise RuntimeError("the move failed after its state was computed")
    assert statecache.in_memory(key) is None
    assert statecache.shared(key) is None
    assert statecache.get(key) is None


@pytest.mark.django_db(transaction=True)
def test_a_state_another_process_cached_is_kept_in_memory_once_read():
    key = name()
    # As another web process or the worker wrote it:
    statecache.client().set(statecache.shared_key(key), jsoncodec.dumps({"sunset": 3}))
    assert statecache.in_memory(key) is None
    assert json.loads(statecache.get(key)) == {"sunset": 3}
    assert statecache.in_memory(key) == jsoncodec.dumps({"sunset": 3})
    drop_shared(key)


@pytest.mark.django_db(transaction=True)
def test_many_states_come_from_memory_and_redis_together():
    here, there, nowhere = name(), name(), name()
    with transaction.atomic():
        statecache.put_after_commit({here: b'"here"'})
    drop_shared(here)
    statecache.client().set(statecache.shared_key(there), b'"there"')
    assert statecache.get_many([here, there, nowhere]) == {here: b'"here"', there: b'"there"'}
    drop_shared(there)


@pytest.mark.django_db(transaction=True)
def test_each_reader_gets_its_own_copy_of_a_state():
    key = name()
    with transaction.atomic():
        statecache.put_after_commit({key: jsoncodec.dumps({"hand": ["a"]})})
    first = json.loads(statecache.get(key))
    first["hand"].append("changed by a reader")
    assert json.loads(statecache.get(key)) == {"hand": ["a"]}
    drop_shared(key)


@pytest.mark.django_db(transaction=True)
def test_memory_keeps_the_most_recently_used_states_up_to_its_size(settings):
    settings.STATE_MEMORY_ENTRIES = 2
    a, b, c = name(), name(), name()
    with transaction.atomic():
        statecache.put_after_commit({a: b'"a"', b: b'"b"'})
    statecache.get(a)  # a is now the most recently used
    with transaction.atomic():
        statecache.put_after_commit({c: b'"c"'})
    assert [statecache.in_memory(k) for k in (a, b, c)] == [b'"a"', None, b'"c"']
    for k in (a, b, c):
        drop_shared(k)


@pytest.mark.django_db(transaction=True)
def test_memory_of_size_zero_keeps_nothing(settings):
    settings.STATE_MEMORY_ENTRIES = 0
    key = name()
    with transaction.atomic():
        statecache.put_after_commit({key: b'"x"'})
    assert statecache.in_memory(key) is None
    assert statecache.get(key) == b'"x"'  # Redis still has it
    assert statecache.in_memory(key) is None
    drop_shared(key)


@pytest.mark.django_db(transaction=True)
def test_forget_drops_a_state_from_both_layers():
    key = name()
    game_id = key.split(":")[1]
    with transaction.atomic():
        statecache.put_after_commit({key: b'"x"'})
    statecache.forget(game_id, 7)
    assert statecache.in_memory(key) is None and statecache.shared(key) is None


@pytest.mark.django_db(transaction=True)
def test_the_states_and_the_news_of_a_write_go_out_together_after_commit():
    key = name()
    listener = statecache.client().pubsub()
    listener.subscribe("darkroom-test-news")
    listener.get_message(timeout=1)  # the subscription's confirmation
    with transaction.atomic():
        statecache.put_after_commit({key: b'"s"'}, [("darkroom-test-news", "12")])
        assert statecache.shared(key) is None  # nothing before the commit
        assert listener.get_message(timeout=0.2) is None
    message = listener.get_message(timeout=2)
    assert (message["channel"], message["data"]) == (b"darkroom-test-news", b"12")
    assert statecache.shared(key) == b'"s"'
    listener.close()
    drop_shared(key)


@pytest.mark.django_db(transaction=True)
def test_with_redis_away_a_write_still_commits_and_its_state_is_kept_in_memory(settings):
    # The cache's Redis is one nobody listens on (port 1), as when Redis is down.
    settings.CACHES = {
        "default": {
            **settings.CACHES["default"],
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "SOCKET_TIMEOUT": 0.2},
        }
    }
    key = name()
    with transaction.atomic():
        statecache.put_after_commit({key: b'"kept"'}, [("darkroom-test-news", "1")])
    assert statecache.get(key) == b'"kept"'  # from memory
    other = name()
    assert statecache.get(other) is None  # a miss, not an error: the caller loads from the database
    with pytest.raises(redis.ConnectionError):
        statecache.shared(key)  # Redis was away all along: what `get` found came from memory
