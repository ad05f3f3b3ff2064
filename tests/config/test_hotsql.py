"""config.hotsql: the hot reads written as SQL give the very instances the ORM would."""
import pytest

from accounts import tokens
from accounts.models import AuthToken
from games.play import access, store
from games.models import Event, Game
from tests.conftest import start_game

pytestmark = pytest.mark.django_db


def columns(instance):
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_game_read_by_hotsql_equals_the_orm_s_with_its_json_columns_decoded(make_player):
    alice, bob = make_player(), make_player()
    game_id = start_game(alice, [bob], kind="duel")
    read = access.get_game(game_id, user=alice.user)
    assert columns(read) == columns(Game.objects.get(pk=game_id))
    assert isinstance(read.options, dict) and isinstance(read.active_seats, list)
    assert not read._state.adding and read._state.db == "default"
    assert access.seat_of(read, alice.user) == 0 and access.seat_of(read, bob.user) == 1


def test_a_token_and_its_user_read_by_hotsql_equal_the_orm_s(make_player):
    alice = make_player()
    found = tokens.find(alice.token)
    orm = AuthToken.objects.select_related("user").get(digest=tokens.digest(alice.token))
    assert columns(found) == columns(orm) and columns(found.user) == columns(orm.user)


def test_events_read_by_hotsql_equal_the_orm_s_in_order_and_bounds(make_player):
    alice, bob = make_player(), make_player()
    game = Game.objects.get(pk=start_game(alice, [bob], kind="duel"))
    orm = list(store.events(game, 1))
    assert [columns(e) for e in store.events_read(game, 1)] == [columns(e) for e in orm]
    assert [e.seq for e in store.events_read(game, 0, limit=2, upto=game.version)] == [1, 2]
    assert store.events_read(game, game.version) == []
    assert all(isinstance(e.data, dict) for e in store.events_read(game))
    assert Event.objects.filter(game=game).count() == game.version


def test_a_new_instance_built_by_hotsql_equals_the_orm_s_and_knows_its_game(make_player, django_assert_num_queries):
    from django.utils import timezone

    from config import hotsql
    from games.models import Delivery, Notification

    alice, bob = make_player(), make_player()
    game = Game.objects.get(pk=start_game(alice, [bob], kind="duel"))
    now = timezone.now()
    values = dict(seq=99, type="CardsTaken", actor=1, data={"move": 3}, created_at=now, idempotency_key=None,
                  request_hash="", user_id=bob.user.pk)
    built = hotsql.new(Event, {"game": game}, game_id=game.pk, **values)
    assert columns(built) == columns(Event(game=game, **values))
    assert built._state.adding and built.pk is None
    with django_assert_num_queries(0):
        assert built.game is game
    # Fields not given take their defaults, as the constructor gives them.
    note = hotsql.new(Notification, user_id=alice.user.pk, game_id=game.pk, type="your_turn", title="t", data={},
                      created_at=now, updated_at=now)
    assert columns(note) == columns(Notification(user_id=alice.user.pk, game=game, type="your_turn", title="t", data={},
                                                 created_at=now, updated_at=now))
    delivery = hotsql.new(Delivery, channel="email", next_attempt_at=now)
    assert (delivery.status, delivery.attempts, delivery.last_error) == (Delivery.Status.PENDING, 0, "")


def prepared(fragment):
    """(generic plans, custom plans) of this connection's prepared statement containing `fragment`."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE %s",
                       [f"%{fragment}%"])
        return cursor.fetchall()


def test_the_hot_statements_are_prepared_and_planned_once_for_every_execution(make_player):
    # The outbox's recipients read (arrays of ids) is the one PostgreSQL would otherwise re-plan
    # at each execution, its custom plans looking cheaper than the generic one.
    from django.db import connection

    from games.notifications import notify

    alice, bob = make_player(), make_player()
    game_id = start_game(alice, [bob])
    game = Game.objects.get(pk=game_id)
    for _ in range(8):
        notify.send([alice.user.pk, bob.user.pk], game, "dispute", {"dispute": 1, "seq": 1, "status": "open"})
    ((generic, custom),) = prepared("WITH unread AS")
    assert (generic >= 8, custom) == (True, 0)
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("force_generic_plan",)


def test_django_s_own_queries_are_not_prepared(make_player):
    alice = make_player()
    list(Game.objects.filter(creator=alice.user).values_list("pk", flat=True)[:1])
    assert prepared('"games_game"."creator_id"') == []


def test_timestamps_read_by_hotsql_are_django_s_values_labelled_utc_as_django_labels_them(make_player):
    import datetime

    from config import hotsql

    alice, bob = make_player(), make_player()
    game_id = start_game(alice, [bob], kind="duel")
    read, orm = access.get_game(game_id, user=alice.user), Game.objects.get(pk=game_id)
    stamps = [name for name in ("created_at", "started_at") if getattr(orm, name) is not None]
    assert stamps == ["created_at", "started_at"]
    for name in stamps:
        assert getattr(read, name) == getattr(orm, name)
        assert getattr(read, name).tzinfo is datetime.timezone.utc is getattr(orm, name).tzinfo
    ((now,),) = hotsql.fetch("SELECT %s::timestamptz", [orm.created_at])
    assert now == orm.created_at and now.tzinfo is datetime.timezone.utc


def test_json_values_read_by_hotsql_come_parsed():
    from config import hotsql

    ((value,),) = hotsql.fetch("SELECT json_build_array(1, 'two', json_build_object('three', 3))", [])
    assert value == [1, "two", {"three": 3}]


def test_a_statement_keeps_one_cursor_per_connection_and_the_kept_cursors_are_bounded(monkeypatch):
    from django.db import connection

    from config import hotsql

    sql = "SELECT %s::int + 1"
    assert hotsql.fetch(sql, [1]) == [(2,)]
    kept = connection.connection._darkroom_cursors
    cursor = kept[sql][0]
    again = "".join(list(sql))  # an equal text, another object
    assert again is not sql and hotsql.fetch(again, [2]) == [(3,)]
    assert kept[sql][0] is cursor and len([s for s in kept if s == sql]) == 1
    assert hotsql.fetch("SELECT %s::int + 2", [1]) == [(3,)]
    assert kept["SELECT %s::int + 2"][0] is not cursor
    monkeypatch.setattr(hotsql, "MAX_KEPT_CURSORS", len(connection.connection._darkroom_cursors))
    assert hotsql.fetch("SELECT %s::int + 3", [1]) == [(4,)]
    assert list(connection.connection._darkroom_cursors) == ["SELECT %s::int + 3"]  # started afresh
