"""Model instances from SQL written once, for the few reads every request makes.

Django compiles a query's SQL afresh on every call: profiled on the move loop, about 0.8 ms of CPU
per query against 0.15 ms for running the same SQL through a cursor, and a move loop ran eleven
such queries (the token, the game three times, the seats...). The hot reads keep their SQL here,
built from the models' own metadata (so a new column is picked up), and turn rows into the same
instances the ORM would: the fields' `from_db_value` applied, then `Model.from_db`. What runs
through `fetch` and `execute` is prepared once per connection (see `_run`).
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from psycopg.adapt import Loader
from psycopg.pq import Format

from config import jsoncodec


def _json_from_db(value, expression, connection):
    """JSONField.from_db_value (Django has psycopg hand jsonb over as text), by orjson: the game
    row's four JSON columns are read on every request of the move loop. Text neither parses stays
    text, as with Django."""
    if value is None:
        return None
    try:
        return jsoncodec.loads(value)
    except ValueError:
        return value


def _converter(field):
    if isinstance(field, JSONField) and field.decoder is None:
        return _json_from_db
    return field.from_db_value


@cache
def _shape(model: type[Model]) -> tuple[tuple[str, ...], tuple[tuple[int, Any], ...]]:
    fields = model._meta.concrete_fields
    converters = tuple((i, _converter(f)) for i, f in enumerate(fields) if hasattr(f, "from_db_value"))
    return tuple(f.attname for f in fields), converters


@cache
def columns(model: type[Model], alias: str) -> str:
    """The model's columns, in the order `load` expects them, for a SELECT list."""
    return ", ".join(f'{alias}."{f.column}"' for f in model._meta.concrete_fields)


@cache
def _fields(model: type[Model]) -> tuple[tuple[str, Any], ...]:
    return tuple((f.attname, f) for f in model._meta.concrete_fields)


def new(model: type[Model], related: dict[str, Model] | None = None, **values: Any) -> Model:
    """A new (unsaved) instance from attribute names (`game_id`, not `game`), built as `from_db`
    builds one, positionally: keyword arguments cost each related field a descriptor and a
    database-router call, which was a fifth of the sweeper's time in instances it writes in bulk.
    `related` are objects already at hand (the game), cached on the instance as the ORM would."""
    fields = _fields(model)
    row = [values[name] if name in values else field.get_default() for name, field in fields]
    if pre_init.receivers or post_init.receivers:
        obj = model(*row)
    else:  # Model.__init__ without receivers to tell: the same instance, for half the cost
        obj = model.__new__(model)
        obj._state = ModelState()
        obj.__dict__.update(zip((name for name, _ in fields), row))
    for name, value in (related or {}).items():
        obj._state.fields_cache[name] = value
    return obj


def width(model: type[Model]) -> int:
    return len(model._meta.concrete_fields)


def load(model: type[Model], row: Sequence[Any], start: int = 0) -> Model:
    """The instance of `model` whose columns begin at `row[start]`."""
    names, converters = _shape(model)
    values = list(row[start:start + len(names)])
    db = connections[DEFAULT_DB_ALIAS]
    for i, convert in converters:
        values[i] = convert(values[i], None, db)
    return model.from_db(DEFAULT_DB_ALIAS, names, values)


class _JsonLoader(Loader):
    """`json` values (json_agg: the game's seats and vacations, the outbox's recipients) by orjson."""

    def load(self, data):
        return jsoncodec.loads(data)


# psycopg's own timestamptz loader, in C. Django registers a Python subclass on every connection,
# which re-labels the zone after parsing; it was a fortieth of the web server's samples on the
# move loop (every row read here has a few timestamps). With the session in UTC, as Django sets it
# with USE_TZ, psycopg's gives the same values, labelled `datetime.timezone.utc` as Django's are.
_TIMESTAMPTZ = psycopg.adapters.get_loader(psycopg.adapters.types["timestamptz"].oid, Format.TEXT)
# jsonb as text, as Django has it (the converters parse it), by psycopg's C text loader rather
# than the Python one Django registers: the game row alone has four jsonb columns.
_TEXT = psycopg.adapters.get_loader(psycopg.adapters.types["text"].oid, Format.TEXT)


# Statements are written once, so few; the bound keeps a statement made afresh on every call
# (values in its text) from growing a connection's cursors without end.
MAX_KEPT_CURSORS = 256


def _cursor(db, sql: str) -> tuple[psycopg.Cursor, str]:
    """A cursor kept with the connection for this statement, and the statement as first given.

    psycopg makes a cursor's adapters and row loaders afresh with each cursor, and again whenever
    a cursor runs another statement than it ran last (it compares the statement by identity):
    for a cursor per call, a loader per column of every result. Kept per statement, they are made
    once per connection and statement."""
    conn = db.connection
    kept = getattr(conn, "_darkroom_cursors", None)
    if kept is None or len(kept) >= MAX_KEPT_CURSORS:
        kept = conn._darkroom_cursors = {}
    found = kept.get(sql)
    if found is None or found[0].closed:
        cursor = psycopg.Cursor(conn)
        if conn.pgconn.parameter_status(b"TimeZone") == b"UTC":
            cursor.adapters.register_loader("timestamptz", _TIMESTAMPTZ)
        cursor.adapters.register_loader("json", _JsonLoader)
        cursor.adapters.register_loader("jsonb", _TEXT)
        found = kept[sql] = (cursor, sql)
    return found


def fetch(sql: str, params: Sequence[Any]) -> list[tuple]:
    return _run(sql, params, rows=True)


def execute(sql: str, params: Sequence[Any]) -> int:
    return _run(sql, params, rows=False)


def _run(sql: str, params: Sequence[Any], rows: bool):
    """The statement, prepared on first use in each connection and bound server-side.

    Planning was most of PostgreSQL's work on these statements: pgbench ran the game read 5x as
    often prepared, and the move loop's database CPU fell by a third. Django's cursors bind on
    the client and never prepare, so this goes to psycopg's own cursor on the same connection
    (same transaction, same adapters), with Django's checks and error wrapping around it."""
    db = connections[DEFAULT_DB_ALIAS]  # once: each attribute of `connection` looks it up anew
    if db.execute_wrappers:  # someone watches every statement: Django's own path
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if rows else cursor.rowcount
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_no_broken_transaction()
    logged = db.queries_logged
    start = time.monotonic()
    cursor, sql = _cursor(db, sql)
    with db.wrap_database_errors:
        # (settings.DATABASE_PREPARE off sets no threshold: then nothing is prepared.)
        cursor.execute(sql, params, prepare=True)
        out = cursor.fetchall() if rows else cursor.rowcount
    if logged:  # as Django's debug cursor logs it (tests count queries this way)
        with psycopg.ClientCursor(db.connection) as client:
            text = client.mogrify(sql, params)
        db.queries_log.append({"sql": text, "time": f"{time.monotonic() - start:.3f}"})
    return out
