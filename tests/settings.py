"""The test suite's settings: the real ones, plus the tiny test game and relaxed limits."""

import os

# Development's settings, asked for as `make run` asks (production's defaults are debug off and
# HTTPS only); the test runner still runs every test with DEBUG off.
os.environ.setdefault("DJANGO_DEBUG", "true")
os.environ.setdefault("DARKROOM_EXTRA_ENGINES", "duel=tests.duel:ENGINE")
os.environ.setdefault("WEBHOOKS_ALLOW_PRIVATE", "true")
# Cache keys and a Celery queue of this test process's own, so tasks left by one run never reach
# another run's worker. pytest-xdist's workers inherit their controller's environment, so each
# process names its own; a worker or server that a test starts is handed the names it must share
# (tests/worker.py marks them "given").
if os.environ.get("DARKROOM_TEST_NAMES") != "given":
    os.environ["CACHE_PREFIX"] = f"darkroom-test-{os.getpid()}"
    os.environ["CELERY_QUEUE"] = f"darkroom-test-{os.getpid()}"
os.environ.setdefault("WEBHOOK_RETRY_BASE_SECONDS", "0.3")
os.environ.setdefault("WEBHOOK_MAX_ATTEMPTS", "3")

from config.settings import *  # noqa: E402,F401,F403
from config.settings import REST_FRAMEWORK  # noqa: E402
from config.settings import DATABASES  # noqa: E402

# The test runner empties tables between transactional tests by TRUNCATE, which the events'
# trigger refuses unless the test-only door is open: in a test_* database, and with this setting
# (games migration 0002). Set on every connection, as a libpq option.
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c darkroom.allow_truncate=on"

REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"anon": "100000/min", "user": "100000/min", "auth": "100000/min"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The test process's mail is Django's outbox whatever this says; a worker started by a test may
# write its mail to files the test reads (tests/worker.py).
EMAIL_BACKEND = os.environ.get("TEST_WORKER_EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
EMAIL_FILE_PATH = os.environ.get("TEST_WORKER_EMAIL_FILE_PATH")
SNAPSHOT_EVERY = 5
# clear() empties this run's keys only, not the Redis every run (and the broker) shares.
CACHES = {"default": {**CACHES["default"], "BACKEND": "tests.cache.RunOnlyRedisCache"}}  # noqa: F405
THROTTLE_LOGIN_ACCOUNT = THROTTLE_LOGIN_ACCOUNT_ADDRESS = THROTTLE_GUEST_ADDRESS = "100000/min"
PASSWORD_RESET_MAIL_INTERVAL_SECONDS = 0  # tests ask for the same address's reset again and again
# Django's test client builds its middleware for every client it makes (a player, a request
# factory), and WhiteNoise's middleware, with finders on, walks and stats every static file as it
# is built: one of the suite's largest setup costs. Refreshing (WhiteNoise's development setting)
# looks a file up when it is asked for instead; what it serves is the same.
WHITENOISE_AUTOREFRESH = True
