"""Staff review disputes in the admin: the log, the state at any event, decisions as events."""

import json

import pytest

from accounts.models import User
from games.play import disputes, store
from games.models import Dispute, Event, Game


@pytest.fixture
def staff(db, client):
    user = User.objects.create_user("referee", password="x", is_staff=True, is_superuser=True)
    client.force_login(user)
    client.user = user
    return client


def play(player, game_id, times=1):
    for _ in range(times):
        game = player.game(game_id)
        player.move(game_id, {"type": "play", "card": game["state"]["hand"][0]}, game["version"])


def test_the_game_page_lists_every_event_with_a_link_to_the_state_after_it(staff, duel):
    page = staff.get(f"/admin/games/game/{duel}/change/").content.decode()
    assert "GameCreated" in page and "GameStarted" in page
    assert f"/admin/games/game/{duel}/state/4/" in page


def test_the_state_page_shows_the_full_replayed_state_at_any_event(staff, alice, duel):
    play(alice, duel)
    response = staff.get(f"/admin/games/game/{duel}/state/4/")
    assert response.status_code == 200
    shown = json.loads(response.context["state"])
    assert shown == store.replay_from_scratch(Game.objects.get(pk=duel), 4)
    assert staff.get(f"/admin/games/game/{duel}/state/99/").status_code == 404


def test_players_cannot_reach_the_admin(alice, client, duel):
    client.force_login(alice.user)
    assert client.get(f"/admin/games/game/{duel}/state/4/").status_code == 302  # to the login page


def test_upholding_with_rollback_appends_events_and_rewinds_the_state(staff, alice, bob, duel):
    play(alice, duel)
    disputed = Game.objects.get(pk=duel).version
    dispute = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": disputed, "reason": "misclick"}).json()
    response = staff.post(
        f"/admin/games/dispute/{dispute['id']}/change/", {"resolution": "voided: a misclick", "decision": "rollback"}
    )
    assert response.status_code == 302
    game = Game.objects.get(pk=duel)
    tail = list(Event.objects.filter(game=game).order_by("-seq")[:3].values_list("type", flat=True))[::-1]
    assert tail == ["CardPlayed", "DisputeResolved", "GameRolledBack"]  # opening wrote no event
    assert store.state_at(game) == store.replay_from_scratch(game, disputed - 1)
    assert store.replay_from_scratch(game) == store.state_at(game)
    assert Dispute.objects.get(pk=dispute["id"]).status == "upheld"
    assert alice.game(duel)["active_seats"] == [0]  # alice plays that turn again
    play(alice, duel)  # and the game goes on
    assert Event.objects.filter(game=game).count() == game.version + 1


def test_dismissing_changes_no_state(staff, alice, duel):
    game = Game.objects.get(pk=duel)
    before = store.state_at(game)
    dispute = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": 4, "reason": "?"}).json()
    staff.post(f"/admin/games/dispute/{dispute['id']}/change/", {"resolution": "fine", "decision": "dismiss"})
    game.refresh_from_db()
    assert Dispute.objects.get(pk=dispute["id"]).status == "dismissed"
    assert store.state_at(game) == before


def test_a_finished_game_cannot_be_rolled_back_because_its_seed_is_public(staff, alice, bob, duel):
    players = {0: alice, 1: bob}
    while alice.game(duel)["status"] == "active":
        play(players[alice.game(duel)["active_seats"][0]], duel)
    last_move = Event.objects.filter(game_id=duel, actor__isnull=False).order_by("-seq").first().seq
    dispute = bob.post(f"/api/v1/games/{duel}/disputes/", {"seq": last_move, "reason": "x"}).json()
    from games.errors import Invalid

    with pytest.raises(Invalid, match="seed published"):
        disputes.resolve_dispute(dispute["id"], staff.user, uphold=True, resolution="replay it", roll_back=True)
    assert alice.game(duel)["status"] == "finished"
    assert Dispute.objects.get(pk=dispute["id"]).status == "open"
    disputes.resolve_dispute(dispute["id"], staff.user, uphold=True, resolution="noted; result stands")
    assert Dispute.objects.get(pk=dispute["id"]).status == "upheld"


def test_only_staff_resolve_and_only_once(alice, staff, duel):
    dispute = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": 4, "reason": "x"}).json()
    from games.errors import Forbidden, Invalid

    with pytest.raises(Forbidden):
        disputes.resolve_dispute(dispute["id"], alice.user, uphold=False, resolution="")
    disputes.resolve_dispute(dispute["id"], staff.user, uphold=False, resolution="no")
    with pytest.raises(Invalid):
        disputes.resolve_dispute(dispute["id"], staff.user, uphold=True, resolution="yes")
