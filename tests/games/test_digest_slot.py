"""The email digest a notice joins is kept per user, not searched among the pending
deliveries: notices join the open digest until it is due, then the next notice opens another,
one digest period later."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import NotificationPreference
from games.notifications import notify
from games.models import Delivery, Game
from tests.conftest import start_game


def email_slots(user):
    return list(
        Delivery.objects.filter(channel="email", notification__user=user)
        .order_by("pk")
        .values_list("next_attempt_at", flat=True)
    )


def test_notices_join_the_open_digest_until_it_is_due_then_a_new_one_opens(alice, bob, carol):
    games = [Game.objects.get(pk=start_game(other, [alice])) for other in (bob, carol)]
    before = timezone.now()
    with transaction.atomic():
        notify.send([alice.user.pk], games[0], "finished", {"result": None})
        notify.send([alice.user.pk], games[1], "finished", {"result": None})
    first, second = email_slots(alice.user)
    assert first == second  # one digest
    assert timedelta(minutes=59) < first - before <= timedelta(minutes=61)  # the default hour
    assert NotificationPreference.objects.get(user=alice.user).email_digest_at == first
    # The digest falls due (is sent): the next notice opens the next one.
    NotificationPreference.objects.filter(user=alice.user).update(email_digest_at=timezone.now() - timedelta(seconds=1))
    notify.send([alice.user.pk], games[0], "finished", {"result": None})
    third = email_slots(alice.user)[-1]
    assert third > first and third - timezone.now() > timedelta(minutes=59)


def test_each_users_own_digest_period_sets_the_slot(alice, bob, carol):
    bob.client.put("/api/v1/accounts/preferences/", {"email_digest_minutes": 5}, format="json")
    game = Game.objects.get(pk=start_game(carol, [alice, bob], kind="pickpic"))
    now = timezone.now()
    notify.send([alice.user.pk, bob.user.pk], game, "finished", {"result": None})
    assert timedelta(minutes=59) < email_slots(alice.user)[0] - now <= timedelta(minutes=61)
    assert timedelta(minutes=4) < email_slots(bob.user)[0] - now <= timedelta(minutes=6)
    assert NotificationPreference.objects.get(user=bob.user).email_digest_minutes == 5  # untouched


def test_a_digest_period_of_zero_sends_each_email_at_once(alice, bob, duel):
    bob.client.put("/api/v1/accounts/preferences/", {"email_digest_minutes": 0}, format="json")
    game = Game.objects.get(pk=duel)
    before = timezone.now()
    notify.send([bob.user.pk], game, "finished", {"result": None})
    assert email_slots(bob.user)[0] - before < timedelta(seconds=5)
