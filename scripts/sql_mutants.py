"""Mutants of the immutability migration's SQL (mutmut mutates Python functions, not the SQL text
a migration carries), each installed in scratch databases and judged by the same probes the test
suite makes (tests/games/test_store.py, tests/games/test_immutability_door.py).

Usage: python scripts/sql_mutants.py   (PostgreSQL from DATABASE_URL, default 127.0.0.1:5432)
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
FORWARD = importlib.import_module("games.migrations.0002_event_immutability").FORWARD

MUTANTS = [
    ("door open in every database", "current_database() LIKE 'test\\_%'", "current_database() LIKE '%'"),
    ("door needs no setting", "AND current_setting('darkroom.allow_truncate', true) = 'on'", ""),
    ("door for every operation", "IF TG_OP = 'TRUNCATE'", "IF TG_OP IS NOT NULL"),
    ("UPDATE not guarded", "BEFORE UPDATE OR DELETE", "BEFORE DELETE"),
    ("DELETE not guarded", "BEFORE UPDATE OR DELETE", "BEFORE UPDATE"),
    ("TRUNCATE not guarded", "BEFORE TRUNCATE ON games_event", "BEFORE UPDATE ON games_event"),
    (
        "replica role skips the row trigger",
        "ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_update_delete;",
        "",
    ),
    (
        "replica role skips the truncate trigger",
        "ALTER TABLE games_event ENABLE ALWAYS TRIGGER games_event_no_truncate;",
        "",
    ),
    ("refusal is a notice", "RAISE EXCEPTION", "RAISE NOTICE"),
]


def dsn() -> dict:
    url = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/darkroom"))
    return dict(
        host=url.hostname or "127.0.0.1", port=url.port or 5432, user=url.username or "postgres", password=url.password
    )


def attempt(conn, *statements) -> str:
    """ "ok" if every statement went through, "refused" if the guard refused one (its message),
    "broken" for any other error. Always rolled back, so each probe starts from the same row."""
    try:
        for statement in statements:
            conn.execute(statement)
        return "ok"
    except psycopg.Error as error:
        return "refused" if "append-only" in str(error) else "broken"
    finally:
        conn.rollback()


def refused(conn, *statements) -> bool:
    return attempt(conn, *statements) == "refused"


def probes(sql: str, suffix: str) -> dict[str, bool]:
    """What the suite asserts, as booleans (True = the property holds)."""
    found = {}
    for name in (f"darkroom_sqlmut_{suffix}", f"test_sqlmut_{suffix}"):
        with psycopg.connect(dbname="postgres", autocommit=True, **dsn()) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            with psycopg.connect(dbname=name, **dsn()) as conn:
                conn.execute("CREATE TABLE games_event (id bigint, type text)")
                conn.execute(sql)
                conn.execute("INSERT INTO games_event VALUES (1, 'Made')")
                conn.commit()
                kind = "test" if name.startswith("test_") else "prod"
                found[f"{kind}: UPDATE refused"] = refused(conn, "UPDATE games_event SET type = 'Forged'")
                found[f"{kind}: DELETE refused"] = refused(conn, "DELETE FROM games_event")
                found[f"{kind}: replica role cannot DELETE"] = refused(
                    conn, "SET LOCAL session_replication_role = replica", "DELETE FROM games_event"
                )
                found[f"{kind}: TRUNCATE refused without the setting"] = refused(conn, "TRUNCATE games_event")
                found[f"{kind}: replica role cannot TRUNCATE"] = refused(
                    conn, "SET LOCAL session_replication_role = replica", "TRUNCATE games_event"
                )
                found[f"{kind}: the door's setting opens no UPDATE"] = refused(
                    conn, "SET LOCAL darkroom.allow_truncate = 'on'", "UPDATE games_event SET type = 'Forged'"
                )
                found[f"{kind}: the door's setting opens no DELETE"] = refused(
                    conn, "SET LOCAL darkroom.allow_truncate = 'on'", "DELETE FROM games_event"
                )
                door = attempt(conn, "SET LOCAL darkroom.allow_truncate = 'on'", "TRUNCATE games_event")
                found[f"{kind}: the door"] = door == ("ok" if kind == "test" else "refused")
        finally:
            with psycopg.connect(dbname="postgres", autocommit=True, **dsn()) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    return found


def main() -> int:
    suffix = str(os.getpid())
    baseline = probes(FORWARD, suffix)
    if not all(baseline.values()):
        print("the migration itself fails a probe:", [k for k, v in baseline.items() if not v])
        return 1
    survived = 0
    print("| SQL mutant | caught by |")
    print("|---|---|")
    for label, old, new in MUTANTS:
        assert old in FORWARD, f"mutant '{label}' no longer applies"
        result = probes(FORWARD.replace(old, new), suffix)
        failed = [k for k, v in result.items() if not v]
        survived += not failed
        print(f"| {label} | {', '.join(failed) if failed else '**survived**'} |")
    print(f"\n{len(MUTANTS)} SQL mutants, {len(MUTANTS) - survived} killed, {survived} survived")
    return 0


if __name__ == "__main__":
    sys.exit(main())
