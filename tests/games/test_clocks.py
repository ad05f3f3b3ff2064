"""Clock arithmetic (games.play.clocks), with no database and no real time."""

from datetime import datetime, timedelta, timezone

from games.play import clocks

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
PER_MOVE = {"time_control": "per_move", "move_seconds": 100}
BANK = {"time_control": "bank", "bank_initial_seconds": 100, "bank_increment_seconds": 30, "bank_max_seconds": 120}


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def left(c, seat):
    return c["seats"][str(seat)]["left"]


def test_no_time_control_means_no_clocks():
    assert clocks.start({"time_control": "none"}, 2, {0}, T0) == {}
    assert clocks.seat_deadlines({}) == {}


def test_per_move_the_active_seat_has_n_seconds_for_this_move():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    assert clocks.seat_deadlines(c) == {0: at(100)}
    c = clocks.advance(c, PER_MOVE, {0}, {1}, {0}, at(70))
    assert clocks.seat_deadlines(c) == {1: at(170)}


def test_per_move_a_seat_that_moves_and_stays_active_gets_a_fresh_allowance():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    c = clocks.advance(c, PER_MOVE, {0}, {0}, {0}, at(90))
    assert clocks.seat_deadlines(c) == {0: at(190)}


def test_simultaneous_phases_run_every_active_seats_clock_at_once():
    c = clocks.start(PER_MOVE, 3, {0, 1, 2}, T0)
    assert clocks.seat_deadlines(c) == {0: at(100), 1: at(100), 2: at(100)}
    # seat 1 submits: its clock stops; the others keep running from the same start
    c = clocks.advance(c, PER_MOVE, {0, 1, 2}, {0, 2}, {1}, at(40))
    assert clocks.seat_deadlines(c) == {0: at(100), 2: at(100)}
    assert c["seats"]["1"]["since"] is None


def test_bank_spends_while_running_and_earns_the_increment_per_move():
    c = clocks.start(BANK, 2, {0}, T0)
    c = clocks.advance(c, BANK, {0}, {1}, {0}, at(40))
    assert left(c, 0) == 100 - 40 + 30
    assert clocks.seat_deadlines(c) == {1: at(140)}


def test_bank_increment_is_capped_at_the_maximum():
    c = clocks.start(BANK, 2, {0}, T0)
    c = clocks.advance(c, BANK, {0}, {1}, {0}, at(5))
    assert left(c, 0) == 120  # 100 - 5 + 30 = 125, capped at 120


def test_bank_spent_to_exactly_zero_is_due_at_that_instant():
    c = clocks.start(BANK, 2, {0}, T0)
    assert clocks.seat_deadlines(c) == {0: at(100)}
    c = clocks.advance(c, BANK, {0}, {1}, {0}, at(100))
    assert left(c, 0) == 30  # nothing left, plus the increment


def test_bank_never_goes_below_zero_when_charged_late():
    c = clocks.start(BANK, 2, {0}, T0)
    c = clocks.advance(c, BANK, {0}, {1}, set(), at(500))  # taken out of turn without a move
    assert left(c, 0) == 0


def test_bank_of_a_seat_that_waits_is_untouched():
    c = clocks.start(BANK, 2, {0}, T0)
    c = clocks.advance(c, BANK, {0}, {1}, {0}, at(10))
    c = clocks.advance(c, BANK, {1}, {0}, {1}, at(1000))
    assert left(c, 0) == 120 and c["seats"]["0"]["since"] == at(1000).isoformat()


def test_a_vacation_stops_the_clock_and_pushes_the_deadline_back():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    vacation = [(at(50), at(50 + 86400))]
    assert clocks.deadline(c["seats"]["0"], vacation) == at(100 + 86400)


def test_a_vacation_after_the_deadline_changes_nothing():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    assert clocks.deadline(c["seats"]["0"], [(at(200), at(300))]) == at(100)


def test_a_vacation_already_running_when_the_clock_starts_delays_it_until_the_end():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    assert clocks.deadline(c["seats"]["0"], [(at(-10), at(30))]) == at(130)


def test_vacation_time_is_not_charged_to_a_bank():
    c = clocks.start(BANK, 2, {0}, T0)
    c = clocks.advance(c, BANK, {0}, {1}, {0}, at(90), vacations={0: [(at(20), at(80))]})
    assert left(c, 0) == 100 - 30 + 30


def test_a_reminder_falls_when_the_fraction_of_the_allowance_is_left():
    c = clocks.start(PER_MOVE, 2, {0}, T0)
    assert clocks.reminder_times(c, 0.2) == {0: at(80)}
    assert clocks.reminder_times(clocks.mark_reminded(c, [0]), 0.2) == {}
    assert clocks.reminder_times(c, 0) == {}


def test_a_new_move_rearms_the_reminder():
    c = clocks.mark_reminded(clocks.start(PER_MOVE, 2, {0}, T0), [0])
    c = clocks.advance(c, PER_MOVE, {0}, {0}, {0}, at(85))
    assert clocks.reminder_times(c, 0.2) == {0: at(165)}


def test_a_vacation_that_ended_before_the_clock_started_costs_nothing():
    """turns.vacations_for returns past vacations too: they must neither drain nor add time."""
    since = T0 + timedelta(days=10)
    past = [(T0, T0 + timedelta(days=2))]
    assert clocks.running_seconds(since, since + timedelta(hours=1), past) == 3600


def test_a_vacation_that_starts_after_the_moment_measured_costs_nothing():
    future = [(T0 + timedelta(days=3), T0 + timedelta(days=4))]
    assert clocks.running_seconds(T0, T0 + timedelta(hours=5), future) == 5 * 3600
