"""gunicorn's settings that come from the environment, read by gunicorn itself from the working
directory (the Procfile's `web:` and `live:` and the image's CMD all run from the project root)."""

import os

# Worker processes: WEB_CONCURRENCY, as gunicorn and most platforms name it (2 by default: one
# per core of the machine this was sized on).
workers = int(os.environ.get("WEB_CONCURRENCY", 2))

# Threads per worker of `web` (gthread: one request per thread; a kept-alive connection that is
# idle holds none). Requests are mostly CPU under one interpreter lock, so few threads serve best:
# on 2 cores and 16 clients, 1 thread gave 120 move loops/s, 2 gave 103 and 8 gave 88. Two, so
# that one request waiting (a lock, a stream that reached `web` directly) leaves its process one
# thread to serve with. Each request holds a database connection while it runs: keep this at or
# below DATABASE_POOL_MAX (10). `live`'s uvicorn workers ignore it: they wait on an event loop.
threads = int(os.environ.get("WEB_THREADS", 2))

# Addresses whose X-Forwarded-* headers the server itself believes (gunicorn then takes the
# scheme from X-Forwarded-Proto; uvicorn, in `live`, the client address from X-Forwarded-For too).
# None by default, as DJANGO_TRUSTED_PROXIES: a header a client sends never becomes its address.
# A deployment behind its own proxy counts it in DJANGO_TRUSTED_PROXIES (docs/operations.md).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")


def _open_files_up_to_the_hard_limit() -> None:
    """An open stream is a socket, a file of `live`'s worker: the usual soft limit (1,024) would
    refuse the 1,025th. Raised to the hard limit (20,000 on the box measured; docs/operations.md,
    "Limits of a box"), before the workers fork, so each of them inherits it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


_open_files_up_to_the_hard_limit()


def post_worker_init(worker):
    """`web` (WSGI) has no event loop, so no live hub: each of its workers hears token revocations
    on a thread of its own, and its REST requests then take a remembered token instead of a query
    (games.api.auth.TokenAuthentication; docs/architecture.md, "Optimisations that stay").
    `live`'s workers hear them through their hub."""
    if worker.cfg.worker_class_str == "gthread":
        from games.realtime import hub

        hub.listen_for_revocations()
