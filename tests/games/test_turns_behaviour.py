"""A Turn's promises that mutation testing found unstated: the auto-move is fixed by the seed and
the event number alone, the game-wide reads (seeds, vacations) answer for the games asked about,
and a vacation moves the wake times of the user's own active games only."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.play import deadlines, store, turns
from games.models import Event, Game, Notification
from games.play.turns import Turn
from tests.conftest import start_game
from tests.duel import Duel
from tests.games.timetravel import rewind

SEED = "pinned-seed"
# Recorded once from this seed: the hand Duel deals seat 0 is D04, D10, D01, and the card the
# server plays for a late seat 0 when the game stands at each version (the event is the next one).
PINNED = {4: "D10", 5: "D01", 6: "D10", 7: "D10", 8: "D04", 9: "D10"}


def auto_move_at(version, seed=SEED):
    engine = Duel()
    state = engine.setup(2, {}, seed)
    turn = Turn(
        Game(version=version, clocks={}, active_seats=[0], options={}), engine, state, timezone.now(), seed=seed
    )
    turn.auto_move(0)
    (event,) = turn.events
    assert event.actor == 0 and event.data["auto"] is True
    return event.data["move"]


def test_the_auto_move_is_fixed_by_the_seed_and_the_event_number():
    engine = Duel()
    hand = [m["card"] for m in engine.legal_moves(engine.setup(2, {}, SEED), 0)]
    assert sorted(hand) == ["D01", "D04", "D10"]
    assert {version: auto_move_at(version)["card"] for version in PINNED} == PINNED


def test_the_same_seed_and_event_number_always_give_the_same_auto_move():
    assert [auto_move_at(6) for _ in range(5)] == [{"type": "play", "card": PINNED[6]}] * 5


def test_the_seeds_read_for_some_games_are_those_games_seeds_only(alice, bob, duel):
    other = start_game(alice, [bob])
    seed = Event.objects.get(game_id=duel, seq=1).data["seed"]
    assert turns.seeds_of([Game.objects.get(pk=duel)]) == {Game.objects.get(pk=duel).pk: seed}
    assert len(turns.seeds_of(list(Game.objects.filter(pk__in=[duel, other])))) == 2


def test_a_game_whose_players_take_no_vacation_has_no_vacation_intervals(alice, bob, duel):
    assert turns.vacations_for(Game.objects.get(pk=duel)) == {}


def timed(creator, other):
    return start_game(creator, [other], options={"time_control": "per_move"})


def test_a_vacation_moves_the_deadlines_of_the_user_s_active_games_only(alice, bob, carol):
    mine, theirs, aborted = timed(alice, bob), timed(bob, carol), timed(alice, carol)
    assert alice.post(f"/api/v1/games/{aborted}/abort/").json()["aborted"] is True
    before = {g: Game.objects.get(pk=g).next_deadline for g in (mine, theirs, aborted)}
    assert before[aborted] is None
    assert alice.post("/api/v1/accounts/vacation/", {"days": 2}).status_code == 201
    after = {g: Game.objects.get(pk=g).next_deadline for g in (mine, theirs, aborted)}
    assert abs((after[mine] - before[mine]).total_seconds() - 2 * 86400) < 5
    assert after[theirs] == before[theirs]  # bob and carol's game: not alice's clock
    assert after[aborted] is None  # over: nothing falls due in it any more


@pytest.mark.parametrize("reason", [None, "resigned"])
def test_a_forfeit_records_the_seat_and_the_reason_only_when_there_is_one(alice, bob, duel, reason):
    game = Game.objects.get(pk=duel)
    turn = Turn(game, Duel(), store.state_at(game), timezone.now())
    turn.forfeit(1, reason, actor=1 if reason else None, user_id=bob.user.pk if reason else None)
    (event,) = turn.events
    assert event.type == "SeatForfeited"
    assert event.data == ({"seat": 1, "reason": reason} if reason else {"seat": 1})
    assert (event.actor, event.user_id) == ((1, bob.user.pk) if reason else (None, None))


def away(player, start_ago, end_ago):
    from accounts.models import Vacation

    now = timezone.now()
    Vacation.objects.create(
        user=player.user, start=now - timedelta(seconds=start_ago), end=now - timedelta(seconds=end_ago)
    )


def test_time_spent_on_vacation_is_not_taken_from_the_bank_of_the_seat_that_moves(alice, bob):
    game_id = start_game(
        alice,
        [bob],
        options={
            "time_control": "bank",
            "bank_initial_seconds": 3600,
            "bank_increment_seconds": 0,
            "bank_max_seconds": 3600,
        },
    )
    rewind(game_id, 1800)  # alice's clock has run half an hour ...
    away(alice, 1500, 300)  # ... twenty minutes of which she was away
    assert alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]}).status_code == 201
    left = Game.objects.get(pk=game_id).clocks["seats"]["0"]["left"]
    assert 3600 - 600 - 5 < left <= 3600 - 600


def test_a_seat_whose_running_time_was_spent_on_vacation_is_not_timed_out(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600})
    rewind(game_id, 2 * 3600)  # two hours since alice's clock started, of an hour's allowance ...
    away(alice, 2 * 3600, 0)  # ... all of them away
    Game.objects.filter(pk=game_id).update(next_deadline=timezone.now())  # a wake comes all the same
    assert deadlines.expire_due(game_id) == 0
    assert not Event.objects.filter(game_id=game_id, type="TimerExpired").exists()


def test_a_player_s_move_is_recorded_as_theirs_and_not_as_an_auto_move(alice, duel):
    card = alice.game(duel)["state"]["hand"][0]
    assert alice.move(duel, {"type": "play", "card": card}, key="mine").status_code == 201
    event = Event.objects.get(game_id=duel, seq=5)
    assert (event.type, event.actor, event.user_id, event.idempotency_key) == ("CardPlayed", 0, alice.user.pk, "mine")
    assert set(event.data) == {"move", "record"} and event.data["move"] == {"type": "play", "card": card}


def test_an_engine_timer_falls_due_at_its_very_instant(alice, bob, monkeypatch):
    game_id = start_game(alice, [bob], options={"hourglass": 600})
    alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]})
    game = Game.objects.get(pk=game_id)
    monkeypatch.setattr(timezone, "now", lambda: game.next_deadline)
    assert deadlines.expire_due(game_id, game.version) == 2
    expired = Event.objects.get(game=game, seq=game.version + 1)
    assert expired.type == "TimerExpired"
    assert expired.data == {"timer": "hourglass", "seat": 1, "deadline": game.next_deadline.isoformat()}


def test_seats_overdue_together_expire_in_the_order_their_time_ran_out(make_player):
    players = [make_player() for _ in range(3)]
    game_id = start_game(
        players[0], players[1:], kind="pickpic", options={"time_control": "per_move", "move_seconds": 3600}
    )
    game = Game.objects.get(pk=game_id)
    assert game.active_seats == [0, 1, 2]  # the give phase is simultaneous
    now = timezone.now()
    ran_out = {"0": now - timedelta(seconds=60), "1": now - timedelta(seconds=120)}  # seat 1 first
    for seat, when in ran_out.items():
        game.clocks["seats"][seat]["since"] = (when - timedelta(seconds=3600)).isoformat()
    Game.objects.filter(pk=game_id).update(clocks=game.clocks, next_deadline=ran_out["1"])
    deadlines.expire_due(game_id)
    expired = Event.objects.filter(game_id=game_id, type="TimerExpired").order_by("seq")
    assert [(e.data["timer"], e.data["seat"]) for e in expired] == [("clock", 1), ("clock", 0)]
    assert expired[0].data == {"timer": "clock", "seat": 1, "deadline": ran_out["1"].isoformat(), "policy": "auto_move"}


def test_the_end_of_a_rated_game_publishes_the_seed_and_the_rating_changes(alice, bob, duel):
    from tests.games.test_judgement_order import finish

    finish(alice, bob, duel)
    game = Game.objects.get(pk=duel)
    finished = Event.objects.get(game=game, type="GameFinished")
    seed = Event.objects.get(game=game, seq=1).data["seed"]
    assert finished.data == {"result": game.result, "seed": seed}
    assert [change["seat"] for change in game.result["rating_changes"]] == [0, 1]
    assert game.finished_at == finished.created_at
    assert (game.active_seats, game.next_deadline) == ([], None)


def test_a_seat_s_clock_falls_due_at_its_very_instant(alice, bob, monkeypatch):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600})
    game = Game.objects.get(pk=game_id)
    monkeypatch.setattr(timezone, "now", lambda: game.next_deadline)
    assert deadlines.expire_due(game_id, game.version) == 2
    assert Event.objects.get(game=game, seq=game.version + 1).data["seat"] == 0


def test_a_seat_already_to_move_is_not_told_again_when_another_seat_moves(make_player):
    players = [make_player() for _ in range(3)]
    game_id = start_game(players[0], players[1:], kind="pickpic")
    assert Game.objects.get(pk=game_id).active_seats == [0, 1, 2]  # the give phase is simultaneous
    Notification.objects.update(read_at=timezone.now())  # every seat has seen its turn
    move = players[1].get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"][0]
    assert players[1].move(game_id, move).status_code == 201
    assert not Notification.objects.filter(type="your_turn", read_at__isnull=True).exists()


def photoshoot(make_player, **options):
    from tests.games.test_photoshoot_http import ready_all

    players = [make_player() for _ in range(4)]
    game_id = start_game(players[0], players[1:], kind="photoshoot", options=options)
    ready_all(players, game_id)
    return players, game_id


def test_one_wake_plays_a_resigned_seat_s_turn_that_an_engine_timer_brings(make_player, monkeypatch):
    players, game_id = photoshoot(make_player, hourglass_seconds=600)
    assert players[3].post(f"/api/v1/games/{game_id}/resign/").status_code == 200
    game = Game.objects.get(pk=game_id)
    monkeypatch.setattr(timezone, "now", lambda: game.next_deadline)
    assert deadlines.expire_due(game_id, game.version) == 3
    events = Event.objects.filter(game=game, seq__gt=game.version).order_by("seq")
    assert [(e.type, e.actor) for e in events] == [
        ("TimerExpired", None),
        ("HourglassRanOut", None),
        ("PlayerReady", 3),
    ]
    assert events[2].data["move"] == {"type": "ready"} and events[2].data["auto"] is True


def fresh_users(count, prefix):
    from accounts.models import User

    return {seat: User.objects.create_user(username=f"{prefix}{seat}", password="x").pk for seat in range(count)}


def test_a_team_game_finished_by_a_turn_is_rated_team_against_team(make_player):
    """Photoshoot 2 v 2 (seats 0 and 2 against 1 and 3), its last round's hourglass run out in a
    Turn: each team is one side of the rating, as `ratings` rates two teams, not four players."""
    from accounts import ratings
    from games.engines.photoshoot import ENGINE
    from tests.engines.photoshoot.helpers import started
    from tests.engines.photoshoot.test_scoring import run_out, started_again

    players = [make_player() for _ in range(4)]
    game = Game.objects.get(pk=start_game(players[0], players[1:], kind="photoshoot"))
    assert game.rated is True
    last_round = started(4)  # the last round in play since T0, team 1 to photograph
    last_round["scores"] = [30, 10]
    last_round = started_again(run_out(last_round).state)
    turn = Turn(game, ENGINE, last_round, timezone.now())
    turn.settle()  # its hourglass ran out long ago: the game ends
    turn.commit()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result["winners"] == [0, 2]
    assert game.result["places"] == [1, 2, 1, 2]  # the teams are placed (rules version 2)
    changes = game.result["rating_changes"]
    result = {"places": [1, 2, 1, 2]}
    as_teams = ratings.rate_finished(game, result, [[0, 2], [1, 3]], fresh_users(4, "team"), game.finished_at)
    each_alone = ratings.rate_finished(game, result, None, fresh_users(4, "alone"), game.finished_at)
    assert [c["delta"] for c in changes] == [c["delta"] for c in as_teams]
    assert [c["delta"] for c in changes] != [c["delta"] for c in each_alone]


def clock_started(game, seat):
    from datetime import datetime

    return datetime.fromisoformat(game.clocks["seats"][str(seat)]["since"])


def test_the_reminder_wake_comes_when_the_chosen_fraction_of_the_allowance_is_left(alice, bob):
    game = Game.objects.get(
        pk=start_game(
            alice, [bob], options={"time_control": "per_move", "move_seconds": 3600, "reminder_fraction": 0.25}
        )
    )
    since = clock_started(game, 0)
    assert game.next_deadline == since + timedelta(seconds=3600)
    assert game.next_reminder == since + timedelta(seconds=2700)  # a quarter of the hour left


def test_a_reminder_fraction_of_zero_never_sets_a_reminder_wake(alice, bob):
    game = Game.objects.get(
        pk=start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600, "reminder_fraction": 0})
    )
    assert game.next_deadline == clock_started(game, 0) + timedelta(seconds=3600)
    assert game.next_reminder is None


def test_a_clock_started_while_its_player_is_away_is_due_and_reminded_after_the_vacation(alice, bob):
    from accounts.models import Vacation

    game_id = start_game(
        alice, [bob], options={"time_control": "per_move", "move_seconds": 3600, "reminder_fraction": 0.25}
    )
    now = timezone.now()
    back = Vacation.objects.create(user=bob.user, start=now - timedelta(hours=1), end=now + timedelta(days=1)).end
    assert alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]}).status_code == 201
    game = Game.objects.get(pk=game_id)
    assert game.active_seats == [1] and clock_started(game, 1) < back
    assert game.next_deadline == back + timedelta(seconds=3600)  # bob's hour starts when he is back
    assert game.next_reminder == back + timedelta(seconds=2700)


def test_the_state_after_a_move_is_read_back_from_the_cache_without_a_query(
    alice, bob, duel, django_capture_on_commit_callbacks, django_assert_num_queries
):
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})  # version 5: a snapshot
    with django_capture_on_commit_callbacks(execute=True):
        assert bob.move(duel, {"type": "play", "card": bob.game(duel)["state"]["hand"][0]}).status_code == 201
    game = Game.objects.get(pk=duel)
    assert game.version == 6  # no snapshot due
    with django_assert_num_queries(0):
        state = store.state_at(game)
    assert state == store.replay_from_scratch(game)
