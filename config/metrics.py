"""Prometheus metrics at `/metrics`.

Several processes serve one deployment (web workers, Celery workers, beat), and a scrape reaches
one of them. prometheus_client's multiprocess mode solves that without another service: with
PROMETHEUS_MULTIPROC_DIR set, every process writes its samples to files in that directory and
`/metrics` adds them up (counters and histograms; no live gauges are used, so no cleanup per dead
process is needed). The directory must be shared by the processes of one host and emptied before
they start (compose's `migrate` service does it). Without the variable (development, tests) the
process's own registry is served. The Celery queues' depths are asked of the broker at scrape time.

`METRICS_TOKEN` is required as `Authorization: Bearer <token>`. Without one, `/metrics` answers
only in debug (METRICS_OPEN): in production the samples (routes, kinds, rates) are not for anyone.
"""

from __future__ import annotations

import hmac
import os
import time

from django.conf import settings
from django.core import checks
from django.http import HttpResponse, JsonResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily

from config import database
from config import redis as redis_roles
from config.middleware import HybridMiddleware

PATH = "/metrics"
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

REQUEST_SECONDS = Histogram(
    "darkroom_http_request_duration_seconds",
    "Time to answer a request, by route",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
MOVES = Counter("darkroom_moves_total", "Moves accepted, by kind; auto: played by the server", ["kind", "auto"])
EXPIRIES = Counter(
    "darkroom_expiries_total", "Timers that expired, by kind, timer and policy", ["kind", "timer", "policy"]
)
EXPIRY_LATENESS = Histogram(
    "darkroom_expiry_lateness_seconds",
    "How long after its deadline an expiry was written",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600),
)
DELIVERIES = Counter(
    "darkroom_notification_deliveries_total",
    "Notification delivery attempts, by channel and outcome",
    ["channel", "outcome"],
)


# -- the Celery queues, read at scrape time -----------------------------------------------------
class QueueCollector:
    """Tasks waiting in each of the broker's queues (every queue of settings.TASK_QUEUES), asked
    of the broker the documented way: a passive declare answers with the queue's message count.
    On Redis an empty queue is no key at all, which a passive declare reports as "not found":
    that is a length of 0."""

    def collect(self):
        from kombu import Queue
        from kombu.exceptions import ChannelError

        waiting = GaugeMetricFamily(
            "darkroom_celery_queue_length", "Tasks waiting in the broker queue", labels=["queue"]
        )
        up = GaugeMetricFamily("darkroom_broker_up", "1 if the broker answered the scrape")
        names = sorted({spec["queue"] for spec in settings.TASK_QUEUES.values()})
        try:
            with redis_roles.broker() as connection:
                channel = connection.default_channel
                for name in names:
                    try:
                        count = Queue(name, channel=channel).queue_declare(passive=True).message_count
                    except ChannelError:
                        count = 0
                    waiting.add_metric([name], count)
        except Exception:  # a scrape must not fail because the broker is down: say so instead
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield waiting
        yield up


# -- the read replica, measured at scrape time ----------------------------------------------------
class ReplicaCollector:
    """With a replica configured (REPLICA_DATABASE_URL): its lag as this process measures it now
    (pg_last_xact_replay_timestamp(), config/database.py) and whether this process sends it reads
    (0 past REPLICA_MAX_LAG or while it cannot be reached: the primary answers them)."""

    def collect(self):
        if not database.replica_configured():
            return
        lag = database.replica_lag(fresh=True)
        up = GaugeMetricFamily("darkroom_replica_up", "1 if the read replica answered as a replica")
        up.add_metric([], 0 if lag is None else 1)
        yield up
        if lag is not None:
            seconds = GaugeMetricFamily(
                "darkroom_replica_lag_seconds", "How far the read replica's replay is behind the primary"
            )
            seconds.add_metric([], lag)
            yield seconds
        used = GaugeMetricFamily(
            "darkroom_replica_reads_enabled",
            "1 if reads that may lag go to the replica (its lag is within REPLICA_MAX_LAG)",
        )
        used.add_metric([], int(lag is not None and lag <= settings.REPLICA_MAX_LAG))
        yield used


def registry() -> CollectorRegistry:
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        from prometheus_client import multiprocess

        scrape = CollectorRegistry()
        multiprocess.MultiProcessCollector(scrape, path=directory)
    else:
        scrape = CollectorRegistry()
        scrape.register(_Default())
    scrape.register(QueueCollector())
    scrape.register(ReplicaCollector())
    return scrape


class _Default:
    """This process's metrics (the global registry) inside a scrape registry of its own."""

    def collect(self):
        return REGISTRY.collect()


@checks.register(checks.Tags.security, deploy=True)
def metrics_token_is_set(app_configs, **kwargs):
    if settings.METRICS_TOKEN:
        return []
    return [
        checks.Warning(
            "METRICS_TOKEN is not set: /metrics refuses every scrape outside debug",
            hint="set METRICS_TOKEN and give it to the scraper as a bearer token (docs/operations.md)",
            id="darkroom.W001",
        )
    ]


# -- HTTP ---------------------------------------------------------------------------------------
class MetricsMiddleware(HybridMiddleware):
    """Times every request by its route pattern (never the raw path: ids would make a series per
    game) and serves `/metrics` itself, before host checks, so a scraper may use an IP."""

    def answers(self, request):
        return request.path == PATH

    def answer(self, request):  # the queue collector asks Redis: a thread under ASGI
        return self.scrape(request)

    def before(self, request):
        return time.perf_counter()

    def after(self, request, response, started):
        match = getattr(request, "resolver_match", None)
        route = match.route if match else "unmatched"
        method = request.method if request.method in METHODS else "other"
        REQUEST_SECONDS.labels(method, route, str(response.status_code)).observe(time.perf_counter() - started)
        return response

    def scrape(self, request):
        if not settings.METRICS_TOKEN and not settings.METRICS_OPEN:
            return JsonResponse({"code": "metrics_off", "detail": "set METRICS_TOKEN to scrape /metrics"}, status=403)
        if settings.METRICS_TOKEN and not has_token(request):
            return HttpResponse(
                "metrics need the bearer token\n",
                status=401,
                content_type="text/plain",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)


def has_token(request) -> bool:
    """The request carries `Authorization: Bearer <METRICS_TOKEN>` (never true without a token)."""
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
