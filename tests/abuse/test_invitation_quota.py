"""Invitations under abuse (docs/social.md#invitations-and-private-games): each one notifies
someone else, so a user sends at most INVITATIONS_PER_DAY in any 24 hours, whichever way
(a private game, more invitees, a rematch); past it the whole request is 429 and nothing is
written or sent. Inviting again someone still pending notifies no one a second time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Invitation, Notification
from tests.api.test_errors import error_of
from tests.conftest import start_game

pytestmark = pytest.mark.django_db
GAMES = "/api/v1/games/"


def private_game(creator, invite):
    return creator.post(GAMES, {"kind": "duel", "private": True, "invite": invite})


def invitation_notices(player) -> int:
    return Notification.objects.filter(user=player.user, type="invitation").count()


def written():
    return Game.objects.count(), Invitation.objects.count(), Notification.objects.count()


def test_a_user_sends_at_most_invitations_per_day(alice, make_player, settings):
    settings.INVITATIONS_PER_DAY = 3
    friends = [make_player() for _ in range(5)]
    names = [f.user.username for f in friends]
    made = private_game(alice, names[:2])
    assert made.status_code == 201, made.content
    game = made.json()["id"]
    assert alice.post(f"{GAMES}{game}/invitations/", {"invite": [names[2]]}).status_code == 201

    before = written()
    # One more would be the fourth: refused, whichever way it is asked, with nothing written.
    refused = alice.post(f"{GAMES}{game}/invitations/", {"invite": [names[3]]})
    body = error_of(refused, 429, "too_many_invitations")
    assert body["limit"] == 3 and 0 < int(refused["Retry-After"]) <= 24 * 3600
    assert body["retry_after"] == int(refused["Retry-After"])
    error_of(private_game(alice, [names[4]]), 429, "too_many_invitations")
    assert written() == before
    assert invitation_notices(friends[3]) == invitation_notices(friends[4]) == 0
    # A private game without invitations is still hers to create (its join link invites no one).
    assert private_game(alice, []).status_code == 201

    # The limit is the user's: another one invites as before.
    bob = friends[0]
    assert private_game(bob, [names[3]]).status_code == 201


def test_a_batch_that_would_pass_the_limit_is_refused_whole(alice, make_player, settings):
    settings.INVITATIONS_PER_DAY = 4
    names = [make_player().user.username for _ in range(6)]
    assert private_game(alice, names[:2]).status_code == 201
    before = written()
    body = error_of(private_game(alice, names[2:5]), 429, "too_many_invitations")
    assert "sent 2" in body["detail"] and "3 more" in body["detail"], body
    assert written() == before
    assert private_game(alice, names[2:4]).status_code == 201  # what is left fits


def test_a_rematch_counts_its_invitations(alice, bob, carol, settings):
    settings.INVITATIONS_PER_DAY = 1
    game = start_game(alice, [bob])
    Game.objects.filter(pk=game).update(status=Game.Status.FINISHED)
    assert private_game(alice, ["carol"]).status_code == 201
    before = written()
    error_of(alice.post(f"{GAMES}{game}/rematch/"), 429, "too_many_invitations")
    assert written() == before
    assert invitation_notices(bob) == 0


def test_invitations_older_than_a_day_give_their_places_back(alice, make_player, settings):
    settings.INVITATIONS_PER_DAY = 2
    names = [make_player().user.username for _ in range(4)]
    assert private_game(alice, names[:2]).status_code == 201
    error_of(private_game(alice, names[2:3]), 429, "too_many_invitations")
    # The window slides: 24 hours after they were sent, those two count no more.
    Invitation.objects.filter(invited_by=alice.user).update(created_at=timezone.now() - timedelta(hours=24, seconds=1))
    assert private_game(alice, names[2:4]).status_code == 201


def test_inviting_someone_still_pending_again_notifies_no_one_and_counts_nothing(alice, bob, settings):
    settings.INVITATIONS_PER_DAY = 1
    made = private_game(alice, ["bob"])
    game = made.json()["id"]
    first = Invitation.objects.get(game_id=game, invitee=bob.user)
    for _ in range(5):
        again = alice.post(f"{GAMES}{game}/invitations/", {"invite": ["bob"]})
        assert again.status_code == 201, again.content
        assert [i["id"] for i in again.json()] == [first.pk]
    assert invitation_notices(bob) == 1
    assert Invitation.objects.get(pk=first.pk).created_at == first.created_at
    # Once bob has declined, a new invitation is a new notice, and counts.
    bobs = bob.get("/api/v1/invitations/").json()[0]
    assert bob.post(f"/api/v1/invitations/{bobs['id']}/decline/").status_code == 200
    error_of(alice.post(f"{GAMES}{game}/invitations/", {"invite": ["bob"]}), 429, "too_many_invitations")
    assert invitation_notices(bob) == 1


def test_a_user_registers_at_most_webhooks_per_user(alice, bob, settings):
    """Webhooks are the outbound worker's to serve: the same kind of per-user share, a setting."""
    from accounts.models import Webhook

    settings.WEBHOOKS_PER_USER = 2
    hooks = [alice.post("/api/v1/accounts/webhooks/", {"url": f"http://127.0.0.1:9/hook/{n}"}) for n in range(2)]
    assert [h.status_code for h in hooks] == [201, 201]
    body = error_of(alice.post("/api/v1/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook/2"}), 400, "invalid")
    assert "at most 2 webhooks" in body["detail"]
    assert Webhook.objects.filter(user=alice.user).count() == 2
    assert bob.post("/api/v1/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook/b"}).status_code == 201
    # A removed webhook gives its place back.
    assert alice.client.delete(f"/api/v1/accounts/webhooks/{hooks[0].json()['id']}/").status_code == 204
    assert alice.post("/api/v1/accounts/webhooks/", {"url": "http://127.0.0.1:9/hook/2"}).status_code == 201
