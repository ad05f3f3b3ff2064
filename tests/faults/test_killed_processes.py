"""A worker SIGKILLed mid-sweep; a scheduler and a worker killed with their twins running:
tests/faults/scenario.py."""

from __future__ import annotations

from django.utils import timezone

from games.models import Event
from tests.conftest import start_game
from tests.faults import figures
from tests.faults.scenario import (
    MARKS,
    PLAYS,
    SCALE,
    all_over,
    assert_written_once,
    clocked_duels,
)
from tests.faults.stack.procfile import Stack, stack_env, wait_quietly
from tests.games.timetravel import rewind
from tests.worker import purge_queue, wait_for

pytestmark = MARKS


def test_a_worker_killed_mid_sweep_loses_no_clock_and_doubles_none(make_player):
    """Many games fall due while no worker runs; the worker that starts sweeping them is killed
    mid-sweep (its batch's transaction dies with it). Its twin sweeps them: each once."""
    host, other = make_player(), make_player()
    count = 40 * SCALE
    games = [
        start_game(host, [other], options={"time_control": "per_move", "move_seconds": 3600}) for _ in range(count)
    ]
    for game_id in games:
        rewind(game_id, 3601)  # due now; no wake was ever sent for an hour-long clock
    stack = Stack(stack_env(), workers=2, beats=0)
    beat = Stack(stack_env(), workers=0, beats=1, outbound=False)
    try:
        stack.start()
        beat.start()

        def sweeping():
            return next(
                (p for p in stack.procs if p.name == "worker" and "task games.tasks.sweep started" in p.output()), None
            )

        victim = wait_for(sweeping, timeout=60, every=0.02)
        assert victim, stack.logs()
        victim.kill()
        killed = timezone.now()
        # Killed mid-sweep: the sweep it started never finished.
        assert "Task games.tasks.sweep[" not in victim.output().split("task games.tasks.sweep started", 1)[1]
        at_kill = Event.objects.filter(game_id__in=games, type="TimerExpired").values("game_id").distinct().count()
        assert wait_for(
            lambda: (
                Event.objects.filter(game_id__in=games, type="TimerExpired").values("game_id").distinct().count()
                == count
            ),
            timeout=90,
        ), stack.logs()
        wait_quietly(3)  # more sweeps: none may expire a deadline again
        assert_written_once(games, clocks=1)
        assert [p.tag for p in stack.procs if p is not victim and not p.alive()] == []
        last = Event.objects.filter(game_id__in=games, type="TimerExpired").order_by("-created_at").first()
        figures.record(
            "worker killed mid-sweep",
            games,
            since=killed,
            clocks=1,
            targets={figures.AFTER_KILL_P99: 2},
            note=(
                f"{at_kill} of {count} expired when it was killed, all {count} "
                f"{(last.created_at - killed).total_seconds():.2f} s after the kill"
            ),
        )
    finally:
        stack.stop()
        beat.stop()


# A scheduler killed, with a second one running (and a worker with its twin)
def test_a_scheduler_and_a_worker_killed_with_their_twins_running_stop_no_clock(make_player):
    """Two beats and two timer workers. The games' first wakes are lost (the queue purged before
    any worker ran), so only a sweep can fire their first clocks; one beat is SIGKILLed as the
    stack comes up, one worker once the clocks are running (with the wakes it holds): the twins
    fire every clock, once."""
    host, games = clocked_duels(make_player, 3 * SCALE)
    purge_queue()
    stack = Stack(stack_env(), workers=2, beats=2, outbound=False)
    try:
        stack.start()
        stack["beat0"].kill()
        assert wait_for(
            lambda: Event.objects.filter(game_id__in=games, type="TimerExpired").count() >= 2 * len(games), timeout=60
        ), stack.logs()
        killed = timezone.now()
        stack["worker0"].kill()
        assert wait_for(lambda: all_over(games), timeout=90), stack.logs()
        assert sorted(stack.dead()) == ["beat0", "worker0"], stack.logs()
        assert_written_once(games)
        figures.record(
            "a scheduler and a worker killed, twins running",
            games,
            since=killed,
            clocks=PLAYS,
            targets={figures.AFTER_KILL_P99: 2},
        )
    finally:
        stack.stop()
