"""Many rows in one statement, for the sweeper's batches and the outbox: the rows go as one JSON
document that PostgreSQL's `json_to_recordset` turns back into rows. Django's bulk_create and
bulk_update compile an expression per value (and bulk_update a CASE per row and column), which
costs more than the database's own work at a few thousand values.

JSON values go as they are (json_to_recordset makes them jsonb); plain values go as they are (see
PASSED_AS_IS); anything else is prepared as Django would store it (`get_db_prep_save`).
"""

from __future__ import annotations

import datetime
import decimal
import functools
import json
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models

from config import jsoncodec

# Field types whose Python values (aware datetimes, UUIDs, ints, str, bool, None) psycopg takes
# as they are: preparing each through Django is most of the cost of a big batch.
PASSED_AS_IS = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "DateTimeField",
    "ForeignKey",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
    "UUIDField",
}


@functools.cache
def _column(model: type[models.Model], name: str) -> tuple[str, str, Any]:
    """(column, element type for the array cast, a function preparing one value). Worked out once
    per model and field: every move writes through here (5% of a move's CPU when it was not)."""
    field = _concrete(model, name)
    if isinstance(field, models.JSONField):
        encoder = field.encoder

        def prep_json(value):
            return None if value is None else json.dumps(value, cls=encoder)

        return field.column, "jsonb", prep_json
    db_type = (field.target_field if isinstance(field, models.ForeignKey) else field).db_type(connection)
    if db_type is None:
        raise TypeError(f"{model.__name__}.{name} has no column type")
    base = db_type.split("(")[0].replace(" check", "")
    if field.get_internal_type() in (
        "AutoField",
        "BigAutoField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "SmallIntegerField",
        "IntegerField",
    ):
        base = "bigint"  # widened for the array; the column's own type takes it back

    if field.get_internal_type() in PASSED_AS_IS:
        return field.column, base, None  # psycopg adapts these itself
    return field.column, base, lambda value: field.get_db_prep_save(value, connection)


def _concrete(model: type[models.Model], name: str) -> models.Field:
    """The field `name` of `model`, which must have a column of its own (a relation's: its id)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.concrete:
        raise TypeError(f"{model.__name__}.{name} has no column of its own")
    return field


def plain(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, uuid.UUID | decimal.Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} cannot go into a bulk statement")


def records(model, names: Sequence[str], rows: Iterable[Sequence[Any]]) -> tuple[list[tuple[str, str]], str]:
    """The rows as one JSON document for json_to_recordset, and the (column, type) of each.

    One parameter, serialised by the C JSON encoder and quoted once: a few times cheaper than an
    array per column, whose every element psycopg quotes in Python (profiled: about an eighth of
    the sweeper's time at a thousand games)."""
    columns = [_column(model, name) for name in names]
    keys = _keys(len(columns))
    prepared = [(keys[i], prep) for i, (_, cast, prep) in enumerate(columns) if prep is not None and cast != "jsonb"]
    records = []
    for row in rows:
        record = dict(zip(keys, row))  # not a comprehension formatting each key: a tenth of the sweeper's time
        for key, prep in prepared:
            record[key] = prep(record[key])
        records.append(record)
    return [(column, cast) for column, cast, _ in columns], jsoncodec.dumps(records, default=plain).decode()


@functools.cache
def _keys(width: int) -> tuple[str, ...]:
    return tuple(f"c{i}" for i in range(width))


def update(model: type[models.Model], names: Sequence[str], objects: Sequence[models.Model]) -> None:
    """UPDATE each object's row with its current values of `names`, in one statement."""
    write(update_sql(model, names, objects))


Part = tuple[str, list]  # a data-modifying statement without a WITH of its own, and its parameters


def write(*parts: Part | None) -> None:
    """Several writes (`insert_sql`, `update_sql`, or any INSERT/UPDATE/DELETE) as one statement:
    all but the last as data-modifying CTEs, which PostgreSQL runs exactly once each, on the same
    snapshot (so no part may depend on another's rows). A move writes its event, its game row and
    its turn notice read so: one round trip and one statement to plan, not three."""
    given = [part for part in parts if part is not None]
    if not given:
        return
    ctes = ", ".join(f"w{i} AS ({sql})" for i, (sql, _) in enumerate(given[:-1]))
    sql = (f"WITH {ctes} " if ctes else "") + given[-1][0]
    _execute(sql, [param for _, params in given for param in params])


def _execute(sql: str, params: list) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def insert_sql(model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]]) -> Part | None:
    """INSERT every row (values in the order of `names`, a relation's as its id), as a part for
    `write`: the statement and its one parameter (None for no rows)."""
    if not rows:
        return None
    columns, document = records(model, names, rows)
    names_sql = ", ".join(f'"{column}"' for column, _ in columns)
    shape = ", ".join(f"c{i} {cast}" for i, (_, cast) in enumerate(columns))
    return (
        f'INSERT INTO "{model._meta.db_table}" ({names_sql}) SELECT * FROM json_to_recordset(%s::json) AS v({shape})'
    ), [document]


def update_sql(model: type[models.Model], names: Sequence[str], objects: Sequence[models.Model]) -> Part | None:
    """The UPDATE of `update` and its one parameter (None for no objects)."""
    if not objects:
        return None
    pk = model._meta.pk.name
    keys = [pk, *names]
    attnames = [_concrete(model, name).attname for name in keys]
    columns, document = records(model, keys, ([getattr(obj, name) for name in attnames] for obj in objects))
    table = model._meta.db_table
    shape = ", ".join(f"c{i} {cast}" for i, (_, cast) in enumerate(columns))
    sets = ", ".join(f'"{column}" = v.c{i}' for i, (column, _) in enumerate(columns) if i)
    return (
        f'UPDATE "{table}" AS t SET {sets} FROM json_to_recordset(%s::json) AS v({shape}) '
        f'WHERE t."{columns[0][0]}" = v.c0'
    ), [document]
