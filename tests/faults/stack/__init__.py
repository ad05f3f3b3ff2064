"""Real processes for the fault suite (tests/faults), one module per kind: the Procfile's Celery
lines (procfile), a private PostgreSQL and its replica (postgres), PgBouncer (pgbouncer), Redis
under Sentinel (sentinel), PostgreSQL under Patroni and etcd (patroni), and the outside parties a
delivery meets (receivers). Only 127.0.0.1 is ever contacted; every server here is the test's own."""
