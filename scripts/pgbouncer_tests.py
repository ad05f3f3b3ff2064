"""`make test-pgbouncer`: the tests that touch the database, through PgBouncer in transaction mode.

A private PostgreSQL cluster (initdb into a temporary directory, on a free loopback port) and
Debian's pgbouncer in front of it (tests/faults/stack/), then pytest with DATABASE_URL naming
the pooler and DATABASE_PGBOUNCER=on: every connection the tests, their workers and their servers
make goes through it. Arguments are pytest's (the default: the games', API's and accounts' tests
without the browser, fault, benchmark and image-build ones). Both are stopped and removed at the
end, whatever the outcome; the shared PostgreSQL is never touched.

The tests' libpq option `-c darkroom.allow_truncate=on` (tests/settings.py) cannot pass a pooler:
the private server is started with it instead. Test databases are kept (--reuse-db): the pooler
holds server connections to them, so dropping them at the end would fail, and the cluster goes
anyway.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

DEFAULT = [
    "-n",
    os.environ.get("TEST_WORKERS", "2"),
    "--dist",
    "loadfile",
    "-o",
    "addopts=",
    "-p",
    "no:schemathesis",
    "-p",
    "no:anyio",
    "-q",
    "-m",
    "not bench and not soak and not browser and not bench_smoke and not slow and not fault",
    "tests/games",
    "tests/api",
    "tests/accounts",
]


def main() -> int:
    import django

    django.setup()
    from tests.faults.stack.pgbouncer import PgBouncer
    from tests.faults.stack.postgres import PrivatePostgres

    pg = PrivatePostgres(**{"darkroom.allow_truncate": "on", "max_connections": "200"}).init()
    bouncer = None
    try:
        bouncer = PgBouncer(pg.port, pool_size=int(os.environ.get("PGBOUNCER_POOL_SIZE", "10"))).start()
        print(
            f"PostgreSQL on 127.0.0.1:{pg.port}, PgBouncer (transaction mode) on 127.0.0.1:{bouncer.port}", flush=True
        )
        env = {**os.environ, "DATABASE_URL": bouncer.url(), "DATABASE_PGBOUNCER": "on"}
        return subprocess.run(
            [sys.executable, "-m", "pytest", "--reuse-db", *(sys.argv[1:] or DEFAULT)], cwd=ROOT, env=env
        ).returncode
    finally:
        if bouncer:
            bouncer.stop()
        pg.destroy()


if __name__ == "__main__":
    sys.exit(main())
