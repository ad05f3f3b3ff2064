"""Settings, 12-factor style: everything that differs between machines comes from the environment.

Defaults are production's: debug off, a secret key required, no proxy trusted. Development asks
for debug explicitly (`make run` sets DJANGO_DEBUG=true), against PostgreSQL and Redis on localhost.
"""

import os
from pathlib import Path
from typing import TypedDict

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless asked for: a deployment that forgets the variable must not run in debug mode.
DEBUG = env_bool("DJANGO_DEBUG", False)
# The development key only in debug; without debug, no key is no start.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me" if DEBUG else "")
if not SECRET_KEY:
    raise RuntimeError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "games",
    "web",
    "corsheaders",
    "config.apps.OperationsConfig",
]

MIDDLEWARE = [
    # --- Operations (ops): probes first (before host checks and redirects, so they work by IP),
    # then request timing, the request id, CORS (before CommonMiddleware, as django-cors-headers
    # requires). See docs/operations.md.
    "config.health.ProbeMiddleware",
    "config.metrics.MetricsMiddleware",
    "config.logs.RequestIdMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    # --- end operations
    # A browser asking for an unknown page gets web's HTML page; everything else the JSON error.
    "web.middleware.browser_not_found",
    "games.api.errors.JsonErrorsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # The static files (the web client's), as WhiteNoise documents it; `live` serves none and
    # leaves it out (config/live_settings.py).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language of what a person reads: Accept-Language here (Django's order: the language
    # cookie, then the header, then LANGUAGE_CODE), replaced by the account's own choice once DRF
    # has authenticated the request (games.api.auth); it answers Content-Language and
    # Vary: Accept-Language. After sessions and before CommonMiddleware, as Django documents.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The signed-in staff member's own language in the admin (and any page rendered from a
    # session), over Accept-Language: after the session's user is known (config.locale).
    "config.locale.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
if os.environ.get("REPLICA_DATABASE_URL"):  # read your writes (docs/operations.md#read-replicas)
    MIDDLEWARE.append("config.database.ReplicaPinMiddleware")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]


def database_url(url: str, conn_max_age: int) -> dict:
    """One DATABASES entry from a URL. libpq's several hosts (`postgres://u@h1:5432,h2:5432/db?
    target_session_attrs=read-write`: whichever accepts writes, the primary under Patroni,
    docs/operations.md#postgresql-failover) are parsed by libpq itself, through psycopg; their
    lists go to HOST and PORT as libpq takes them, the URL's parameters to OPTIONS."""
    if "," not in url.split("//", 1)[-1].split("/", 1)[0]:
        return dj_database_url.parse(url, conn_max_age=conn_max_age)
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(url)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": info.pop("dbname", ""),
        "USER": info.pop("user", ""),
        "PASSWORD": info.pop("password", ""),
        "HOST": info.pop("host", ""),
        "PORT": info.pop("port", ""),
        "CONN_MAX_AGE": conn_max_age,
        "OPTIONS": info,
    }


DATABASES = {
    "default": database_url(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/darkroom"),
        int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    ),
}

# --- Live updates: bounded connections, Redis failing open, streams -----------------
# Each process borrows PostgreSQL connections from a psycopg pool of at most DATABASE_POOL_MAX,
# however many clients wait on it (waiters hold none, see games/realtime/hub.py). A pool needs
# CONN_MAX_AGE = 0: a request hands its connection back when it ends. DATABASE_POOL=off restores
# one connection per thread (CONN_MAX_AGE applies then), e.g. behind PgBouncer.
if env_bool("DATABASE_POOL", True):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN", 1)),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX", 10)),
        # A request that finds the pool empty waits this long, then fails with a clear error.
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", 10)),
    }
# Parameters bound server-side (Django's documented `server_side_binding` with psycopg 3), so that
# psycopg prepares a statement its connection has run `prepare_threshold` times: the ORM writes the
# same text for the same query, and PostgreSQL plans a prepared statement once it has seen its
# plans hold (planning was most of PostgreSQL's work on a move). DATABASE_PREPARE=off binds on the
# client and prepares nothing, e.g. behind PgBouncer in transaction mode before 1.21.
# Behind PgBouncer in transaction mode (DATABASE_PGBOUNCER=on, docs/operations.md#pgbouncer) a
# connection's server changes between transactions: no statement is prepared (PgBouncer 1.18 keeps
# no prepared statement across them; psycopg's `prepare_threshold` None), no server-side cursor
# (Django's DISABLE_SERVER_SIDE_CURSORS: `.iterator()` then reads its whole result at once),
# and the deployment's locks are transaction-scoped (config/database.py).
DATABASE_PGBOUNCER = env_bool("DATABASE_PGBOUNCER", False)
DATABASE_PREPARE = env_bool("DATABASE_PREPARE", not DATABASE_PGBOUNCER)
if DATABASE_PGBOUNCER and DATABASE_PREPARE:
    raise RuntimeError("DATABASE_PREPARE cannot be on behind PgBouncer in transaction mode (DATABASE_PGBOUNCER)")
if DATABASE_PREPARE:
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
else:
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = DATABASE_PGBOUNCER
# --- Read replicas (docs/operations.md#read-replicas): reads that may lag (spectators, lobby lists,
# leaderboards, profiles, replays) go to REPLICA_DATABASE_URL, a streaming replica, while its lag
# is at most REPLICA_MAX_LAG seconds (measured every REPLICA_CHECK_SECONDS with
# pg_last_xact_replay_timestamp(), on /metrics); past it, or unreachable, the primary answers. A
# user who wrote reads from the primary for REPLICA_PIN_SECONDS after (config/database.py).
REPLICA_DATABASE_URL = os.environ.get("REPLICA_DATABASE_URL", "")
REPLICA_MAX_LAG = float(os.environ.get("REPLICA_MAX_LAG", 5))
REPLICA_CHECK_SECONDS = float(os.environ.get("REPLICA_CHECK_SECONDS", 1))
REPLICA_PIN_SECONDS = float(os.environ.get("REPLICA_PIN_SECONDS", REPLICA_MAX_LAG + REPLICA_CHECK_SECONDS + 1))
REPLICA_CONNECT_TIMEOUT = float(os.environ.get("REPLICA_CONNECT_TIMEOUT", 2))
if REPLICA_PIN_SECONDS < REPLICA_MAX_LAG + REPLICA_CHECK_SECONDS:
    raise RuntimeError(
        "REPLICA_PIN_SECONDS must be at least REPLICA_MAX_LAG + REPLICA_CHECK_SECONDS: a user "
        "could read from the replica before it has their write"
    )
if REPLICA_DATABASE_URL:
    replica = dj_database_url.parse(REPLICA_DATABASE_URL, conn_max_age=DATABASES["default"]["CONN_MAX_AGE"])
    replica["OPTIONS"] = {
        **{k: v for k, v in DATABASES["default"].get("OPTIONS", {}).items() if k != "pool"},
        **replica.get("OPTIONS", {}),
        "connect_timeout": max(1, round(REPLICA_CONNECT_TIMEOUT)),
    }
    if "pool" in DATABASES["default"].get("OPTIONS", {}):
        # A replica that is down costs a request REPLICA_CONNECT_TIMEOUT at most, not the
        # primary's pool timeout: the router stops sending it reads at its next check.
        replica["OPTIONS"]["pool"] = {**DATABASES["default"]["OPTIONS"]["pool"], "timeout": REPLICA_CONNECT_TIMEOUT}
    replica["DISABLE_SERVER_SIDE_CURSORS"] = DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"]
    # Tests read the test database through the alias (Django's documented MIRROR).
    replica["TEST"] = {"MIRROR": "default"}
    DATABASES["replica"] = replica
DATABASE_ROUTERS = ["config.database.ReplicaRouter"] if REPLICA_DATABASE_URL else []
# --- end read replicas
# Threads per process that run the streams' database reads (each holds a pooled connection only
# while it reads). Keep it below DATABASE_POOL_MAX so requests always find a connection.
LIVE_DB_THREADS = int(os.environ.get("LIVE_DB_THREADS", 4))
# Seconds between heartbeat comments on an idle stream, and between database polls while Redis
# is unreachable (the degraded mode; live delivery resumes by itself when Redis is back).
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", 15))
LIVE_POLL_SECONDS = float(os.environ.get("LIVE_POLL_SECONDS", 5))
# How long a process stays subscribed to a channel after its last waiter left (games.realtime.hub): a
# client that long-polls again, or reconnects its stream, finds it subscribed and its version known.
LIVE_LINGER_SECONDS = float(os.environ.get("LIVE_LINGER_SECONDS", 60))
# How long a process trusts a token it looked up for a stream or long-poll (games.realtime.tokens: deleted
# tokens and changed users are forgotten at once through Redis; this bounds it when Redis is away).
LIVE_AUTH_CACHE_SECONDS = float(os.environ.get("LIVE_AUTH_CACHE_SECONDS", 30))
# How many games one user stream follows at most (named on connect and added since, besides the
# user's own): a browser's tabs share one stream (docs/web.md).
LIVE_STREAM_GAMES = int(os.environ.get("LIVE_STREAM_GAMES", 50))
# How many tournaments one user stream follows on request, besides the user's own (docs/tournaments.md):
# a tab follows the tournament page it shows, and a browser's tabs share one stream.
LIVE_STREAM_TOURNAMENTS = int(os.environ.get("LIVE_STREAM_TOURNAMENTS", 20))
# Open channels at once, counted across processes (games.realtime.limits; 429 with Retry-After
# past them): a browser holds one stream, whatever its number of tabs; an address may be a
# school's or an office's many browsers.
LIVE_STREAMS_PER_USER = int(os.environ.get("LIVE_STREAMS_PER_USER", 10))
LIVE_STREAMS_PER_ADDRESS = int(os.environ.get("LIVE_STREAMS_PER_ADDRESS", 100))
LIVE_POLLS_PER_USER = int(os.environ.get("LIVE_POLLS_PER_USER", 20))
LIVE_POLLS_PER_USER_GAME = int(os.environ.get("LIVE_POLLS_PER_USER_GAME", 2))
# How long a stream ticket (for EventSource, which cannot send headers) stays valid.
STREAM_TICKET_SECONDS = int(os.environ.get("STREAM_TICKET_SECONDS", 30))
# --- end of live updates -----------------------------------------------------------------------
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
CACHES = {
    "default": {
        # django-redis. Live updates: a cache miss, not a 500, while Redis is down
        # (IGNORE_EXCEPTIONS); throttling keeps its history in the same Redis and fails open too
        # (config/throttling.py).
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": os.environ.get("CACHE_URL", REDIS_URL),
        "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "darkroom"),
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 1.0, "IGNORE_EXCEPTIONS": True},
    }
}

# --- Redis Sentinel (docs/operations.md#redis-sentinel): with REDIS_SENTINELS ("host:port,..."),
# every Redis client (config/redis.py: the cache, the live news, the broker) asks the Sentinels
# where the master called REDIS_SENTINEL_MASTER is, and asks again after a failover. REDIS_URL,
# CACHE_URL and CELERY_BROKER_URL then say only their database number (and password): their host
# is the master's, whichever it is now.
REDIS_SENTINELS = [
    (host, int(port)) for host, _, port in (item.rpartition(":") for item in env_list("REDIS_SENTINELS"))
]
REDIS_SENTINEL_MASTER = os.environ.get("REDIS_SENTINEL_MASTER", "darkroom")
if REDIS_SENTINELS:
    from config import redis_urls as _redis_urls

    CACHES["default"]["LOCATION"] = _redis_urls.on_master(CACHES["default"]["LOCATION"], REDIS_SENTINEL_MASTER)
    # django-redis's documented Sentinel connection factory: the pool asks the Sentinels.
    CACHES["default"]["OPTIONS"].update(
        CONNECTION_FACTORY="django_redis.pool.SentinelConnectionFactory", SENTINELS=REDIS_SENTINELS
    )
# --- end Redis Sentinel

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages people read the server in (docs/translating.md adds one): error details,
# notices, emails, pushes. Codes, event types and JSON keys are the same in every language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # collectstatic writes a gzip twin of each file, which WhiteNoise serves to browsers that take it.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Files collected by collectstatic (production: the image collects them) are served with their
# gzip twins; without a collection (a checkout running with debug off, as the tests' servers do),
# from the apps' own folders, uncompressed. Debug always serves the folders, so an old collection
# is never what a developer sees.
WHITENOISE_USE_FINDERS = DEBUG or not (STATIC_ROOT / "web" / "app.js").exists()

# Request bodies larger than this are refused (413) before any view parses them.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("MAX_BODY_BYTES", 64 * 1024))

# --- Proxies (ops): how many reverse proxies you run in front of the web server, each appending
# the address it saw to X-Forwarded-For. 0 (the default): none is trusted, the header is ignored
# and a client that sends one is counted by its own address. N: the Nth address from the right is
# the client's (what your own proxies wrote; anything further left the client may have made up).
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", 0))
if TRUSTED_PROXIES < 0:
    raise RuntimeError("DJANGO_TRUSTED_PROXIES is a count of proxies: 0 or more")
# --- end proxies

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.auth.TokenAuthentication",
        "games.api.auth.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "games.api.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    # The client address every throttle counts by (DRF's get_ident, config/throttling.py too).
    "NUM_PROXIES": TRUSTED_PROXIES,
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonWindowThrottle",
        "config.throttling.UserWindowThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "60/min"),
        "user": os.environ.get("THROTTLE_USER", "600/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "30/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Darkroom API",
    "DESCRIPTION": "Play Photograph, Photoshoot, Walking in Provence and Pick Pic by the web.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # 3.1: schemas are JSON Schema 2020-12, so the engines' own schemas (const, anyOf with null)
    # go into the document as they are.
    "OAS_VERSION": "3.1.0",
    # Two `status` enums (a game's, an invitation's): named, so neither is a generated "StatusF20Enum".
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": ["open", "active", "finished", "cancelled", "aborted"],
        "InvitationStatusEnum": ["pending", "accepted", "declined", "cancelled", "expired"],
        "TournamentStatusEnum": ["registering", "running", "finished", "cancelled"],
        "ChallengeStatusEnum": ["pending", "playing", "won", "lost", "declined"],
    },
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "games.api.schema.postprocess"],
}

# Celery: Redis is the broker. Day-long clocks are the sweeper's job (see games.tasks): no task is
# ever scheduled further ahead than the visibility timeout, after which Redis would redeliver it.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = None
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
if REDIS_SENTINELS:
    # Kombu's documented Sentinel transport: each Sentinel a `sentinel://` URL, the master by name.
    # Results are not kept (CELERY_RESULT_BACKEND); one that is would take the same URL and
    # CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"master_name": ...}.
    # Celery reads the CELERY_BROKER_URL variable itself, over this setting: a redis:// one would
    # go around the Sentinels.
    if not os.environ.get("CELERY_BROKER_URL", "sentinel://").startswith("sentinel://"):
        raise RuntimeError(
            "with REDIS_SENTINELS, leave CELERY_BROKER_URL unset (the broker is REDIS_URL's "
            "database on the master) or give it as sentinel:// URLs"
        )
    if not CELERY_BROKER_URL.startswith("sentinel://"):
        CELERY_BROKER_URL = _redis_urls.sentinel_broker(CELERY_BROKER_URL, REDIS_SENTINELS)
    CELERY_BROKER_TRANSPORT_OPTIONS["master_name"] = REDIS_SENTINEL_MASTER
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# One task reserved per process for a worker that does not say otherwise (`bots`: a search is
# long, and a second one reserved would wait behind it). The Procfile's and compose's worker
# lines say theirs: 4 for the timers (short tasks), 1 for the outside parties.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A broker that goes away and comes back is an ordinary event: the worker retries the
# connection for ever (Celery's default gives up after 100 tries and exits), at start too.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = "UTC"

# Queues (docs/operations.md, "Queues and workers"). Clocks never wait behind an outside party:
# timers and sweeps have the base queue, each kind of outside party (webhook receivers, the mail
# server) a queue of its own, consumed by worker processes of their own. Each queue's tasks have
# soft and hard time limits (seconds): at the soft one the task is interrupted and records a
# failed attempt; at the hard one its process is killed and replaced (its work is retried by the
# sweeper). Push (browsers' push services, APNs, FCM) is the third outside party.
CELERY_QUEUE = os.environ.get("CELERY_QUEUE", "darkroom")
CELERY_TASK_DEFAULT_QUEUE = CELERY_QUEUE
# The whole of one webhook delivery (connect, TLS, sending, the status line and headers): past it
# the connection is cut and the attempt failed.
WEBHOOK_DEADLINE_SECONDS = float(os.environ.get("WEBHOOK_DEADLINE_SECONDS", 10))
# The whole of one email (accounts/mail.py: connect, the greeting, TLS, login, the message, QUIT),
# however the mail server trickles its answers: past it the connection is cut and the attempt
# failed. Each blocking step within it waits at most EMAIL_TIMEOUT.
EMAIL_DEADLINE_SECONDS = float(os.environ.get("EMAIL_DEADLINE_SECONDS", 20))


class QueueSpec(TypedDict):
    queue: str
    soft: float  # seconds
    hard: float
    tasks: list[str]


TASK_QUEUES: dict[str, QueueSpec] = {
    "timers": {
        "queue": CELERY_QUEUE,
        "soft": 60,
        "hard": 90,
        "tasks": [
            "games.tasks.settle_due",
            "games.tasks.wake_game",
            "games.tasks.sweep",
            "games.tasks.tournament_games_finished",
            "games.tasks.tournaments_due",
        ],
    },
    # A delivery is over by its deadline; the limits, kept above it, are its backstop (the
    # deadline, not the soft limit, ends a slow attempt, with a failure that says so).
    "webhooks": {
        "queue": f"{CELERY_QUEUE}.webhooks",
        "soft": WEBHOOK_DEADLINE_SECONDS + 10,
        "hard": WEBHOOK_DEADLINE_SECONDS + 20,
        "tasks": ["games.tasks.deliver_webhook"],
    },
    "email": {
        "queue": f"{CELERY_QUEUE}.email",
        "soft": EMAIL_DEADLINE_SECONDS + 10,
        "hard": EMAIL_DEADLINE_SECONDS + 25,
        "tasks": ["games.tasks.deliver_email", "accounts.tasks.mail_password_reset"],
    },
    # The computer players' moves (docs/bots.md): a level-3 search thinks BOT_THINK_SECONDS.
    "bots": {
        "queue": f"{CELERY_QUEUE}.bots",
        "soft": 30,
        "hard": 45,
        "tasks": ["games.tasks.play_bot_turn", "games.tasks.play_bot_turns", "games.tasks.fill_seats_with_bots"],
    },
    # Browsers' push services (Web Push) and the mobile platforms: one delivery is bounded by
    # PUSH_DEADLINE_SECONDS per push service (games/notifications/push.py).
    "push": {"queue": f"{CELERY_QUEUE}.push", "soft": 30, "hard": 45, "tasks": ["games.tasks.deliver_push"]},
}
CELERY_TASK_ROUTES = {task: {"queue": spec["queue"]} for spec in TASK_QUEUES.values() for task in spec["tasks"]}
CELERY_TASK_ANNOTATIONS = {
    task: {"soft_time_limit": spec["soft"], "time_limit": spec["hard"]}
    for spec in TASK_QUEUES.values()
    for task in spec["tasks"]
}
# A task named nowhere above gets the timers' limits.
CELERY_TASK_SOFT_TIME_LIMIT = TASK_QUEUES["timers"]["soft"]
CELERY_TASK_TIME_LIMIT = TASK_QUEUES["timers"]["hard"]
# The longest ETA a timer task may carry; anything further is left to the sweeper.
TIMER_MAX_ETA_SECONDS = int(os.environ.get("TIMER_MAX_ETA_SECONDS", 600))
SWEEP_INTERVAL_SECONDS = float(os.environ.get("SWEEP_INTERVAL_SECONDS", 5))

# Bots (docs/bots.md): their moves run on a queue of their own, consumed by the Procfile's `bots`
# worker, so a search never delays a timer or a notice. A correspondence bot waits a human-like
# delay before it moves; a Photoshoot bot acts at table speed. A level-3 move thinks at most
# BOT_THINK_SECONDS of CPU. A game with bots is rated only if BOTS_RATED and its creator asks.
BOTS_QUEUE = TASK_QUEUES["bots"]["queue"]
BOT_MOVE_DELAY_SECONDS = float(os.environ.get("BOT_MOVE_DELAY_SECONDS", 3))
BOT_TABLE_DELAY_SECONDS = float(os.environ.get("BOT_TABLE_DELAY_SECONDS", 1))
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", 0.8))
BOTS_RATED = os.environ.get("BOTS_RATED", "") == "1"
# Fair share (games/play/bot_queue.py): games with bots an account may have open or in progress
# at once (as their creator), and how fast an account's used bot time is forgotten.
BOT_GAMES_PER_USER = int(os.environ.get("BOT_GAMES_PER_USER", 5))
BOT_FAIR_HALF_LIFE_SECONDS = float(os.environ.get("BOT_FAIR_HALF_LIFE_SECONDS", 60))

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
if EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend":
    # Django's bounds each step alone; the project's is the same with EMAIL_DEADLINE_SECONDS on
    # the whole of a message (accounts/mail.py), so that a slow server cannot outlive the lease.
    EMAIL_BACKEND = "accounts.mail.SMTPBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# Seconds per blocking operation with the mail server (connect, each read), within
# EMAIL_DEADLINE_SECONDS for a whole message.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", 10))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Darkroom <noreply@darkroom.localhost>")

# Webhooks may not target loopback or private networks unless this is on (tests turn it on to
# reach a server they start on 127.0.0.1).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)
# Every webhook is a POST the outbound worker makes for each notice: a user registers at most this many.
WEBHOOKS_PER_USER = int(os.environ.get("WEBHOOKS_PER_USER", 5))

# Where card images live; a deployment can point this at its own photo set.
CARD_IMAGE_BASE_URL = os.environ.get("CARD_IMAGE_BASE_URL", "/static/")

# Engines defined outside games.engines (the tests' tiny game), "kind=module:attr" comma-separated.
EXTRA_ENGINES = env_list("DARKROOM_EXTRA_ENGINES")

# How many events between snapshots of a game's state.
SNAPSHOT_EVERY = int(os.environ.get("SNAPSHOT_EVERY", 20))
# Engine states each process keeps in memory in front of the Redis cache (games/play/statecache.py):
# a few kB each; 0 turns that layer off.
STATE_MEMORY_ENTRIES = int(os.environ.get("STATE_MEMORY_ENTRIES", 1024))

# --- Logging (ops): JSON lines with the request id (config/logs.py); LOG_FORMAT=text for a
# terminal. Celery must not replace this configuration with its own.
from config import logs as _logs  # noqa: E402

LOGGING = _logs.config(os.environ.get("LOG_LEVEL", "INFO"), os.environ.get("LOG_FORMAT", "json"))
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# --- end logging

CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "games.tasks.sweep", "schedule": SWEEP_INTERVAL_SECONDS},
    # Tournaments whose start time has come, and any whose round ended unheard (docs/tournaments.md).
    "tournaments": {"task": "games.tasks.tournaments_due", "schedule": SWEEP_INTERVAL_SECONDS},
}
# Per account (docs/tournaments.md): tournaments organised and not yet over, and tournaments
# registered for and not yet over.
TOURNAMENTS_PER_USER = int(os.environ.get("TOURNAMENTS_PER_USER", 3))
TOURNAMENT_REGISTRATIONS_PER_USER = int(os.environ.get("TOURNAMENT_REGISTRATIONS_PER_USER", 20))
# Ladders (docs/tournaments.md, "Ladder"): how many places above a player may challenge, and how
# long a challenge waits for its answer before it goes to the challenger.
LADDER_REACH = int(os.environ.get("LADDER_REACH", 3))
LADDER_ANSWER_SECONDS = int(os.environ.get("LADDER_ANSWER_SECONDS", 2 * 86400))
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", 6))
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", 30))
# --- Push (docs/time-and-notifications.md). Web Push's VAPID key pair (RFC 8292): the private key
# as base64url of its raw 32 bytes (or a PEM), the public key base64url of the uncompressed point
# (what browsers take as applicationServerKey); `manage.py vapid_keys` makes a pair. The subject
# is how the push service can reach the operator (mailto: or https:). Without the keys Web Push
# is skipped and `check` says so; likewise APNs and FCM without their credentials.
# The platforms this deployment means to push to ("web", "apns", "fcm"): `check` warns about
# each of them that cannot be sent to.
PUSH_PLATFORMS = env_list("PUSH_PLATFORMS", "web,apns,fcm")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@darkroom.localhost")
# APNs with a provider token: the .p8 key Apple hands out, its key id, the team id, and the app's
# bundle id (the topic). The endpoint is Apple's production one; development builds of the app
# need https://api.sandbox.push.apple.com.
APNS_AUTH_KEY_PATH = os.environ.get("APNS_AUTH_KEY_PATH", "")
APNS_KEY_ID = os.environ.get("APNS_KEY_ID", "")
APNS_TEAM_ID = os.environ.get("APNS_TEAM_ID", "")
APNS_TOPIC = os.environ.get("APNS_TOPIC", "")
APNS_ENDPOINT = os.environ.get("APNS_ENDPOINT", "https://api.push.apple.com")
# FCM HTTP v1: the Firebase project's service-account key (JSON; its project_id names the project,
# its token_uri is where the OAuth2 token comes from).
FCM_CREDENTIALS_PATH = os.environ.get("FCM_CREDENTIALS_PATH", "")
FCM_ENDPOINT = os.environ.get("FCM_ENDPOINT", "https://fcm.googleapis.com")
# Certificate authorities to trust for APNs, FCM and its token endpoint instead of the system's
# (a PEM file): for a TLS-inspecting proxy, or the tests' own CA.
PUSH_CA_FILE = os.environ.get("PUSH_CA_FILE", "")
# The whole of one POST to one push service, as WEBHOOK_DEADLINE_SECONDS is for a webhook; a
# delivery to several browsers posts to each within its own deadline, and the push queue's soft
# limit is the backstop for the lot.
PUSH_DEADLINE_SECONDS = float(os.environ.get("PUSH_DEADLINE_SECONDS", 5))
# How long a push service keeps a message for an offline browser (the TTL header).
PUSH_TTL_SECONDS = int(os.environ.get("PUSH_TTL_SECONDS", 24 * 3600))
PUSH_MAX_PER_USER = int(os.environ.get("PUSH_MAX_PER_USER", 20))
VACATION_DAYS_PER_YEAR = int(os.environ.get("VACATION_DAYS_PER_YEAR", 30))

# --- Accounts (docs/accounts.md): API tokens expire this many days after their last use; a
# user keeps at most TOKENS_PER_USER (one per device). The password reset email links here, with
# {uid} and {token} filled in (the client posts them to /api/v1/accounts/password-reset/confirm/).
TOKEN_TTL_DAYS = int(os.environ.get("TOKEN_TTL_DAYS", 30))
TOKENS_PER_USER = int(os.environ.get("TOKENS_PER_USER", 20))
# A turn notice read (by a move) this recently is opened again, not written anew, when the turn
# comes back: in a real-time game (Photoshoot) that is once per game and sitting, not per turn.
TURN_NOTICE_REOPEN_SECONDS = int(os.environ.get("TURN_NOTICE_REOPEN_SECONDS", 600))
# A deleted account's name (and its look-alikes) cannot be registered for this many days.
USERNAME_RETIRED_DAYS = int(os.environ.get("USERNAME_RETIRED_DAYS", 365))
# Wrong logins per account and address (the lock an owner meets for their own mistakes), and per
# account whatever the addresses (a ceiling against guessing spread over many addresses). A good
# login gives its count back. The "auth" rate above is per address, over every auth endpoint.
THROTTLE_LOGIN_ACCOUNT_ADDRESS = os.environ.get("THROTTLE_LOGIN_ACCOUNT_ADDRESS", "10/hour")
THROTTLE_LOGIN_ACCOUNT = os.environ.get("THROTTLE_LOGIN_ACCOUNT", "100/hour")
# Guest accounts (docs/accounts.md#guests) one address may make: each has a user's own limits.
THROTTLE_GUEST_ADDRESS = os.environ.get("THROTTLE_GUEST_ADDRESS", "20/hour")
PASSWORD_RESET_URL = os.environ.get(
    "PASSWORD_RESET_URL", "http://localhost:8000/reset-password?uid={uid}&token={token}"
)
# One reset mail per address within this many seconds, however many callers ask (0: no limit).
PASSWORD_RESET_MAIL_INTERVAL_SECONDS = int(os.environ.get("PASSWORD_RESET_MAIL_INTERVAL_SECONDS", "60"))
# --- end accounts

# --- Disputes (ops): per player and game, at most this many open at once, and a cooldown
# between two, so disputes can neither flood staff nor the other players' notifications.
DISPUTE_MAX_OPEN = int(os.environ.get("DISPUTE_MAX_OPEN", 3))
DISPUTE_COOLDOWN_SECONDS = int(os.environ.get("DISPUTE_COOLDOWN_SECONDS", 60))

# --- Around games (docs/social.md): a seat silent this long in a game without a clock may be
# claimed forfeited by the others; invitations lapse after INVITATION_DAYS; chat messages are
# at most CHAT_MAX_LENGTH characters, and a user may send CHAT_RATE_COUNT per CHAT_RATE_SECONDS.
# Each invitation notifies someone else (inbox, email, push): a user sends at most
# INVITATIONS_PER_DAY of them in any 24 hours, however many games they spread them over.
VANISHED_AFTER_DAYS = float(os.environ.get("VANISHED_AFTER_DAYS", 14))
INVITATION_DAYS = float(os.environ.get("INVITATION_DAYS", 7))
INVITATIONS_PER_DAY = int(os.environ.get("INVITATIONS_PER_DAY", 50))
CHAT_MAX_LENGTH = int(os.environ.get("CHAT_MAX_LENGTH", 500))
CHAT_RATE_COUNT = int(os.environ.get("CHAT_RATE_COUNT", 5))
CHAT_RATE_SECONDS = int(os.environ.get("CHAT_RATE_SECONDS", 10))

# --- CORS (ops): browser clients on these origins may call /api/ (comma-separated, e.g.
# "https://play.example.org,http://localhost:5173"); none by default. Tokens travel in the
# Authorization header, so no cookies are needed across origins.
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS")
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = ("accept", "authorization", "content-type", "idempotency-key", "if-none-match", "x-request-id")
CORS_EXPOSE_HEADERS = ("etag", "retry-after", "idempotent-replayed", "x-request-id")
CORS_PREFLIGHT_MAX_AGE = 3600
# --- end CORS

# --- Metrics (ops): see config/metrics.py. METRICS_TOKEN guards /metrics, and /readyz's detail
# for callers not on loopback. Without one, /metrics answers only in debug (development): a
# production deployment sets it (`check --deploy` says so).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_OPEN = DEBUG and not METRICS_TOKEN
# --- end metrics

# --- Security for production (ops): on by default when DJANGO_DEBUG is off, so
# `manage.py check --deploy` is clean with the environment in docs/operations.md. A deployment
# serving plain HTTP behind nothing (docker compose on localhost) turns them off explicitly.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
if env_bool("DJANGO_BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31536000))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", not DEBUG)
# --- end security
