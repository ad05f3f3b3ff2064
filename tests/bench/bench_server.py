"""Benchmarks of the server (run by `make bench`, never by `make test`): loading state, moves,
and how late an expiry fires after its deadline while a real worker runs."""

import statistics

import pytest
from django.utils import timezone

from games.play import statecache, store
from games.models import Event, Game
from tests.conftest import start_game
from tests.worker import Worker, purge_queue, wait_for

pytestmark = pytest.mark.bench


def long_pickpic(make_player, moves=60):
    seats = [make_player() for _ in range(3)]
    game_id = start_game(seats[0], seats[1:], kind="pickpic", options={"target": 200})
    by_user = {p.user.pk: p for p in seats}
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        seat = game.active_seats[0]
        player = [p for p in seats if p.game(game_id)["your_seat"] == seat][0]
        listed = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        player.move(game_id, listed["moves"][0], listed["version"])
    return Game.objects.get(pk=game_id), by_user


@pytest.mark.django_db
def test_bench_load_state_from_snapshot(benchmark, make_player):
    game, _ = long_pickpic(make_player)

    def load():
        statecache.forget(game.pk, game.version)  # not clear(): the broker shares Redis
        return store.state_at(game)

    benchmark(load)
    benchmark.extra_info["events"] = game.version


@pytest.mark.django_db
def test_bench_load_state_full_replay(benchmark, make_player):
    game, _ = long_pickpic(make_player)
    benchmark(store.replay_from_scratch, game)
    benchmark.extra_info["events"] = game.version


@pytest.mark.django_db(transaction=True)
def test_bench_expiry_delay_with_a_worker(make_player, capsys):
    """Start games with 1-second move clocks; measure when each TimerExpired is written against
    its deadline. The ETA task should make every expiry land within a second."""
    purge_queue()
    worker = Worker().start()
    delays = []
    try:
        for _ in range(10):
            alice, bob = make_player(), make_player()
            game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 1})
            assert wait_for(lambda: Event.objects.filter(game_id=game_id, type="TimerExpired").exists(), 20)
            expired = Event.objects.filter(game_id=game_id, type="TimerExpired").first()
            deadline = timezone.datetime.fromisoformat(expired.data["deadline"])
            delays.append((expired.created_at - deadline).total_seconds())
    finally:
        worker.stop()
        purge_queue()
    with capsys.disabled():
        print(
            f"\nexpiry delay over {len(delays)} timeouts: min {min(delays):.3f} s, "
            f"median {statistics.median(delays):.3f} s, max {max(delays):.3f} s"
        )
    assert all(d >= 0 for d in delays)  # never early
