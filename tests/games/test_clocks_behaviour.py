"""Deadlines around vacations, and per-seat vacations in every reading of the clocks: the cases
mutation testing found unstated. Worked by hand from the rule in games/play/clocks.py: a deadline is the
moment a seat's running time, vacations not counted, reaches what it had left."""

from datetime import datetime, timedelta, timezone

from games.play import clocks

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


def test_options_without_a_time_control_mean_no_clocks():
    assert clocks.start({}, 2, {0}, T0) == {}


def test_no_time_passes_in_no_time_or_all_on_vacation():
    assert clocks.running_seconds(at(10), at(10), []) == 0
    assert clocks.running_seconds(at(10), at(20), [(at(0), at(30))]) == 0


def test_a_stopped_clock_of_a_seat_still_active_starts_afresh():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    c["seats"]["0"].update(left=40.0, since=None)  # stopped with 40 s left
    c = clocks.advance(c, PER_MOVE, {0}, {0}, set(), at(10))
    assert c["seats"]["0"]["left"] == 100 and clocks.seat_deadlines(c) == {0: at(110)}


def test_a_reminder_is_a_fraction_of_what_the_seat_had_when_its_clock_last_started():
    bank = {"time_control": "bank", "bank_initial_seconds": 100, "bank_increment_seconds": 30, "bank_max_seconds": 120}
    c = clocks.start(bank, 2, {0}, T0)
    c = clocks.advance(c, bank, {0}, {1}, {0}, at(50))  # seat 0: 100 - 50 + 30 = 80 left
    c = clocks.advance(c, bank, {1}, {0}, {1}, at(80))  # seat 0 runs again from 80 s
    assert c["seats"]["0"]["allowance"] == 80
    # Due at 80 + 80 = 160; a quarter of the 80 s is 20 s before that.
    assert clocks.reminder_times(c, 0.25) == {0: at(140)}
