"""The only worker, then the only scheduler, SIGKILLed and started again (the same command, as a
supervisor would) after a few seconds down: the clocks that fell due meanwhile fire once it is
back, each once. tests/faults/scenario.py."""

from __future__ import annotations

from datetime import datetime

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


def timer_events(games):
    return Event.objects.filter(game_id__in=games, type="TimerExpired")


def overdue_fired_after(games, back: datetime) -> set[str]:
    """The games with a clock that was due before `back` and fired after it."""
    return {
        str(game_id)
        for game_id, data, created_at in timer_events(games).values_list("game_id", "data", "created_at")
        if datetime.fromisoformat(data["deadline"]) < back <= created_at
    }


def test_the_only_worker_killed_and_restarted_fires_the_clocks_due_meanwhile_once(make_player):
    """One worker, one beat, Duels on one-second clocks. The worker is SIGKILLed with wakes waiting
    in it (lost with it) and kept down while every game's clock runs out; started again, it fires
    each of those clocks once (the sweeps beat kept sending, and the wakes they schedule), and the
    games play out with no clock lost or doubled."""
    _, games = clocked_duels(make_player, 3 * SCALE)
    stack = Stack(stack_env(), workers=1, beats=1, outbound=False)
    worker = stack["worker0"]
    try:
        stack.start()
        assert wait_for(lambda: timer_events(games).count() >= len(games), timeout=60), stack.logs()
        worker.kill()
        at_kill = timer_events(games).count()
        wait_quietly(3 * SCALE)
        assert timer_events(games).count() == at_kill  # no worker, no expiry: they are all overdue now
        back = timezone.now()
        worker.start()
        started = (timezone.now() - back).total_seconds()
        assert wait_for(lambda: all_over(games), timeout=60 + 20 * SCALE), stack.logs()
        assert stack.dead() == [], stack.logs()
        assert_written_once(games)
        assert overdue_fired_after(games, back) == {str(g) for g in games}
        figures.record(
            "the only worker killed, restarted",
            games,
            after=back,
            clocks=PLAYS,
            targets={figures.CATCH_UP: 5},
            note=f"down {3 * SCALE} s, {at_kill} expiries before the kill, "
            f"consuming again {started:.2f} s after its restart",
        )
    finally:
        stack.stop()


def tasks_settled(worker) -> bool:
    """Every task the worker took has finished (a sweep among them could still fire a clock)."""
    log = worker.output()
    return log.count("] received") == log.count("] succeeded in") + log.count("] raised")


def test_the_only_scheduler_killed_and_restarted_resumes_the_sweeps(make_player):
    """One worker, one beat. Beat is SIGKILLed; then games on hour-long clocks fall due (rewound: no
    wake was ever sent for them, only a sweep can fire them), and nothing fires them while beat is
    down. Started again, its sweeps resume and fire each of those clocks once."""
    host, other = make_player(), make_player()
    games = [
        start_game(host, [other], options={"time_control": "per_move", "move_seconds": 3600}) for _ in range(5 * SCALE)
    ]
    stack = Stack(stack_env(), workers=1, beats=1, outbound=False)
    beat, worker = stack["beat0"], stack["worker0"]
    try:
        stack.start()
        assert wait_for(lambda: "] succeeded in" in worker.output(), timeout=60), stack.logs()  # beat swept
        beat.kill()
        purge_queue()  # the sweeps it sent and no worker took yet; those taken run out:
        assert wait_for(lambda: tasks_settled(worker), timeout=60), stack.logs()
        wait_quietly(1)
        assert wait_for(lambda: tasks_settled(worker), timeout=60), stack.logs()
        for game_id in games:
            rewind(game_id, 3601)  # due now, with no scheduler running
        wait_quietly(3 * SCALE)
        assert not timer_events(games).exists(), stack.logs()
        back = timezone.now()
        beat.start()
        started = (timezone.now() - back).total_seconds()
        assert wait_for(
            lambda: timer_events(games).values("game_id").distinct().count() == len(games), timeout=60 + 20 * SCALE
        ), stack.logs()
        wait_quietly(3)  # more sweeps: none may expire a deadline again
        assert_written_once(games, clocks=1)
        assert stack.dead() == [], stack.logs()
        assert overdue_fired_after(games, back) == {str(g) for g in games}
        figures.record(
            "the only scheduler killed, restarted",
            games,
            after=back,
            clocks=1,
            targets={figures.CATCH_UP: 5},
            note=f"clocks due {3 * SCALE} s before its return, scheduling again {started:.2f} s after its restart",
        )
    finally:
        stack.stop()
