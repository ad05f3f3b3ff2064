"""Notices mutation testing found unstated: the reminder of a seat short of time, the dispute
notice's content, what acting in a game marks read (its turn notice, nothing else), and who a
write's events tell of what, under which event (`after_turn`)."""

from datetime import timedelta

from django.utils import timezone

from games.notifications import notify
from games.play import disputes, store
from games.models import Event, Game, Notification, Seat
from tests.conftest import start_game


def test_a_seat_short_of_time_is_reminded_once_with_its_deadline(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600})
    game = Game.objects.get(pk=game_id)
    deadline = timezone.now() + timedelta(minutes=5)
    notify.remind(game, {0: deadline, 7: deadline})  # seat 7 does not exist: nobody to tell
    (note,) = Notification.objects.filter(type="reminder")
    assert (note.user, note.game_id, note.data) == (
        alice.user,
        game.pk,
        {"game": game_id, "kind": "duel", "seat": 0, "deadline": deadline.isoformat()},
    )
    assert note.title == "Time is running out in Duel (test game)"


def test_a_dispute_is_told_to_the_other_players_with_what_it_is_about(alice, bob, duel):
    dispute = disputes.open_dispute(duel, alice.user, 4, "misdeal")
    (note,) = Notification.objects.filter(type="dispute")
    assert (note.user, str(note.game_id)) == (bob.user, duel)
    assert note.data == {
        "game": duel,
        "kind": "duel",
        "dispute": dispute.pk,
        "seq": 4,
        "status": "open",
        "outcome": "A dispute was raised on event 4.",
    }


def test_acting_in_a_game_reads_its_unread_turn_notice_and_nothing_else(alice, bob, duel):
    other = start_game(alice, [bob])
    for game_id in (duel, other):
        alice.move(game_id, {"type": "play", "card": alice.game(game_id)["state"]["hand"][0]})
    disputes.open_dispute(duel, alice.user, 4, "misdeal")  # bob: a dispute notice in the duel
    read_before = timezone.now() - timedelta(days=1)
    now = timezone.now()
    seen = Notification.objects.create(
        user=bob.user,
        game_id=duel,
        type="your_turn",
        title="seen",
        data={},
        read_at=read_before,
        created_at=now,
        updated_at=now,
    )
    notify.mark_turn_notices_read(Game.objects.get(pk=duel), bob.user)
    bobs = Notification.objects.filter(user=bob.user)
    assert bobs.exclude(pk=seen.pk).get(game_id=duel, type="your_turn").read_at is not None
    assert bobs.get(game_id=duel, type="dispute").read_at is None
    assert bobs.get(game_id=other, type="your_turn").read_at is None  # another game's: unread
    assert bobs.get(pk=seen.pk).read_at == read_before  # read already: left as read


# ---------------------------------------------------------------------------------------------
# after_turn: who a write's events tell, of what, under which event
# ---------------------------------------------------------------------------------------------
def three_player_game(alice, bob, carol):
    game = Game.objects.get(pk=start_game(alice, [bob, carol], kind="pickpic"))
    assert dict(Seat.objects.filter(game=game).values_list("number", "user__username")) == {
        0: "alice",
        1: "bob",
        2: "carol",
    }
    Notification.objects.all().delete()  # what starting it told
    return game


def event(seq, kind, data=None, by=None):
    return Event(seq=seq, type=kind, data=data or {}, user_id=by.user.pk if by else None)


def told(game):
    return sorted(Notification.objects.filter(game=game).values_list("user__username", "type", "data", "seq", "title"))


def about(game, **data):
    return {**data, "game": str(game.pk), "kind": game.kind}


def test_a_write_tells_the_seats_it_made_active_except_whoever_made_it(alice, bob, carol):
    game = three_player_game(alice, bob, carol)
    game.version = 13
    # Carol's write (its first event is the server's), bob active before and after, alice and
    # carol newly active: alice is told, under the write's last event.
    rows = [event(12, "Noted"), event(13, "MovePlayed", by=carol)]
    notify.after_turn(game, rows, {1}, {0, 1, 2})
    assert told(game) == [("alice", "your_turn", about(game, version=13), 13, "Your turn in Pick Pic")]


def test_a_server_write_tells_every_newly_active_seat(alice, bob, carol):
    game = three_player_game(alice, bob, carol)
    game.version = 9
    notify.after_turn(game, [event(9, "Noted")], {0}, {0, 1, 2})
    assert [(user, kind, seq) for user, kind, _, seq, _ in told(game)] == [
        ("bob", "your_turn", 9),
        ("carol", "your_turn", 9),
    ]


def test_without_an_outbox_the_notices_are_written_at_once_with_one_they_wait_for_its_flush(alice, bob, carol):
    game = three_player_game(alice, bob, carol)
    outbox = notify.Outbox()
    notify.after_turn(game, [event(9, "Noted")], {0}, {1}, outbox=outbox)
    assert told(game) == []
    outbox.flush()
    assert [(user, kind) for user, kind, *_ in told(game)] == [("bob", "your_turn")]


def test_a_seat_that_ran_out_of_time_is_told_to_everyone_by_name(alice, bob, carol):
    game = three_player_game(alice, bob, carol)
    game.version = 22
    deadline = "2026-12-01T05:00:00+00:00"
    rows = [
        event(20, store.TIMER_EXPIRED, {"timer": "clock", "seat": 1, "deadline": deadline, "policy": "forfeit"}),
        event(21, store.SEAT_FORFEITED, {"seat": 1}),
        event(22, "Noted"),
    ]
    notify.after_turn(game, rows, {1}, {2})
    timed_out = about(game, seat=1, policy="forfeit", deadline=deadline)
    assert told(game) == [
        ("alice", "timed_out", timed_out, 20, "bob ran out of time in Pick Pic"),
        ("bob", "timed_out", timed_out, 20, "bob ran out of time in Pick Pic"),
        ("carol", "timed_out", timed_out, 20, "bob ran out of time in Pick Pic"),
        ("carol", "your_turn", about(game, version=22), 22, "Your turn in Pick Pic"),
    ]


def test_an_engine_timer_tells_of_a_seat_only_if_it_names_one(alice, bob, carol, django_assert_num_queries):
    game = three_player_game(alice, bob, carol)
    deadline = "2026-12-01T05:00:00+00:00"
    seatless = event(30, store.TIMER_EXPIRED, {"timer": "hourglass", "seat": None, "deadline": deadline})
    forfeited = event(31, store.SEAT_FORFEITED, {"seat": 1})  # carries a seat, but is no timeout
    with django_assert_num_queries(0):  # nobody to tell: not even the seats are read
        notify.after_turn(game, [seatless, forfeited], {0}, {0})
    assert told(game) == []
    gone = event(32, store.TIMER_EXPIRED, {"timer": "hourglass", "seat": 5, "deadline": deadline})  # no such seat
    notify.after_turn(game, [seatless, gone], {0}, {0})
    assert [(user, data, seq, title) for user, _, data, seq, title in told(game)] == [
        (name, about(game, seat=5, policy=None, deadline=deadline), 32, "seat 5 ran out of time in Pick Pic")
        for name in ("alice", "bob", "carol")
    ]


def test_the_finish_tells_everyone_the_result_and_nobody_it_is_their_turn(alice, bob, carol):
    game = three_player_game(alice, bob, carol)
    game.status = Game.Status.FINISHED
    result = {"winners": [0], "scores": [3, 1, 2]}
    notify.after_turn(
        game, [event(40, "MovePlayed", by=alice), event(41, store.GAME_FINISHED, {"result": result})], {0}, {1, 2}
    )
    assert told(game) == [
        (name, "finished", about(game, result=result), 41, "Pick Pic is over") for name in ("alice", "bob", "carol")
    ]


def test_the_seats_handed_over_are_used_as_they_are(alice, bob, carol, django_assert_num_queries):
    """The sweeper reads many games' seats at once and hands them over: no query per game."""
    game = three_player_game(alice, bob, carol)
    seats = {0: (alice.user.pk, "alice"), 1: (bob.user.pk, "Bob the timed-out"), 2: (carol.user.pk, "carol")}
    rows = [event(50, store.TIMER_EXPIRED, {"timer": "clock", "seat": 1, "deadline": "x", "policy": "auto_move"})]
    outbox = notify.Outbox()
    with django_assert_num_queries(0):
        notify.after_turn(game, rows, {1}, {2}, seats, outbox)
    outbox.flush()
    names = {"Bob the timed-out ran out of time in Pick Pic", "Your turn in Pick Pic"}
    assert {title for *_, title in told(game)} == names
    Notification.objects.all().delete()
    notify.after_turn(game, rows, {1}, {2}, seats)  # written at once: the same seats
    assert {title for *_, title in told(game)} == names


def test_a_turn_notice_names_the_move_that_made_it(alice, bob, duel):
    alice.move(duel, {"type": "play", "card": alice.game(duel)["state"]["hand"][0]})
    game = Game.objects.get(pk=duel)
    note = Notification.objects.get(user=bob.user, type="your_turn")
    assert (note.seq, note.data) == (game.version, {"version": game.version, "game": duel, "kind": "duel"})
    assert Event.objects.get(game=game, seq=note.seq).user_id == alice.user.pk
