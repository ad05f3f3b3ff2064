"""Notices mutation testing found unstated: the reminder of a seat short of time, the dispute
notice's content, and what acting in a game marks read (its turn notice, nothing else)."""
from datetime import timedelta

from django.utils import timezone

from games import notify, services
from games.models import Game, Notification
from tests.conftest import start_game


def test_a_seat_short_of_time_is_reminded_once_with_its_deadline(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600})
    game = Game.objects.get(pk=game_id)
    deadline = timezone.now() + timedelta(minutes=5)
    notify.remind(game, {0: deadline, 7: deadline})   # seat 7 does not exist: nobody to tell
    (note,) = Notification.objects.filter(type="reminder")
    assert (note.user, note.game_id, note.data) == (alice.user, game.pk, {
        "game": game_id, "kind": "duel", "seat": 0, "deadline": deadline.isoformat()})
    assert note.title == "Time is running out in Duel (test game)"


def test_a_dispute_is_told_to_the_other_players_with_what_it_is_about(alice, bob, duel):
    dispute = services.open_dispute(duel, alice.user, 4, "misdeal")
    (note,) = Notification.objects.filter(type="dispute")
    assert (note.user, str(note.game_id)) == (bob.user, duel)
    assert note.data == {"game": duel, "kind": "duel", "dispute": dispute.pk, "seq": 4, "status": "open"}


def test_acting_in_a_game_reads_its_unread_turn_notice_and_nothing_else(alice, bob, duel):
    other = start_game(alice, [bob])
    for game_id in (duel, other):
        alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]})
    services.open_dispute(duel, alice.user, 4, "misdeal")     # bob: a dispute notice in the duel
    read_before = timezone.now() - timedelta(days=1)
    now = timezone.now()
    seen = Notification.objects.create(user=bob.user, game_id=duel, type="your_turn", title="seen", data={},
                                       read_at=read_before, created_at=now, updated_at=now)
    notify.mark_turn_notices_read(Game.objects.get(pk=duel), bob.user)
    bobs = Notification.objects.filter(user=bob.user)
    assert bobs.exclude(pk=seen.pk).get(game_id=duel, type="your_turn").read_at is not None
    assert bobs.get(game_id=duel, type="dispute").read_at is None
    assert bobs.get(game_id=other, type="your_turn").read_at is None          # another game's: unread
    assert bobs.get(pk=seen.pk).read_at == read_before                        # read already: left as read
