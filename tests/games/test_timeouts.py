"""Time controls on real PostgreSQL: deadlines in the projection, expiry on the next write or by
the timer task, auto-moves that replay exactly, forfeits, vacations. (The worker-driven versions
of these are in test_worker.py.)"""

import json

import pytest
from django.utils import timezone

from games.play import deadlines, store
from games.engines import base
from games.models import Event, Game
from tests.conftest import start_game
from tests.games.timetravel import rewind

DAY = 86400


def timed(alice, bob, **options):
    return start_game(alice, [bob], options={"time_control": "per_move", **options})


def types(game_id):
    return list(Event.objects.filter(game_id=game_id).order_by("seq").values_list("type", flat=True))


def test_correspondence_default_is_three_days_per_move(alice, bob):
    game_id = timed(alice, bob)
    game = Game.objects.get(pk=game_id)
    assert game.options["move_seconds"] == 3 * DAY
    delta = game.next_deadline - game.started_at
    assert abs(delta.total_seconds() - 3 * DAY) < 1


def test_the_clock_state_of_every_seat_is_in_the_game_view(alice, bob):
    game_id = timed(alice, bob)
    clocks = alice.game(game_id)["clocks"]
    assert clocks["control"] == "per_move"
    assert clocks["seats"]["0"]["since"] is not None and clocks["seats"]["1"]["since"] is None
    assert clocks["seats"]["0"]["left"] == 3 * DAY


def test_a_move_after_the_deadline_first_appends_the_expiry_then_is_judged(alice, bob):
    game_id = timed(alice, bob)
    version = Game.objects.get(pk=game_id).version
    card = alice.game(game_id)["state"]["hand"][0]
    rewind(game_id, 3 * DAY + 60)
    late = alice.move(game_id, {"type": "play", "card": card}, version)
    assert (late.status_code, late.json()["code"]) == (409, "version_conflict")
    assert types(game_id)[version:] == ["TimerExpired", "CardPlayed"]
    expired = Event.objects.get(game_id=game_id, type="TimerExpired")
    assert expired.data["seat"] == 0 and expired.data["policy"] == "auto_move"
    auto = Event.objects.get(game_id=game_id, seq=version + 2)
    assert auto.actor == 0 and auto.data["auto"] is True and auto.user_id is None


def test_the_expiry_task_run_twice_appends_once(alice, bob):
    game_id = timed(alice, bob)
    game = rewind(game_id, 3 * DAY + 1)
    assert deadlines.expire_due(game_id, game.version) == 2  # TimerExpired + the auto-move
    assert deadlines.expire_due(game_id, game.version) == 0
    assert deadlines.expire_due(game_id) == 0
    assert types(game_id).count("TimerExpired") == 1


def test_an_early_or_stale_task_does_nothing(alice, bob):
    game_id = timed(alice, bob)
    game = Game.objects.get(pk=game_id)
    assert deadlines.expire_due(game_id, game.version) == 0  # not due yet
    rewind(game_id, 3 * DAY + 1)
    assert deadlines.expire_due(game_id, game.version - 1) == 0  # scheduled for an older version
    assert "TimerExpired" not in types(game_id)


def test_the_auto_move_is_chosen_from_the_seed_and_event_number_and_replays_exactly(alice, bob):
    game_id = timed(alice, bob)
    game = Game.objects.get(pk=game_id)
    state_before = store.state_at(game)
    rewind(game_id, 3 * DAY + 1)
    deadlines.expire_due(game_id)
    game.refresh_from_db()
    auto = Event.objects.get(game=game, seq=game.version)
    seed = Event.objects.get(game=game, seq=1).data["seed"]
    from games.play.kinds import get_engine

    legal = get_engine("duel").legal_moves(state_before, 0)
    assert auto.data["move"] in legal  # the rules require a legal move for the late seat
    assert auto.data["move"] == base.rng(seed, "auto", auto.seq).choice(legal)  # and a reproducible one
    assert json.dumps(store.replay_from_scratch(game), sort_keys=True) == json.dumps(
        store.state_at(game), sort_keys=True
    )


def test_forfeit_in_a_two_seat_game_ends_it_and_the_other_seat_wins(alice, bob):
    game_id = timed(alice, bob, timeout_policy="forfeit")
    rewind(game_id, 3 * DAY + 1)
    deadlines.expire_due(game_id)
    game = alice.game(game_id)
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [1] and game["result"]["forfeited"] == [0]
    assert game["result"]["places"] == [2, 1] and game["result"]["tie_break"] == "forfeit"
    assert types(game_id)[-3:] == ["TimerExpired", "SeatForfeited", "GameFinished"]


def test_a_forfeited_seat_in_a_bigger_game_is_played_for_and_ranked_last(alice, bob, carol):
    game_id = start_game(
        alice,
        [bob, carol],
        kind="pickpic",
        options={"time_control": "per_move", "move_seconds": 3600, "timeout_policy": "forfeit"},
    )
    game = Game.objects.get(pk=game_id)
    assert game.active_seats == [0, 1, 2]  # the give phase is simultaneous
    moves = {p: p.get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"][0] for p in (bob, carol)}
    for player, move in moves.items():
        assert player.move(game_id, move).status_code == 201
    rewind(game_id, 3601)
    deadlines.expire_due(game_id)
    game.refresh_from_db()
    assert game.status == "active"
    assert types(game_id)[-4:-1] == ["TimerExpired", "SeatForfeited", "CardsGiven"]  # played for seat 0
    from games.play.kinds import get_engine

    engine = get_engine("pickpic")
    state = store.state_at(game)
    assert engine.forfeited(state) == [0]
    # Seat 0 is out and played for: only the two seats still in are awaited.
    assert game.active_seats == [1, 2] and engine.active_players(state) == {1, 2}


def test_the_engine_outcome_ranks_forfeited_seats_last_whatever_their_score():
    from games.play.kinds import get_engine

    duel = get_engine("duel")
    over = {
        "players": 2,
        "deck": [],
        "hands": [[], []],
        "turn": 0,
        "trick": [],
        "tricks": [5, 1],
        "discard": [],
        "_forfeited": [0],
    }
    result = duel.outcome(over)
    assert result["winners"] == [1] and result["places"] == [2, 1] and result["scores"] == [5, 1]


def test_no_time_control_means_no_deadline(alice, bob):
    game = Game.objects.get(pk=start_game(alice, [bob], options={"time_control": "none"}))
    assert game.next_deadline is None and game.clocks == {}


def test_new_games_have_a_correspondence_clock_by_default(alice, bob, duel):
    game = Game.objects.get(pk=duel)
    assert game.clocks["control"] == "per_move" and game.next_deadline is not None


def test_bad_clock_options_are_refused_at_create(alice):
    for options in [
        {"time_control": "per_move", "move_seconds": 0},
        {"time_control": "bank", "bank_initial_seconds": 100, "bank_max_seconds": 50},
        {"timeout_policy": "resign"},
        {"reminder_fraction": 2},
    ]:
        response = alice.post("/api/v1/games/", {"kind": "duel", "options": options})
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), options


def test_a_vacation_stops_the_clock_in_every_game(alice, bob, carol):
    first, second = timed(alice, bob), timed(alice, carol)
    before = {g: Game.objects.get(pk=g).next_deadline for g in (first, second)}
    response = alice.post("/api/v1/accounts/vacation/", {"days": 2})
    assert response.status_code == 201
    for game_id in (first, second):
        shift = (Game.objects.get(pk=game_id).next_deadline - before[game_id]).total_seconds()
        assert abs(shift - 2 * DAY) < 5
    info = alice.get("/api/v1/accounts/vacation/").json()
    assert info["on_vacation"] and 27.9 < info["days_left"] <= 28


def test_a_vacation_over_the_deadline_keeps_the_seat_from_timing_out(alice, bob):
    game_id = timed(alice, bob, move_seconds=3600)
    alice.post("/api/v1/accounts/vacation/", {"days": 1})
    rewind(game_id, 3600 + 60)  # an hour on: without the vacation the move would be overdue
    deadlines.expire_due(game_id)
    assert "TimerExpired" not in types(game_id)


def test_ending_a_vacation_restores_the_deadline(alice, bob):
    game_id = timed(alice, bob)
    before = Game.objects.get(pk=game_id).next_deadline
    alice.post("/api/v1/accounts/vacation/", {"days": 3})
    assert alice.client.delete("/api/v1/accounts/vacation/").status_code == 204
    after = Game.objects.get(pk=game_id).next_deadline
    assert abs((after - before).total_seconds()) < 5


@pytest.mark.parametrize("days", [0, -1, 31, "x"])
def test_vacation_beyond_the_yearly_allowance_or_nonsense_is_400(alice, days):
    response = alice.post("/api/v1/accounts/vacation/", {"days": days})
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_bank_time_control_spends_and_earns(alice, bob, monkeypatch):
    # The clock stands still but for the rewind: exact figures, whatever the machine's load.
    frozen = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    game_id = start_game(
        alice,
        [bob],
        options={
            "time_control": "bank",
            "bank_initial_seconds": 1000,
            "bank_increment_seconds": 100,
            "bank_max_seconds": 1050,
        },
    )
    rewind(game_id, 300)
    alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]})
    seat = Game.objects.get(pk=game_id).clocks["seats"]["0"]
    assert seat["left"] == 800  # 1000 - 300 + 100
    assert seat["since"] is None


def test_a_reminder_is_sent_once_when_a_fifth_of_the_time_is_left(alice, bob):
    game_id = timed(alice, bob, move_seconds=1000)
    rewind(game_id, 801)
    assert deadlines.send_due_reminders(game_id) == 1
    assert deadlines.send_due_reminders(game_id) == 0
    notes = alice.get("/api/v1/notifications/").json()["results"]
    assert [n["type"] for n in notes].count("reminder") == 1
    assert Game.objects.get(pk=game_id).next_reminder is None


def test_the_projection_holds_the_next_deadline_the_sweeper_selects_on(alice, bob):
    game_id = timed(alice, bob, move_seconds=60)
    due = Game.objects.filter(next_deadline__lte=timezone.now())
    assert not due.filter(pk=game_id).exists()
    rewind(game_id, 61)
    assert due.filter(pk=game_id).exists()
    from games.tasks import sweep

    counts = sweep()
    assert counts["expired"] == 2
    assert not Game.objects.filter(pk=game_id, next_deadline__lte=timezone.now()).exists()
