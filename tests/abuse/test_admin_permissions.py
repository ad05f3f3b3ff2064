"""Admin views that show a game's whole state ask the game's view permission, deciding a dispute
asks the dispute's, and rolling a game back asks both (docs/operations.md, "Who may see a game's
whole state")."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import User
from games.errors import Forbidden
from games.models import Dispute, Event
from games.play import disputes

pytestmark = pytest.mark.django_db


def staff_client(*perms):
    user = User.objects.create_user("clerk", password="x", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=perms))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("page", ["state/3/", "review/"])
def test_staff_without_the_games_permission_see_no_state(duel, page):
    client = staff_client()
    assert client.get(f"/admin/games/game/{duel}/change/").status_code == 403
    response = client.get(f"/admin/games/game/{duel}/{page}")
    assert response.status_code == 403
    assert b"hand" not in response.content


@pytest.mark.parametrize("perm", ["view_game", "change_game"])
@pytest.mark.parametrize("page", ["state/3/", "review/"])
def test_staff_who_may_open_the_game_see_its_state(duel, page, perm):
    client = staff_client(perm)
    assert client.get(f"/admin/games/game/{duel}/change/").status_code == 200
    assert client.get(f"/admin/games/game/{duel}/{page}").status_code == 200


def open_dispute(player, game_id, text="misclick"):
    seq = player.game(game_id)["version"]
    return player.post(f"/api/v1/games/{game_id}/disputes/", {"seq": seq, "reason": text}).json()


def test_a_draft_resolution_on_an_open_dispute_is_not_shown_to_players(alice, duel):
    """Staff's text saved with "keep open" is a draft: players read it only with the decision."""
    dispute = open_dispute(alice, duel)
    clerk = staff_client("view_dispute", "change_dispute", "decide_dispute")
    response = clerk.post(
        f"/admin/games/dispute/{dispute['id']}/change/", {"resolution": "Internal note: trolling", "decision": ""}
    )
    assert response.status_code == 302
    listed = alice.get(f"/api/v1/games/{duel}/disputes/").json()
    assert [d["resolution"] for d in listed] == [""]
    assert "trolling" not in json.dumps(listed)
    clerk.post(
        f"/admin/games/dispute/{dispute['id']}/change/", {"resolution": "The move stands.", "decision": "dismiss"}
    )
    assert [d["resolution"] for d in alice.get(f"/api/v1/games/{duel}/disputes/").json()] == ["The move stands."]


def test_staff_who_may_not_view_the_game_cannot_roll_it_back(alice, duel):
    dispute = open_dispute(alice, duel)
    clerk = staff_client("view_dispute", "change_dispute")
    form = clerk.get(f"/admin/games/dispute/{dispute['id']}/change/")
    assert form.status_code == 200 and b'value="rollback"' not in form.content
    before = Event.objects.filter(game_id=duel).count()
    clerk.post(f"/admin/games/dispute/{dispute['id']}/change/", {"resolution": "voided", "decision": "rollback"})
    assert Dispute.objects.get(pk=dispute["id"]).status == "open"
    assert Event.objects.filter(game_id=duel).count() == before


def test_the_service_refuses_a_rollback_without_the_game_permission(alice, duel):
    dispute = open_dispute(alice, duel)
    clerk = User.objects.create_user("blind", password="x", is_staff=True)
    clerk.user_permissions.set(Permission.objects.filter(codename__in=["change_dispute"]))
    with pytest.raises(Forbidden):
        disputes.resolve_dispute(dispute["id"], clerk, uphold=True, resolution="", roll_back=True)
    with pytest.raises(Forbidden):
        disputes.resolve_dispute(
            dispute["id"], User.objects.create_user("nobody", is_staff=True), uphold=False, resolution=""
        )
    assert Dispute.objects.get(pk=dispute["id"]).status == "open"


def test_a_reviewer_who_may_roll_back_but_not_view_the_game_is_refused_everywhere(alice, bob, duel):
    """Deciding and rolling back granted, viewing the game not: the state and the review are refused
    with the missing permission named, the decision screen offers no rollback and says why, and a
    rollback posted all the same leaves the game as the players read it through the API."""
    game = alice.game(duel)
    assert alice.move(duel, {"type": "play", "card": game["state"]["hand"][0]}, game["version"]).status_code == 201
    dispute = open_dispute(bob, duel)
    clerk = staff_client("view_dispute", "change_dispute", "decide_dispute", "roll_back_game")
    for page in ("state/3/", "review/"):
        refused = clerk.get(f"/admin/games/game/{duel}/{page}")
        assert refused.status_code == 403 and b"games.view_game" in refused.content
    form = clerk.get(f"/admin/games/dispute/{dispute['id']}/change/").content.decode()
    assert 'value="uphold"' in form and 'value="rollback"' not in form
    assert "games.roll_back_game and games.view_game" in form
    before = bob.game(duel)
    clerk.post(f"/admin/games/dispute/{dispute['id']}/change/", {"resolution": "voided", "decision": "rollback"})
    after = bob.game(duel)
    assert (after["version"], after["state"]) == (before["version"], before["state"])
    assert [(d["status"], d["resolution"]) for d in bob.get(f"/api/v1/games/{duel}/disputes/").json()] == [("open", "")]
