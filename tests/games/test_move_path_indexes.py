"""The tables a move writes carry no index another one already covers: every move inserts a row
into each index of games_event, games_notification and games_delivery (and updates the
notification's when it marks the mover's turn notice read), so a redundant one is pure cost."""
import pytest
from django.db import connection

MOVE_TABLES = ("games_event", "games_game", "games_notification", "games_delivery", "games_snapshot",
               "games_seat")


def indexes(table):
    with connection.cursor() as cursor:
        cursor.execute("""
            SELECT i.relname, array_agg(a.attname ORDER BY k.ord), bool_or(o.opcname LIKE '%%pattern%%'),
                   x.indpred IS NOT NULL OR x.indexprs IS NOT NULL
            FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid
            JOIN pg_class t ON t.oid = x.indrelid
            CROSS JOIN LATERAL unnest(x.indkey, x.indclass) WITH ORDINALITY AS k(attnum, opclass, ord)
            LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
            JOIN pg_opclass o ON o.oid = k.opclass
            WHERE t.relname = %s
            GROUP BY i.relname, x.indpred, x.indexprs""", [table])
        return {name: (tuple(columns), pattern, partial) for name, columns, pattern, partial in cursor.fetchall()}


@pytest.mark.django_db
@pytest.mark.parametrize("table", MOVE_TABLES)
def test_no_index_on_a_move_table_is_the_leading_part_of_another(table):
    found = indexes(table)
    assert found, table
    for name, (columns, _, partial) in found.items():
        for other, (longer, _, other_partial) in found.items():
            if other != name and not partial and not other_partial and len(longer) > len(columns):
                assert longer[:len(columns)] != columns, f"{name} {columns} is covered by {other} {longer}"


@pytest.mark.django_db
@pytest.mark.parametrize("table", ("games_event", "games_notification", "games_delivery", "games_snapshot"))
def test_no_like_pattern_index_on_the_tables_every_move_inserts_into(table):
    # No query on these tables matches with LIKE: a *_like index would be written and never read.
    assert [name for name, (_, pattern, _) in indexes(table).items() if pattern] == []
