"""Private tables under abuse (docs/social.md): what leaving revokes, NUL in a join
code, rated private games on public profiles."""

from __future__ import annotations

import pytest

from games.models import Invitation
from tests.accounts.test_ratings import play_out
from tests.api.test_errors import error_of

pytestmark = pytest.mark.django_db


def private_game(alice, **extra):
    response = alice.post("/api/v1/games/", {"kind": "duel", "private": True, **extra})
    assert response.status_code == 201, response.content
    return response.json()


def assert_gone_for(player, game_id):
    error_of(player.get(f"/api/v1/games/{game_id}/"), 404, "not_found")
    error_of(player.get(f"/api/v1/games/{game_id}/chat/"), 404, "not_found")
    error_of(player.get(f"/api/v1/games/{game_id}/events/"), 404, "not_found")
    assert game_id not in [g["id"] for g in player.get("/api/v1/games/").json()["results"]]
    error_of(player.post(f"/api/v1/games/{game_id}/join/"), 404, "not_found")


def test_leaving_a_private_game_joined_by_link_revokes_the_seat_and_the_sight(alice, bob):
    game = private_game(alice)
    assert bob.post(f"/api/v1/join/{game['join_code']}/").status_code == 200
    assert bob.post(f"/api/v1/games/{game['id']}/leave/").status_code == 200
    assert_gone_for(bob, game["id"])
    # The link still works for whoever holds it.
    assert bob.post(f"/api/v1/join/{game['join_code']}/").status_code == 200


def test_leaving_a_private_game_joined_by_invitation_cancels_the_invitation(alice, bob):
    game = private_game(alice, invite=["bob"])
    invitation = Invitation.objects.get(game_id=game["id"], invitee=bob.user)
    assert bob.post(f"/api/v1/invitations/{invitation.pk}/accept/").status_code == 200
    assert bob.post(f"/api/v1/games/{game['id']}/leave/").status_code == 200
    assert_gone_for(bob, game["id"])
    mine = {i["id"]: i["status"] for i in bob.get("/api/v1/invitations/").json()}
    assert mine[invitation.pk] == "cancelled"
    error_of(bob.post(f"/api/v1/invitations/{invitation.pk}/accept/"), 409, "invitation_closed")


def test_a_join_link_past_its_lobby_is_a_404_but_to_the_games_own_players(alice, bob, carol):
    game = private_game(alice)
    assert bob.post(f"/api/v1/join/{game['join_code']}/").status_code == 200
    assert alice.post(f"/api/v1/games/{game['id']}/start/").status_code == 200
    assert error_of(carol.post(f"/api/v1/join/{game['join_code']}/"), 404, "not_found") == error_of(
        carol.post("/api/v1/join/no-such-code/"), 404, "not_found"
    )
    error_of(bob.post(f"/api/v1/join/{game['join_code']}/"), 409, "game_not_open")
    assert not Invitation.objects.filter(game_id=game["id"], invitee=carol.user).exists()


def test_a_nul_in_a_join_code_is_a_404(bob):
    for path in (
        "/api/v1/join/%00/",
        "/api/v1/join/a%00b/",
        "/api/v1/players/%00/",
        "/api/v1/games/%00/",
        "/api/v1/kinds/%00/",
    ):
        error_of(bob.get(path) if "join" not in path else bob.post(path), 404, "not_found")


def test_a_profile_lists_no_rated_private_game_its_viewer_cannot_see(alice, bob, carol):
    game = private_game(alice, invite=["bob"], rated=True)
    invitation = Invitation.objects.get(game_id=game["id"], invitee=bob.user)
    bob.post(f"/api/v1/invitations/{invitation.pk}/accept/")
    assert alice.post(f"/api/v1/games/{game['id']}/start/").status_code == 200
    play_out(game["id"], [alice, bob])
    error_of(carol.get(f"/api/v1/games/{game['id']}/"), 404, "not_found")

    def history(viewer):
        kinds = viewer.get("/api/v1/players/alice/").json()["kinds"]
        return [point["game"] for kind in kinds for point in kind["history"]]

    assert history(carol) == []
    assert history(bob) == [game["id"]]  # a player of it sees it
    assert history(alice) == [game["id"]]


def test_a_rematch_with_people_and_bots_is_refused_for_it_would_seat_bots_in_a_private_game(alice, bob):
    from games.models import Game

    created = alice.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, "seats": 3, "bots": [2]})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/").status_code in (200, 201)
    Game.objects.filter(pk=game_id).update(status=Game.Status.ABORTED)  # aborted in the opening
    before = Game.objects.count()
    error_of(bob.post(f"/api/v1/games/{game_id}/rematch/"), 400, "invalid")
    assert Game.objects.count() == before
    assert not Game.objects.filter(private=True, seat_set__user__is_bot=True).exists()
