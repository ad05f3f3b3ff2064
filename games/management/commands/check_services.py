"""`manage.py check_services [--create-db]`: is PostgreSQL up, is Redis up, does the database exist?

Answers in one line per problem with how to fix it, never a traceback: it is the first thing
`make run` and `make test` do.
"""

import sys

import psycopg
import redis
from django.conf import settings
from django.core.management.base import BaseCommand
from psycopg import sql

from config import redis as redis_roles

START_PG = (
    "start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
    " (or: docker compose -f compose.dev.yml up -d)"
)
START_REDIS = (
    "start it: redis-server --daemonize yes --bind 127.0.0.1 --port 6379 (or: docker compose -f compose.dev.yml up -d)"
)


class Command(BaseCommand):
    help = "Check that PostgreSQL and Redis are reachable; optionally create the database."
    # Whether the services answer, and nothing else: the system checks (`manage.py check`) say
    # their own things, e.g. which push platforms have no credentials, and would bury the one line.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--create-db", action="store_true", help="create the database if missing")

    def handle(self, *args, create_db=False, **options):
        db = settings.DATABASES["default"]
        where = f"{db.get('HOST') or 'localhost'}:{db.get('PORT') or 5432}"
        params = {
            "host": db.get("HOST") or None,
            "port": db.get("PORT") or None,
            "user": db.get("USER") or None,
            "password": db.get("PASSWORD") or None,
            "connect_timeout": 3,
        }
        problems = []
        try:
            with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
                exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone()
                if not exists and create_db:
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
                    self.stdout.write(f"created database {db['NAME']}")
                elif not exists:
                    # Not an error: the test suite makes its own test_ database.
                    self.stdout.write(f"note: database {db['NAME']} does not exist yet (`make migrate` creates it)")
        except psycopg.OperationalError as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "no answer"
            problems.append(f"PostgreSQL is not reachable at {where} (DATABASE_URL; {reason}): {START_PG}")
        try:
            redis_roles.probe(settings.REDIS_URL, 3).ping()
        except redis.RedisError:
            problems.append(f"Redis is not reachable at {settings.REDIS_URL} (REDIS_URL): {START_REDIS}")
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            sys.exit(1)
