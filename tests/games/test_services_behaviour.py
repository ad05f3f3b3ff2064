"""The use cases' promises that mutation testing found unstated: the projection rebuilt from the
events alone for every way a game can stand, an Idempotency-Key belonging to one game and one
answer, and the refusals' own words."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games.play import deadlines, disputes, moves, store, turns
from games.play.projection import rebuild_projection
from games.engines import base
from games.errors import GameNotActive, IdempotencyMismatch, IllegalMove
from games.play.kinds import get_engine
from games.models import Dispute, Event, Game, Notification
from tests.conftest import start_game
from tests.duel import Duel
from tests.games.test_judgement_order import finish
from tests.games.timetravel import rewind


def projection(game_id):
    game = Game.objects.get(pk=game_id)
    return {"version": game.version, "status": game.status, "active_seats": game.active_seats, "result": game.result}


def rebuilt(game_id):
    return rebuild_projection(Game.objects.get(pk=game_id))


# -- the projection, from the events alone -----------------------------------------------------
def test_an_open_game_rebuilds_as_open_with_nobody_to_move_and_no_result(alice, bob):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/")
    assert rebuilt(game_id) == {"version": 3, "status": "open", "active_seats": [], "result": None}
    assert rebuilt(game_id) == projection(game_id)


def test_a_game_its_creator_left_rebuilds_as_cancelled(alice, bob):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/")
    assert alice.post(f"/api/v1/games/{game_id}/leave/").status_code == 200
    assert rebuilt(game_id) == {"version": 5, "status": "cancelled", "active_seats": [], "result": None}
    assert rebuilt(game_id) == projection(game_id)


def test_a_game_in_play_rebuilds_with_the_seat_to_move(alice, bob, duel):
    assert rebuilt(duel) == {"version": 4, "status": "active", "active_seats": [0], "result": None}
    card = alice.game(duel)["state"]["hand"][0]
    assert alice.move(duel, {"type": "play", "card": card}).status_code == 201
    assert rebuilt(duel) == {"version": 5, "status": "active", "active_seats": [1], "result": None}


def test_a_finished_rated_game_rebuilds_with_its_result_and_rating_changes(alice, bob, duel):
    finish(alice, bob, duel)
    game = Game.objects.get(pk=duel)
    assert game.status == "finished" and "rating_changes" in game.result
    assert rebuilt(duel) == projection(duel)
    assert rebuilt(duel)["active_seats"] == []


def test_an_unrated_finished_game_rebuilds_with_the_engine_s_outcome_alone(alice, bob):
    game_id = alice.post("/api/v1/games/", {"kind": "duel", "rated": False}).json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/")
    alice.post(f"/api/v1/games/{game_id}/start/")
    finish(alice, bob, game_id)
    game = Game.objects.get(pk=game_id)
    expected = get_engine("duel").outcome(store.replay_from_scratch(game))
    assert "rating_changes" not in game.result and rebuilt(game_id)["result"] == expected
    assert rebuilt(game_id) == projection(game_id)


def test_an_aborted_game_rebuilds_with_the_abort_s_result(alice, bob, duel):
    assert alice.post(f"/api/v1/games/{duel}/abort/").json()["aborted"] is True
    aborted = Event.objects.get(game_id=duel, type="GameAborted")
    assert rebuilt(duel) == {"version": 5, "status": "aborted", "active_seats": [], "result": aborted.data["result"]}
    assert rebuilt(duel) == projection(duel)


def test_a_rolled_back_game_rebuilds_as_resumed_from_the_earlier_state(alice, bob, duel, staff_user):
    card = alice.game(duel)["state"]["hand"][0]
    alice.move(duel, {"type": "play", "card": card})  # seq 5, then voided
    dispute = disputes.open_dispute(duel, alice.user, 5, "misclick")
    disputes.resolve_dispute(dispute.pk, staff_user, True, "replay it", roll_back=True)
    assert rebuilt(duel) == {"version": 7, "status": "active", "active_seats": [0], "result": None}
    assert rebuilt(duel) == projection(duel)


# -- Idempotency-Key ---------------------------------------------------------------------------
def test_a_key_used_in_one_game_is_a_new_key_in_another(alice, bob, duel):
    other = start_game(alice, [bob])
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]}, key="mine")
    response = alice.move(other, {"type": "play", "card": alice.game(other)["state"]["hand"][1]}, key="mine")
    assert response.status_code == 201 and "Idempotent-Replayed" not in response
    assert Game.objects.get(pk=other).version == 5
    assert Event.objects.get(game_id=other, seq=5).idempotency_key == "mine"


def test_a_retry_after_later_moves_answers_as_the_first_time(alice, bob, duel):
    move = {"type": "play", "card": alice.game(duel)["state"]["hand"][0]}
    first = alice.move(duel, move, 4, key="late-retry")
    assert first.status_code == 201 and first.json()["version"] == 5
    bob.move(duel, {"type": "play", "card": bob.game(duel)["state"]["hand"][0]})  # the trick ends
    assert Game.objects.get(pk=duel).version > 5
    again = alice.move(duel, move, 4, key="late-retry")
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


def test_a_reused_key_with_another_body_says_why(alice, duel):
    hand = alice.game(duel)["state"]["hand"]
    moves.submit_move(duel, alice.user, {"type": "play", "card": hand[0]}, 4, "k")
    with pytest.raises(IdempotencyMismatch) as refused:
        moves.submit_move(duel, alice.user, {"type": "play", "card": hand[1]}, 5, "k")
    assert refused.value.args == ("this Idempotency-Key was used for a different request",)


# -- the request fingerprint -------------------------------------------------------------------
def test_the_request_hash_is_the_sha256_of_the_canonical_request():
    # Computed once by hand: printf '{"expected_version":4,"move":{"card":"D01","type":"play"},"user":7}'
    # | sha256sum (sorted keys, no spaces).
    user = SimpleNamespace(pk=7)
    assert (
        moves.request_hash(user, {"type": "play", "card": "D01"}, 4)
        == "cc8bd3c9818efb22e345b8a83aa780b8c125d0401a0a9663377661657495c7aa"
    )


@pytest.fixture
def staff_user(db):
    from accounts.models import User

    return User.objects.create_user("referee", password="x", is_staff=True, is_superuser=True)


def test_a_dispute_resolution_is_logged_whole_with_the_disputer_s_seat(alice, bob, duel, staff_user):
    dispute = disputes.open_dispute(duel, bob.user, 3, "  I never joined  ")
    assert dispute.reason == "I never joined"
    disputes.resolve_dispute(dispute.pk, staff_user, False, "he did")
    logged = Event.objects.filter(game_id=duel).last()
    assert logged.type == "DisputeResolved" and logged.user_id == staff_user.pk
    assert logged.data == {
        "dispute": dispute.pk,
        "status": "dismissed",
        "resolution": "he did",
        "seq": 3,
        "reason": "I never joined",
        "raised_by": 1,
        "opened_at": Dispute.objects.get(pk=dispute.pk).created_at.isoformat(),
        "decided_by": "referee",
    }
    decided = Dispute.objects.get(pk=dispute.pk)
    assert (decided.status, decided.resolved_by, decided.resolution) == ("dismissed", staff_user, "he did")
    assert decided.resolved_at <= timezone.now()


def test_each_game_is_rebuilt_from_its_own_events_only(alice, bob, carol, duel, staff_user):
    resigned, aborted = start_game(alice, [carol]), start_game(bob, [carol])
    assert carol.post(f"/api/v1/games/{resigned}/resign/").json()["status"] == "finished"  # at seq 6
    assert bob.post(f"/api/v1/games/{aborted}/abort/").json()["aborted"] is True
    # Another game finished and another aborted: this one is still in play.
    assert rebuilt(duel)["status"] == "active" and rebuilt(duel) == projection(duel)
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    dispute = disputes.open_dispute(duel, alice.user, 5, "misclick")
    disputes.resolve_dispute(dispute.pk, staff_user, True, "replay it", roll_back=True)  # seq 7
    # A rollback in another game, later in its own log than this game's end, changes nothing here.
    assert (
        Event.objects.get(game_id=duel, type="GameRolledBack").seq
        > Event.objects.get(game_id=resigned, type="GameFinished").seq
    )
    assert rebuilt(resigned)["status"] == "finished" and rebuilt(resigned) == projection(resigned)


def test_a_dispute_decided_after_the_end_leaves_the_game_finished(alice, bob, duel, staff_user):
    finish(alice, bob, duel)
    dispute = disputes.open_dispute(duel, alice.user, 5, "after the fact")
    disputes.resolve_dispute(dispute.pk, staff_user, True, "noted")
    assert Event.objects.filter(game_id=duel).last().type == "DisputeResolved"
    assert rebuilt(duel)["status"] == "finished" and rebuilt(duel) == projection(duel)


# -- expiry ------------------------------------------------------------------------------------
def test_a_game_due_by_its_projection_with_nothing_to_settle_appends_nothing(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move"})
    Game.objects.filter(pk=game_id).update(next_deadline=timezone.now() - timedelta(seconds=1))
    version = Game.objects.get(pk=game_id).version
    assert deadlines.expire_due(game_id) == 0
    game = Game.objects.get(pk=game_id)
    assert game.version == version and not Event.objects.filter(game_id=game_id, type="TimerExpired").exists()


def test_when_a_batch_fails_each_game_is_expired_alone_and_counted(make_player, monkeypatch, caplog):
    games = [
        start_game(make_player(), [make_player()], options={"time_control": "per_move", "move_seconds": 60})
        for _ in range(3)
    ]
    for game_id in games:
        rewind(game_id, 61)
    bad = games[1]
    settle = turns.Turn.settle

    def failing(self):
        if str(self.game.pk) == bad:
            raise RuntimeError("this game's rules broke")
        return settle(self)

    monkeypatch.setattr(turns.Turn, "settle", failing)
    counts = deadlines.settle_due_games(batch=2)  # the first two, then the third
    # Two games expired with a TimerExpired and an auto-move each; the one whose rules broke is
    # still overdue, so its seat is reminded.
    assert counts == {"games": 2, "expired": 4, "reminded": 1}
    # Only the batch holding the broken game fell back, and the broken game was tried once.
    assert errors(caplog) == ["expiring a batch failed; expiring its games one by one", f"expiring game {bad} failed"]


def errors(caplog):
    return [r.getMessage() for r in caplog.records if r.levelname == "ERROR" and r.name == "games.play.deadlines"]


def test_due_games_without_trouble_are_expired_in_batches_with_no_fallback(make_player, caplog):
    games = [
        start_game(make_player(), [make_player()], options={"time_control": "per_move", "move_seconds": 60})
        for _ in range(3)
    ]
    for game_id in games[:2]:
        rewind(game_id, 61)
    assert deadlines.settle_due_games(batch=1) == {"games": 2, "expired": 4, "reminded": 0}
    assert errors(caplog) == []


def test_a_move_in_a_finished_game_is_refused_saying_how_the_game_stands(alice, bob, duel):
    finish(alice, bob, duel)
    with pytest.raises(GameNotActive) as refused:
        moves.submit_move(duel, alice.user, {"type": "play", "card": "D01"}, Game.objects.get(pk=duel).version)
    assert refused.value.args == ("the game is finished",)


def test_a_rule_broken_in_a_way_the_server_has_no_name_for_is_an_illegal_move(alice, duel, monkeypatch):
    def refuses(self, state, seat, move, at):
        raise base.EngineError("no such card in this deck")

    monkeypatch.setattr(Duel, "play", refuses)
    version = Game.objects.get(pk=duel).version
    with pytest.raises(IllegalMove) as refused:
        moves.submit_move(duel, alice.user, {"type": "play", "card": "D99"}, version)
    assert refused.value.args == ("no such card in this deck",)
    assert Game.objects.get(pk=duel).version == version


def test_moving_reads_the_mover_s_turn_notice_of_that_game_only(alice, bob, duel):
    other = start_game(alice, [bob])
    for game_id in (duel, other):
        assert alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]}).status_code == 201
    assert bob.move(duel, {"type": "play", "card": bob.game(duel)["state"]["hand"][0]}).status_code == 201
    unread = Notification.objects.filter(type="your_turn", read_at__isnull=True)
    assert not unread.filter(user=bob.user, game_id=duel).exists()
    assert unread.filter(user=bob.user, game_id=other).count() == 1


def test_a_join_records_the_seat_and_who_took_it(alice, bob):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/")
    joins = Event.objects.filter(game_id=game_id, type="PlayerJoined").order_by("seq")
    # Stored by id only; the log shows the name the account has when it is read.
    assert [(e.actor, e.user_id, e.data) for e in joins] == [
        (0, alice.user.pk, {"seat": 0, "user": alice.user.pk}),
        (1, bob.user.pk, {"seat": 1, "user": bob.user.pk}),
    ]
    shown = [
        e["data"] for e in bob.get(f"/api/v1/games/{game_id}/events/").json()["events"] if e["type"] == "PlayerJoined"
    ]
    assert shown == [
        {"seat": 0, "user": alice.user.pk, "username": "alice"},
        {"seat": 1, "user": bob.user.pk, "username": "bob"},
    ]


def test_a_clock_falls_due_at_its_very_instant(alice, bob, monkeypatch):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600})
    game = Game.objects.get(pk=game_id)
    monkeypatch.setattr(timezone, "now", lambda: game.next_deadline)
    assert deadlines.expire_due(game_id, game.version) == 2


def test_a_judged_move_is_recorded_as_the_mover_s(alice, duel):
    card = alice.game(duel)["state"]["hand"][0]
    moves.submit_move(duel, alice.user, {"type": "play", "card": card}, 4)
    event = Event.objects.get(game_id=duel, seq=5)
    assert (event.actor, event.user_id, event.data["move"]) == (0, alice.user.pk, {"type": "play", "card": card})
