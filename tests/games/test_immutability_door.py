"""The TRUNCATE door of migration 0002 exists only in databases named test_*: the same trigger
installed in a database with any other name refuses TRUNCATE even with the door's setting on."""

import importlib
import os

import psycopg
import pytest
from django.db import connection

FORWARD = importlib.import_module("games.migrations.0002_event_immutability").FORWARD


def scratch_database(name: str):
    params = connection.settings_dict
    dsn = dict(
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        user=params["USER"] or "postgres",
        password=params["PASSWORD"] or None,
    )
    with psycopg.connect(dbname="postgres", autocommit=True, **dsn) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    return dsn


def drop(name: str, dsn) -> None:
    with psycopg.connect(dbname="postgres", autocommit=True, **dsn) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


def with_the_door_open(name: str, statement: str = "TRUNCATE games_event") -> str | None:
    """Install the migration's trigger in a fresh database called `name`; try `statement` with the
    door's setting on. Returns the refusal's message, or None if the statement went through."""
    dsn = scratch_database(name)
    try:
        with psycopg.connect(dbname=name, **dsn) as conn:
            conn.execute("CREATE TABLE games_event (id bigint)")
            conn.execute(FORWARD)
            conn.execute("INSERT INTO games_event VALUES (1)")
            conn.commit()
            try:
                conn.execute("SET LOCAL darkroom.allow_truncate = 'on'")
                conn.execute(statement)
                conn.commit()
                return None
            except psycopg.Error as error:
                conn.rollback()
                return str(error)
    finally:
        drop(name, dsn)


@pytest.mark.django_db
def test_a_database_not_named_test_has_no_truncate_door():
    refusal = with_the_door_open(f"darkroom_door_{os.getpid()}")
    assert refusal is not None and "append-only" in refusal


@pytest.mark.django_db
def test_a_name_that_merely_contains_test_has_no_door_either():
    assert with_the_door_open(f"prod_test_{os.getpid()}") is not None


@pytest.mark.django_db
def test_a_test_database_opens_the_door_only_with_the_setting():
    assert with_the_door_open(f"test_door_{os.getpid()}") is None


@pytest.mark.django_db
@pytest.mark.parametrize("statement", ["UPDATE games_event SET id = 2", "DELETE FROM games_event"])
def test_the_door_is_for_truncate_only_even_in_a_test_database(statement):
    refusal = with_the_door_open(f"test_door_rows_{os.getpid()}", statement)
    assert refusal is not None and "append-only" in refusal
