"""Notifications: an outbox written with the events, an inbox that does not pile up, channels
chosen per type, muted games silent."""

import pytest
from django.core import mail
from django.db import transaction

from games.play import deadlines, disputes, moves
from games.models import Delivery, Notification
from games.tasks import deliver_email
from tests.conftest import start_game
from tests.games.timetravel import rewind


def inbox(player, **params):
    return player.get("/api/v1/notifications/", **params).json()["results"]


def play_first_card(player, game_id):
    return player.move(game_id, {"type": "play", "card": player.game(game_id)["state"]["hand"][0]})


def test_the_next_seat_is_told_it_is_their_turn_and_the_mover_is_not(alice, bob, duel):
    play_first_card(alice, duel)
    notes = inbox(bob)
    assert [n["type"] for n in notes] == ["your_turn"]
    assert notes[0]["game"] == duel and notes[0]["title"] == "Your turn in Duel (test game)"
    assert [n for n in inbox(alice) if n["type"] == "your_turn"] == []


def test_an_absent_players_turn_notices_collapse_into_one(alice, bob):
    """Bob never comes: the clock plays for him again and again, and his inbox holds one notice
    for the game, not one per turn."""
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 60})
    for _ in range(3):
        game = alice.game(game_id)
        if game["active_seats"] == [0]:
            play_first_card(alice, game_id)
        rewind(game_id, 61)
        deadlines.expire_due(game_id)
    unread = Notification.objects.filter(user=bob.user, game_id=game_id, type="your_turn", read_at__isnull=True)
    assert unread.count() == 1 and unread.get().collapsed >= 2


def test_collapsing_counts_the_notices_and_sends_no_new_push(alice, bob):
    game_id = start_game(alice, [bob])
    from games.notifications import notify
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    with transaction.atomic():
        notify.send([bob.user.pk], game, "your_turn", {"version": 1})
        notify.send([bob.user.pk], game, "your_turn", {"version": 2})
        notify.send([bob.user.pk], game, "your_turn", {"version": 3})
    notes = Notification.objects.filter(user=bob.user, game=game, type="your_turn")
    assert notes.count() == 1 and notes.get().collapsed == 3 and notes.get().data["version"] == 3
    assert Delivery.objects.filter(notification__in=notes, channel="email").count() == 1


def test_moving_in_a_game_reads_its_turn_notice(alice, bob, duel):
    play_first_card(alice, duel)
    # (Alice, who made the game, still has the news that bob joined it.)
    assert [n["type"] for n in inbox(alice, unread="true")] == ["joined"]
    assert bob.get("/api/v1/notifications/unread-count/").json()["unread"] == 1
    play_first_card(bob, duel)
    assert Notification.objects.filter(user=bob.user, type="your_turn", read_at__isnull=True).count() == 0


def test_a_rolled_back_move_notifies_nobody(alice, bob, duel):
    before = Notification.objects.count(), Delivery.objects.count()
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            game = alice.game(duel)
            moves.submit_move(duel, alice.user, {"type": "play", "card": game["state"]["hand"][0]}, game["version"])
            assert Notification.objects.filter(user=bob.user, type="your_turn").exists()  # it was written...
            raise RuntimeError("the transaction dies after the move")
    assert (Notification.objects.count(), Delivery.objects.count()) == before  # ...and went with it


def test_mark_one_read_and_all_read(alice, bob, carol):
    for other in (bob, carol):
        game_id = start_game(other, [alice])
        play_first_card(other, game_id)
    notes = inbox(alice, unread="true")
    assert len(notes) == 2
    read = alice.post(f"/api/v1/notifications/{notes[0]['id']}/read/").json()
    assert read["read"] is True
    assert alice.get("/api/v1/notifications/unread-count/").json()["unread"] == 1
    assert alice.post("/api/v1/notifications/read-all/").json()["marked"] == 1
    assert inbox(alice, unread="true") == []
    assert bob.post(f"/api/v1/notifications/{notes[1]['id']}/read/").status_code == 404  # not bob's


def test_a_muted_game_notifies_nothing(alice, bob, duel):
    assert bob.post(f"/api/v1/games/{duel}/mute/").json() == {"muted": True}
    play_first_card(alice, duel)
    assert inbox(bob) == []
    assert bob.client.delete(f"/api/v1/games/{duel}/mute/").json() == {"muted": False}


def test_preferences_choose_channels_per_type(alice, bob, duel):
    response = bob.client.put("/api/v1/accounts/preferences/", {"channels": {"your_turn": ["inbox"]}}, format="json")
    assert response.status_code == 200 and response.json()["channels"]["your_turn"] == ["inbox"]
    play_first_card(alice, duel)
    note = Notification.objects.get(user=bob.user, type="your_turn")
    assert note.deliveries.count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {"channels": {"your_turn": ["pigeon"]}},
        {"channels": {"your_turn": [{}]}},
        {"channels": {"gossip": ["inbox"]}},
        {"channels": "all"},
        {"email_digest_minutes": -5},
    ],
)
def test_bad_preferences_are_400(bob, body):
    response = bob.client.put("/api/v1/accounts/preferences/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_turning_off_the_inbox_keeps_the_unread_count_quiet(alice, bob, duel):
    bob.client.put("/api/v1/accounts/preferences/", {"channels": {"your_turn": ["email"]}}, format="json")
    play_first_card(alice, duel)
    assert bob.get("/api/v1/notifications/unread-count/").json()["unread"] == 0


def test_email_is_sent_at_once_when_the_digest_is_off(alice, bob, duel):
    bob.client.put("/api/v1/accounts/preferences/", {"email_digest_minutes": 0}, format="json")
    play_first_card(alice, duel)
    deliver_email(bob.user.pk)
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["bob@example.com"]
    assert mail.outbox[0].subject == "Your turn in Duel (test game)"
    assert Delivery.objects.get(channel="email", notification__user=bob.user).status == "sent"


def test_email_digests_batch_many_notices_into_one_message(alice, bob, carol):
    from games.models import Delivery as D

    for other in (bob, carol):
        game_id = start_game(other, [alice])
        play_first_card(other, game_id)
    deliver_email(alice.user.pk)
    assert mail.outbox == []  # the digest is not due yet (60 minutes by default)
    D.objects.filter(notification__user=alice.user).update(next_attempt_at=D.objects.first().created_at)
    deliver_email(alice.user.pk)
    assert len(mail.outbox) == 1 and mail.outbox[0].subject == "Darkroom: 2 updates"
    deliver_email(alice.user.pk)
    assert len(mail.outbox) == 1  # sent once


def test_the_finish_notifies_every_player_with_the_result(alice, bob, duel):
    players = {0: alice, 1: bob}
    while alice.game(duel)["status"] == "active":
        seat = alice.game(duel)["active_seats"][0]
        play_first_card(players[seat], duel)
    for player in (alice, bob):
        finished = [n for n in inbox(player) if n["type"] == "finished"]
        assert len(finished) == 1 and finished[0]["data"]["result"]["winners"]


def test_a_timeout_notifies_every_player(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 60})
    rewind(game_id, 61)
    deadlines.expire_due(game_id)
    for player in (alice, bob):
        timed_out = [n for n in inbox(player) if n["type"] == "timed_out"]
        assert len(timed_out) == 1 and timed_out[0]["title"] == "alice ran out of time in Duel (test game)"


def test_a_dispute_notifies_the_other_players_and_its_resolution_everyone(alice, bob, duel):
    from accounts.models import User

    dispute = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": 4, "reason": "odd deal"}).json()
    assert [n["type"] for n in inbox(bob)] == ["dispute"] and [n["type"] for n in inbox(alice)] == ["joined"]
    staff = User.objects.create_user("referee", password="x", is_staff=True, is_superuser=True)
    disputes.resolve_dispute(dispute["id"], staff, uphold=False, resolution="the deal was fair")
    assert [n["type"] for n in inbox(alice)] == ["dispute", "joined"]
    assert inbox(alice)[0]["data"]["status"] == "dismissed"
