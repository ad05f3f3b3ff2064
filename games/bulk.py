"""Many rows in one statement, for the sweeper's batches and the outbox: PostgreSQL's `unnest` over
one array per column. Django's bulk_create and bulk_update compile an expression per value (and
bulk_update a CASE per row and column), which costs more than the database's own work at a few
thousand values; here each column is one array parameter.

JSON goes as text cast to jsonb; plain values go as they are (see PASSED_AS_IS); anything else is
prepared as Django would store it (`get_db_prep_save`).
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from django.db import connection, models


# Field types whose Python values (aware datetimes, UUIDs, ints, str, bool, None) psycopg takes
# as they are: preparing each through Django is most of the cost of a big batch.
PASSED_AS_IS = {"AutoField", "BigAutoField", "BigIntegerField", "BooleanField", "CharField",
                "DateTimeField", "ForeignKey", "IntegerField", "PositiveIntegerField",
                "PositiveSmallIntegerField", "SmallIntegerField", "TextField", "UUIDField"}


def _column(model: type[models.Model], name: str) -> tuple[str, str, Any]:
    """(column, element type for the array cast, a function preparing one value)."""
    field = model._meta.get_field(name)
    if isinstance(field, models.JSONField):
        encoder = field.encoder

        def prep_json(value):
            return None if value is None else json.dumps(value, cls=encoder)
        return field.column, "jsonb", prep_json
    db_type = field.target_field.db_type(connection) if field.is_relation else field.db_type(connection)
    base = db_type.split("(")[0].replace(" check", "")
    if field.get_internal_type() in ("AutoField", "BigAutoField", "PositiveIntegerField",
                                     "PositiveSmallIntegerField", "SmallIntegerField", "IntegerField"):
        base = "bigint"  # widened for the array; the column's own type takes it back

    if field.get_internal_type() in PASSED_AS_IS:
        return field.column, base, None  # psycopg adapts these itself
    return field.column, base, lambda value: field.get_db_prep_save(value, connection)


def arrays(model, names: Sequence[str], rows: Iterable[Sequence[Any]]):
    columns = [_column(model, name) for name in names]
    rows = list(rows)
    values: list[list[Any]] = []
    for index, (_, _, prep) in enumerate(columns):
        column = [row[index] for row in rows]
        values.append(column if prep is None else [prep(value) for value in column])
    return columns, values


def insert(model: type[models.Model], names: Sequence[str], rows: Sequence[Sequence[Any]],
           returning: bool = False) -> list[int]:
    """INSERT every row (values in the order of `names`, a relation's as its id); with
    `returning`, the new ids in the rows' order."""
    if not rows:
        return []
    columns, values = arrays(model, names, rows)
    casts = ", ".join(f"%s::{cast}[]" for _, cast, _ in columns)
    names_sql = ", ".join(f'"{column}"' for column, _, _ in columns)
    sql = (f'INSERT INTO "{model._meta.db_table}" ({names_sql}) SELECT * FROM unnest({casts})'
           + (f' RETURNING "{model._meta.pk.column}"' if returning else ""))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        return [row[0] for row in cursor.fetchall()] if returning else []


def update(model: type[models.Model], names: Sequence[str], objects: Sequence[models.Model]) -> None:
    """UPDATE each object's row with its current values of `names`, in one statement."""
    if not objects:
        return
    pk = model._meta.pk.name
    keys = [pk, *names]
    attnames = [model._meta.get_field(name).attname for name in keys]
    columns, values = arrays(model, keys, ([getattr(obj, name) for name in attnames] for obj in objects))
    table = model._meta.db_table
    casts = ", ".join(f"%s::{cast}[]" for _, cast, _ in columns)
    aliases = ", ".join(f"c{i}" for i in range(len(columns)))
    sets = ", ".join(f'"{column}" = v.c{i}' for i, (column, _, _) in enumerate(columns) if i)
    sql = (f'UPDATE "{table}" AS t SET {sets} FROM unnest({casts}) AS v({aliases}) '
           f'WHERE t."{columns[0][0]}" = v.c0')
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
