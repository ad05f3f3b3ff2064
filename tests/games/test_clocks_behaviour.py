"""Deadlines around vacations, and per-seat vacations in every reading of the clocks: the cases
mutation testing found unstated. Worked by hand from the rule in games/clocks.py: a deadline is the
moment a seat's running time, vacations not counted, reaches what it had left."""
from datetime import datetime, timedelta, timezone

from games import clocks

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
PER_MOVE = {"time_control": "per_move", "move_seconds": 100}


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def running(left):
    return {"left": left, "since": T0.isoformat(), "allowance": left, "reminded": False}


def test_a_vacation_in_the_middle_of_a_move_pushes_the_deadline_back_by_its_length():
    # 30 s run, 30 s away, 70 s left to run: 100 + 30 = 130.
    assert clocks.deadline(running(100), [(at(30), at(60))]) == at(130)


def test_time_that_runs_out_just_as_a_vacation_starts_is_up_then():
    assert clocks.deadline(running(100), [(at(100), at(200))]) == at(100)


def test_a_past_vacation_does_not_hide_a_later_one():
    vacations = [(at(-1000), at(-500)), (at(50), at(150))]
    assert clocks.deadline(running(100), vacations) == at(200)


def test_two_vacations_both_count():
    assert clocks.deadline(running(100), [(at(10), at(20)), (at(50), at(80))]) == at(140)


def two_running_seats():
    return clocks.start(PER_MOVE, 2, {0, 1}, T0)  # a simultaneous phase: both clocks run


def test_each_seat_s_deadline_counts_its_own_user_s_vacations():
    vacations = {1: [(at(10), at(40))]}
    assert clocks.seat_deadlines(two_running_seats(), vacations) == {0: at(100), 1: at(130)}


def test_skipping_a_seat_leaves_the_others():
    assert clocks.seat_deadlines(two_running_seats(), skip=[0]) == {1: at(100)}


def test_a_reminder_comes_later_by_the_vacation_taken():
    vacations = {0: [(at(10), at(40))]}
    # 20% of 100 s left: 80 s of running time, plus the 30 s away for seat 0.
    assert clocks.reminder_times(two_running_seats(), 0.2, vacations) == {0: at(110), 1: at(80)}
