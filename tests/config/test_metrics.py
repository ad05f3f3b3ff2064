"""/metrics: request latency by route, moves, expiries and their lateness, deliveries, the queue."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.games.test_webhooks import bob_gets_a_turn, register, receiver  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]


def scrape(client) -> dict:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return sum(v for (n, ls), v in samples.items() if n == name and dict(ls).items() >= labels.items())


def test_requests_are_timed_by_route_not_by_path(client, alice, duel):
    before = scrape(client)
    for _ in range(3):
        alice.get(f"/api/v1/games/{duel}/")
    after = scrape(client)
    route = "api/v1/games/<text:game_id>/"
    assert (
        value(after, "darkroom_http_request_duration_seconds_count", route=route, method="GET", status="200")
        - value(before, "darkroom_http_request_duration_seconds_count", route=route, method="GET", status="200")
        == 3
    )
    assert not any(duel in str(labels) for _, labels in after)


def test_moves_are_counted_once_committed_and_refusals_are_not(
    client, alice, bob, duel, django_capture_on_commit_callbacks
):
    before = value(scrape(client), "darkroom_moves_total", kind="duel")
    card = alice.game(duel)["state"]["hand"][0]
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.move(duel, {"type": "play", "card": card}).status_code == 201
        assert alice.move(duel, {"type": "play", "card": card}).status_code == 409  # not her turn
    assert value(scrape(client), "darkroom_moves_total", kind="duel", auto="false") - before == 1


def test_expiries_and_their_lateness_are_measured(client, alice, bob, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    from games.play import deadlines
    from games.models import Game
    from tests.conftest import start_game

    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 60})
    before = scrape(client)
    # The deadline passed 5 s ago: the expiry written now is about 5 s late.
    Game.objects.filter(pk=game_id).update(next_deadline=timezone.now() - timedelta(seconds=5))
    game = Game.objects.get(pk=game_id)
    clocks = game.clocks
    for seat in clocks["seats"].values():
        if seat.get("since"):
            seat["since"] = (timezone.now() - timedelta(seconds=65)).isoformat()
    Game.objects.filter(pk=game_id).update(clocks=clocks)
    with django_capture_on_commit_callbacks(execute=True):
        assert deadlines.expire_due(game_id) >= 2
    after = scrape(client)
    assert (
        value(after, "darkroom_expiries_total", kind="duel", timer="clock")
        - value(before, "darkroom_expiries_total", kind="duel", timer="clock")
        == 1
    )
    assert (
        value(after, "darkroom_moves_total", kind="duel", auto="true")
        - value(before, "darkroom_moves_total", kind="duel", auto="true")
        == 1
    )
    late = value(after, "darkroom_expiry_lateness_seconds_sum", kind="duel") - value(
        before, "darkroom_expiry_lateness_seconds_sum", kind="duel"
    )
    assert 4 <= late <= 60


def test_notification_deliveries_are_counted_by_channel_and_outcome(
    client,
    alice,
    bob,
    duel,
    receiver,  # noqa: F811 (the fixture imported above)
    django_capture_on_commit_callbacks,
):
    from games.tasks import deliver_webhook

    register(bob, receiver.url)
    before = scrape(client)
    delivery = bob_gets_a_turn(alice, duel)
    with django_capture_on_commit_callbacks(execute=True):
        deliver_webhook(delivery.pk)
    after = scrape(client)
    assert (
        value(after, "darkroom_notification_deliveries_total", channel="webhook", outcome="ok")
        - value(before, "darkroom_notification_deliveries_total", channel="webhook", outcome="ok")
        == 1
    )


@pytest.mark.django_db
def test_every_task_queue_has_its_depth_read_from_the_broker(client, settings):
    from kombu import Connection, Queue

    queues = {role: {**spec, "queue": f"darkroom-metrics-test-{role}"} for role, spec in settings.TASK_QUEUES.items()}
    settings.TASK_QUEUES = queues
    names = [spec["queue"] for spec in queues.values()]
    with Connection(settings.CELERY_BROKER_URL) as broker:
        for waiting, name in enumerate(names):  # the first queue stays empty
            queue = broker.SimpleQueue(name)
            for n in range(waiting):
                queue.put({"n": n})
            queue.close()
        try:
            samples = scrape(client)
            assert {name: value(samples, "darkroom_celery_queue_length", queue=name) for name in names} == {
                name: waiting for waiting, name in enumerate(names)
            }
            assert {dict(labels)["queue"] for name, labels in samples if name == "darkroom_celery_queue_length"} >= set(
                names
            )  # the empty one too
            assert value(samples, "darkroom_broker_up") == 1
        finally:
            for name in names:
                Queue(name, channel=broker.default_channel).delete()
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    assert value(scrape(client), "darkroom_broker_up") == 0  # the scrape itself still works


def test_a_metrics_token_guards_the_endpoint(client, settings):
    settings.METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


def test_without_a_token_metrics_answer_only_in_debug(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_OPEN = "", False  # production without a token
    response = client.get("/metrics")
    assert response.status_code == 403 and response.json()["code"] == "metrics_off"
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403


def test_multiprocess_mode_adds_up_the_samples_of_every_process(tmp_path):
    """Two processes (think: a web worker and a Celery worker) count moves; a third serves the
    sum, as gunicorn workers and Celery workers sharing PROMETHEUS_MULTIPROC_DIR do."""
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    count = "from config import metrics; metrics.MOVES.labels('duel', 'false').inc({n})"
    for n in (2, 5):
        subprocess.run([sys.executable, "-c", count.format(n=n)], cwd=ROOT, env=env, check=True)
    serve = (
        "from prometheus_client import generate_latest; from config import metrics; "
        "import sys; sys.stdout.write(generate_latest(metrics.registry()).decode())"
    )
    env.update(DJANGO_SETTINGS_MODULE="tests.settings", CELERY_BROKER_URL="redis://127.0.0.1:1/0")
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + serve],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert re.search(r'^darkroom_moves_total\{auto="false",kind="duel"\} 7\.0$', out, re.M), out
