"""The outbox's promises, pinned one by one (mutation testing found them unstated): what a
delivery queued after commit names, which unread notice a new one collapses into and what that
keeps, who is muted, how each notice is titled, and whose digest slot a notice takes."""

import time
from datetime import timedelta

from django.utils import timezone

from accounts.models import NotificationPreference, Webhook
from games.notifications import notify
from games.realtime import channels
from games.models import Delivery, Game, Mute, Notification
from tests.conftest import start_game
from tests.queued import queued
from tests.worker import purge_queue


def game_of(creator, others, kind="duel"):
    game = Game.objects.get(pk=start_game(creator, others, kind=kind))
    # What starting the game told, and the digests it opened: not these tests' business.
    Notification.objects.all().delete()
    NotificationPreference.objects.update(email_digest_at=None)
    return game


def prefer(player, **body):
    response = player.client.put("/api/v1/accounts/preferences/", body, format="json")
    assert response.status_code == 200, response.content


def rows(*users):
    return list(
        Notification.objects.filter(user__in=[p.user for p in users])
        .order_by("pk")
        .values_list("user__username", "game_id", "type", "data", "seq", "collapsed")
    )


def test_each_delivery_is_queued_after_commit_under_its_own_row(alice, bob, carol, django_capture_on_commit_callbacks):
    game = game_of(alice, [bob, carol], kind="pickpic")
    prefer(bob, email_digest_minutes=0)
    hooks = [
        Webhook.objects.create(user=bob.user, url=f"http://127.0.0.1:9/{n}", secret="s", active=active)
        for n, active in enumerate([True, False, True])
    ]
    purge_queue()
    before = timezone.now()
    with django_capture_on_commit_callbacks() as callbacks:
        created = notify.send([carol.user.pk, bob.user.pk], game, "finished", {"result": None}, seq=7)
    assert queued() == []  # nothing before the commit
    for callback in callbacks:
        callback()
    after = timezone.now()
    assert [(n.user_id, n.pk) for n in created] == list(
        Notification.objects.order_by("pk").values_list("user_id", "pk")
    )  # bob first: by user id
    email = Delivery.objects.get(notification__user=bob.user, channel="email")
    hooked = list(Delivery.objects.filter(notification__user=bob.user, channel="webhook").order_by("webhook_id"))
    assert [d.webhook_id for d in hooked] == [hooks[0].pk, hooks[2].pk]  # the active ones
    for delivery in (email, *hooked):
        assert (delivery.status, delivery.attempts, delivery.last_error) == ("pending", 0, "")
        assert before <= delivery.next_attempt_at <= after  # a digest of 0 minutes: at once
    (carols,) = Delivery.objects.filter(notification__user=carol.user)
    assert carols.channel == "email" and timedelta(minutes=59) < carols.next_attempt_at - before <= timedelta(
        minutes=61
    )
    # Carol's digest is an hour away, past the timers' horizon: the sweeper's, not queued now.
    try:
        assert queued() == sorted(
            [
                ("games.tasks.deliver_email", [bob.user.pk], email.next_attempt_at),
                *[("games.tasks.deliver_webhook", [d.pk], d.next_attempt_at) for d in hooked],
            ],
            key=repr,
        )
    finally:
        purge_queue()


def test_each_notice_of_one_flush_gets_its_own_deliveries(alice, bob, carol):
    # The deliveries are inserted in the notices' statement and name their notice by its place
    # in the flush: two notices of one user must not swap or share theirs.
    first = game_of(alice, [bob])
    second = Game.objects.get(pk=start_game(carol, [bob]))
    Notification.objects.all().delete()
    NotificationPreference.objects.update(email_digest_at=None)
    prefer(bob, email_digest_minutes=0)
    prefer(carol, channels={"dispute": ["inbox"]})
    hook = Webhook.objects.create(user=bob.user, url="http://127.0.0.1:9/h", secret="s", active=True)
    before = timezone.now()
    outbox = notify.Outbox()
    outbox.add([bob.user.pk], first, "finished", {"result": None}, seq=3)
    outbox.add(
        [alice.user.pk, bob.user.pk, carol.user.pk],
        second,
        "dispute",
        {"dispute": 1, "seq": 4, "status": "open"},
        what="A dispute was raised",
    )
    created = outbox.flush()
    after = timezone.now()
    sent = {
        (n.user_id, n.game_id, n.type): sorted(
            Delivery.objects.filter(notification=n).values_list("channel", "webhook_id")
        )
        for n in created
    }
    assert sent == {
        (bob.user.pk, first.pk, "finished"): [("email", None), ("webhook", hook.pk)],
        (alice.user.pk, second.pk, "dispute"): [("email", None)],
        (bob.user.pk, second.pk, "dispute"): [("email", None), ("webhook", hook.pk)],
        (carol.user.pk, second.pk, "dispute"): [],  # her inbox only
    }
    alices = Delivery.objects.get(notification__user=alice.user)
    assert timedelta(minutes=59) < alices.next_attempt_at - before <= timedelta(minutes=61)  # her digest
    for delivery in Delivery.objects.filter(notification__user=bob.user):
        assert before <= delivery.next_attempt_at <= after  # a digest of 0 minutes, and webhooks: at once


def test_the_users_told_and_only_they_are_woken_after_commit(alice, bob, carol, django_capture_on_commit_callbacks):
    game = game_of(alice, [bob, carol], kind="pickpic")
    Mute.objects.create(user=carol.user, game=game)
    pubsub = channels.client().pubsub(ignore_subscribe_messages=True)
    try:
        pubsub.subscribe(*[channels.user_channel(p.user.pk) for p in (alice, bob, carol)])
        while pubsub.get_message(timeout=0.2) is not None or pubsub.subscribed is False:
            pass
        with django_capture_on_commit_callbacks(execute=True):
            notify.send([bob.user.pk, carol.user.pk], game, "finished", {"result": None})
        heard, deadline = [], time.monotonic() + 1
        while time.monotonic() < deadline:
            message = pubsub.get_message(timeout=0.2)
            if message:
                heard.append(message["channel"].decode())
        assert heard == [channels.user_channel(bob.user.pk)]
    finally:
        pubsub.close()


def test_an_unread_turn_notice_is_kept_fresh_instead_of_repeated(alice, bob):
    game = game_of(alice, [bob])
    (first,) = notify.send([bob.user.pk], game, "your_turn", {"version": 5}, seq=5)
    before = timezone.now()
    assert notify.send([bob.user.pk], game, "your_turn", {"version": 7}, seq=7) == []  # nothing new
    after = timezone.now()
    (note,) = Notification.objects.filter(user=bob.user)
    assert (note.pk, note.collapsed, note.seq, note.data, note.title, note.read_at) == (
        first.pk,
        2,
        7,
        {"version": 7, "game": str(game.pk), "kind": "duel"},
        "Your turn in Duel (test game)",
        None,
    )
    assert note.created_at == first.created_at and before <= note.updated_at <= after
    assert Delivery.objects.filter(notification=note).count() == 1  # no new push


def test_turn_notices_of_one_write_collapse_into_one(alice, bob, carol):
    game = game_of(alice, [bob, carol], kind="pickpic")
    outbox = notify.Outbox()
    outbox.add([bob.user.pk], game, "your_turn", {"version": 5}, seq=5)
    outbox.add([carol.user.pk, bob.user.pk], game, "your_turn", {"version": 6}, seq=6)
    created = outbox.flush()
    gid = game.pk
    assert rows(alice, bob, carol) == [
        ("bob", gid, "your_turn", {"version": 6, "game": str(gid), "kind": "pickpic"}, 6, 2),
        ("carol", gid, "your_turn", {"version": 6, "game": str(gid), "kind": "pickpic"}, 6, 1),
    ]
    assert [n.pk for n in created] == list(Notification.objects.order_by("pk").values_list("pk", flat=True))
    assert [n.deliveries.count() for n in created] == [1, 1]  # rows as saved: an email each


def test_chat_notices_without_a_game_collapse_within_one_write(alice, bob):
    outbox = notify.Outbox()
    outbox.add([bob.user.pk], None, "chat", {"n": 1}, seq=1, who="alice")
    outbox.add([bob.user.pk], None, "chat", {"n": 2}, seq=2, who="alice")
    (created,) = outbox.flush()
    assert (created.title, created.data, created.seq, created.collapsed, created.game_id) == (
        "alice wrote in ",
        {"n": 2},
        2,
        2,
        None,
    )
    assert list(Notification.objects.values_list("pk", "collapsed")) == [(created.pk, 2)]


def test_only_an_unread_notice_of_the_same_user_game_and_type_collapses(alice, bob):
    one, two = game_of(alice, [bob]), game_of(alice, [bob])
    bob_id = bob.user.pk
    (read,) = notify.send([bob_id], one, "your_turn", {"n": 1})
    # Read longer ago than TURN_NOTICE_REOPEN_SECONDS (a recent one is reopened).
    Notification.objects.filter(pk=read.pk).update(read_at=timezone.now() - timedelta(hours=1))
    notify.send([bob_id], one, "your_turn", {"n": 2})  # the first was read: a new one
    notify.send([bob_id], two, "your_turn", {"n": 3})  # another game
    notify.send([bob_id], one, "chat", {"n": 4}, who="alice")  # another type
    notify.send([alice.user.pk], one, "your_turn", {"n": 5})  # another user
    notify.send([bob_id], one, "finished", {"n": 6})  # a type that does not collapse...
    notify.send([bob_id], one, "finished", {"n": 7})
    notify.send([bob_id], one, "chat", {"n": 8}, who="alice")  # chat collapses too
    notify.send([bob_id], one, "your_turn", {"n": 9})
    data = {"game": str(one.pk), "kind": "duel"}
    assert [(user, game, kind, note["n"], collapsed) for user, game, kind, note, _, collapsed in rows(alice, bob)] == [
        ("bob", one.pk, "your_turn", 1, 1),
        ("bob", one.pk, "your_turn", 9, 2),
        ("bob", two.pk, "your_turn", 3, 1),
        ("bob", one.pk, "chat", 8, 2),
        ("alice", one.pk, "your_turn", 5, 1),
        ("bob", one.pk, "finished", 6, 1),
        ("bob", one.pk, "finished", 7, 1),
    ]
    assert Notification.objects.get(pk=read.pk).data == {"n": 1, **data}  # a read notice is left alone


def test_of_two_unread_notices_the_oldest_is_kept_fresh(alice, bob):
    game = game_of(alice, [bob])
    now = timezone.now()
    older, newer = [
        Notification.objects.create(
            user=bob.user, game=game, type="your_turn", title=title, data={}, created_at=now, updated_at=now
        )
        for title in ("older", "newer")
    ]
    notify.send([bob.user.pk], game, "your_turn", {"version": 9}, seq=9)
    older.refresh_from_db()
    newer.refresh_from_db()
    assert (older.collapsed, older.seq, older.data["version"], older.title) == (2, 9, 9, "older")
    assert (newer.collapsed, newer.seq, newer.data, newer.updated_at) == (1, None, {}, now)
    assert Notification.objects.count() == 2


def test_a_notice_kept_out_of_the_inbox_is_read_at_once_and_never_collapses(alice, bob):
    game = game_of(alice, [bob])
    prefer(bob, channels={"your_turn": ["email"]})
    notify.send([bob.user.pk], game, "your_turn", {"version": 5}, seq=5)
    notify.send([bob.user.pk], game, "your_turn", {"version": 6}, seq=6)
    notes = list(Notification.objects.filter(user=bob.user).order_by("pk"))
    assert [(n.seq, n.collapsed) for n in notes] == [(5, 1), (6, 1)]
    assert all(n.read_at is not None and n.read_at == n.created_at for n in notes)
    assert [d.notification_id for d in Delivery.objects.order_by("pk")] == [n.pk for n in notes]  # a push each


def test_a_muted_game_silences_that_game_only_and_each_user_is_told_once(alice, bob, carol):
    one, two = game_of(alice, [bob, carol], kind="pickpic"), game_of(alice, [bob])
    Mute.objects.create(user=bob.user, game=one)
    outbox = notify.Outbox()
    outbox.add([bob.user.pk, carol.user.pk, bob.user.pk, carol.user.pk], one, "finished", {"result": None}, seq=3)
    outbox.add([bob.user.pk], two, "finished", {"result": None}, seq=4)
    created = outbox.flush()
    assert [(n.user_id, n.game_id, n.seq) for n in created] == [(carol.user.pk, one.pk, 3), (bob.user.pk, two.pk, 4)]
    assert Notification.objects.count() == 2
    assert notify.send([bob.user.pk], one, "your_turn", {"version": 1}) == []  # only muted: nothing
    assert Notification.objects.count() == 2 and Delivery.objects.count() == 2


def test_each_notice_is_titled_by_its_own_game_and_carries_it(alice, bob, carol):
    duel, pickpic = game_of(alice, [bob]), game_of(alice, [bob, carol], kind="pickpic")
    outbox = notify.Outbox()
    outbox.add([alice.user.pk], duel, "finished", {"result": None}, seq=8)
    outbox.add([alice.user.pk], pickpic, "timed_out", {"seat": 1}, seq=9, who="bob")
    outbox.add([alice.user.pk], None, "invitation", {"from": carol.user.pk}, who="carol")
    outbox.add([], duel, "finished", {"result": None})  # nobody: nothing
    created = outbox.flush()
    assert [(n.title, n.data, n.seq, n.game_id, n.type) for n in created] == [
        ("Duel (test game) is over", {"result": None, "game": str(duel.pk), "kind": "duel"}, 8, duel.pk, "finished"),
        (
            "bob ran out of time in Pick Pic",
            {"seat": 1, "game": str(pickpic.pk), "kind": "pickpic"},
            9,
            pickpic.pk,
            "timed_out",
        ),
        ("carol invites you to ", {"from": carol.user.pk}, None, None, "invitation"),
    ]
    assert [(n.title, n.data, n.seq) for n in Notification.objects.order_by("pk")] == [
        (n.title, n.data, n.seq) for n in created
    ]
    assert notify.Outbox().flush() == []


def test_only_users_who_take_email_get_a_digest_slot(alice, bob, carol):
    game = game_of(alice, [bob, carol], kind="pickpic")
    prefer(bob, channels={"finished": ["inbox"]})
    before = timezone.now()
    notify.send([bob.user.pk, carol.user.pk], game, "finished", {"result": None})
    assert NotificationPreference.objects.get(user=bob.user).email_digest_at is None
    assert not Delivery.objects.filter(notification__user=bob.user).exists()
    slot = NotificationPreference.objects.get(user=carol.user).email_digest_at
    assert timedelta(minutes=59) < slot - before <= timedelta(minutes=61)
    assert list(Delivery.objects.filter(notification__user=carol.user).values_list("channel", "next_attempt_at")) == [
        ("email", slot)
    ]
