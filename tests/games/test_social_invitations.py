"""Private games, invitations, join links, rematches, open seeks and spectating, over HTTP: each
use case, its bad inputs (a clear 4xx, nothing written) and who may reach what."""

from games.play.kinds import get_engine
from games.play import store
from games.models import ChatMessage, Game, Invitation, Seat
from tests.conftest import start_game

GAMES = "/api/v1/games/"


def private_game(creator, invite=(), **extra):
    response = creator.post(GAMES, {"kind": "duel", "private": True, "invite": list(invite), **extra})
    assert response.status_code == 201, response.content
    return response.json()


def invitation_of(player):
    return player.get("/api/v1/invitations/").json()[0]


def test_invite_accept_play(alice, bob):
    game = private_game(alice, ["bob"])
    assert game["private"] is True and len(game["join_code"]) >= 32
    mine = invitation_of(bob)
    assert (mine["game"], mine["invited_by"], mine["status"]) == (game["id"], "alice", "pending")
    assert bob.get("/api/v1/notifications/").json()["results"][0]["type"] == "invitation"
    accepted = bob.post(f"/api/v1/invitations/{mine['id']}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    assert bob.game(game["id"])["your_seat"] == 1
    assert alice.post(f"{GAMES}{game['id']}/start/").status_code == 200
    again = bob.post(f"/api/v1/invitations/{mine['id']}/accept/")
    assert (again.status_code, again.json()["code"]) == (409, "invitation_closed")


def test_decline_and_expiry_close_an_invitation(alice, bob, carol, settings):
    game = private_game(alice, ["bob", "carol"])
    bobs, carols = invitation_of(bob), invitation_of(carol)
    declined = bob.post(f"/api/v1/invitations/{bobs['id']}/decline/")
    assert declined.json()["status"] == "declined"
    assert bob.get(f"{GAMES}{game['id']}/").status_code == 404  # no longer invited
    Invitation.objects.filter(pk=carols["id"]).update(expires_at=Invitation.objects.get(pk=carols["id"]).created_at)
    assert invitation_of(carol)["status"] == "expired"
    late = carol.post(f"/api/v1/invitations/{carols['id']}/accept/")
    assert (late.status_code, late.json()["code"]) == (409, "invitation_closed")
    assert Seat.objects.filter(game_id=game["id"]).count() == 1
    assert alice.post(f"/api/v1/invitations/{carols['id']}/accept/").status_code == 404  # not hers


def test_bad_invitations_are_400_and_write_nothing(alice, bob):
    games = Game.objects.count()
    for body in (
        {"kind": "duel", "invite": ["nobody"]},
        {"kind": "duel", "invite": "bob"},
        {"kind": "duel", "invite": ["alice"]},
        {"kind": "duel", "private": "yes please"},
        {"kind": "duel", "invite": [f"u{n}" for n in range(11)]},
    ):
        response = alice.post(GAMES, body)
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), body
    assert Game.objects.count() == games and Invitation.objects.count() == 0
    game = private_game(alice)
    for body in ({"invite": ["nobody"]}, {}, {"invite": [5]}):
        assert alice.post(f"{GAMES}{game['id']}/invitations/", body).status_code == 400
    assert bob.post(f"{GAMES}{game['id']}/invitations/", {"invite": ["bob"]}).status_code == 404
    public = alice.post(GAMES, {"kind": "duel"}).json()
    assert alice.post(f"{GAMES}{public['id']}/invitations/", {"invite": ["bob"]}).status_code == 400
    assert Invitation.objects.count() == 0
    made = alice.post(f"{GAMES}{game['id']}/invitations/", {"invite": ["bob"]})
    assert made.status_code == 201 and made.json()[0]["invitee"] == "bob"
    assert [i["invitee"] for i in alice.get(f"{GAMES}{game['id']}/invitations/").json()] == ["bob"]


def test_a_private_game_is_invisible_to_everyone_not_seated_or_invited(alice, bob, carol, django_user_model):
    game_id = private_game(alice, ["bob"])["id"]
    bob.post(f"/api/v1/invitations/{invitation_of(bob)['id']}/accept/")
    alice.post(f"{GAMES}{game_id}/start/")
    alice.post(f"{GAMES}{game_id}/chat/", {"channel": "players", "text": "just us"})
    for path in (
        "",
        "events/",
        "state/",
        "legal-moves/",
        "chat/",
        "chat/?channel=spectators",
        "abort/",
        "invitations/",
        "disputes/",
    ):
        response = carol.get(f"{GAMES}{game_id}/{path}")
        assert (response.status_code, response.json()["code"]) == (404, "not_found"), path
    for path, body in (
        ("join/", None),
        ("moves/", {"move": {"type": "play", "card": "D01"}, "expected_version": 4}),
        ("chat/", {"channel": "spectators", "text": "hi"}),
        ("resign/", None),
        ("abort/", None),
        ("claim-forfeit/", {"seat": 0}),
        ("rematch/", None),
        ("mute/", None),
        ("start/", None),
        ("disputes/", {"seq": 1, "reason": "x"}),
        ("chat/1/report/", {}),
    ):
        response = carol.post(f"{GAMES}{game_id}/{path}", body)
        assert (response.status_code, response.json()["code"]) == (404, "not_found"), path
    for listing in (GAMES, f"{GAMES}?status=active", "/api/v1/spectate/", "/api/v1/seeks/"):
        assert game_id not in [g["id"] for g in carol.get(listing).json()["results"]], listing
    assert game_id in [g["id"] for g in bob.get(GAMES).json()["results"]]
    assert bob.game(game_id)["join_code"] and carol.post(f"{GAMES}{game_id}/join/").status_code == 404
    assert ChatMessage.objects.count() == 1 and Seat.objects.filter(game_id=game_id).count() == 2


def test_the_game_stream_of_a_private_game_is_404_to_strangers(alice, bob, carol):
    game_id = private_game(alice, ["bob"])["id"]
    response = carol.client.get(f"{GAMES}{game_id}/stream/", HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 404


def test_the_join_link_seats_whoever_holds_the_code(alice, bob, carol):
    game = private_game(alice)
    assert carol.get(f"{GAMES}{game['id']}/").status_code == 404
    assert carol.post("/api/v1/join/not-the-code/").status_code == 404
    joined = carol.post(f"/api/v1/join/{game['join_code']}/")
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1
    full = bob.post(f"/api/v1/join/{game['join_code']}/")
    assert (full.status_code, full.json()["code"]) == (409, "game_full")
    assert Seat.objects.filter(game_id=game["id"]).count() == 2


def test_a_rematch_has_the_same_players_and_options_and_a_new_seed(alice, bob):
    game_id = start_game(alice, [bob], options={"hand_size": 2})
    bob.post(f"{GAMES}{game_id}/resign/")
    early = alice.post(f"{GAMES}{start_game(alice, [bob])}/rematch/")
    assert (early.status_code, early.json()["code"]) == (409, "game_not_finished")
    response = bob.post(f"{GAMES}{game_id}/rematch/")
    assert response.status_code == 201, response.content
    new = response.json()
    old = alice.game(game_id)
    assert new["options"] == old["options"] and new["kind"] == old["kind"] and new["seats"] == 2
    assert new["seed_hash"] != old["seed_hash"] and new["rematch_of"] == game_id and new["private"]
    assert new["status"] == "open" and new["your_seat"] == 0
    twice = alice.post(f"{GAMES}{game_id}/rematch/")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_exists")
    invitation = invitation_of(alice)
    assert invitation["rematch"] is True and invitation["invited_by"] == "bob"
    assert alice.post(f"/api/v1/invitations/{invitation['id']}/accept/").status_code == 200
    started = alice.game(new["id"])
    assert started["status"] == "active"  # every player is back: it begins by itself
    assert {p["username"] for p in started["players"]} == {"alice", "bob"}


def test_declining_a_rematch_calls_it_off(alice, bob, carol):
    game_id = start_game(alice, [bob])
    alice.post(f"{GAMES}{game_id}/resign/")
    new = alice.post(f"{GAMES}{game_id}/rematch/").json()
    assert carol.post(f"{GAMES}{game_id}/rematch/").status_code == 403
    declined = bob.post(f"/api/v1/invitations/{invitation_of(bob)['id']}/decline/")
    assert declined.status_code == 200
    assert Game.objects.get(pk=new["id"]).status == "cancelled"
    again = bob.post(f"{GAMES}{game_id}/rematch/")
    assert again.status_code == 201  # the cancelled one does not stand in the way


def test_open_seeks_filter_by_kind_players_and_time_control(alice, bob, carol):
    per_move = alice.post(GAMES, {"kind": "duel"}).json()["id"]
    no_clock = bob.post(GAMES, {"kind": "duel", "options": {"time_control": "none"}}).json()["id"]
    pickpic = alice.post(GAMES, {"kind": "pickpic", "seats": 4}).json()["id"]
    full = alice.post(GAMES, {"kind": "duel"}).json()["id"]
    carol.post(f"{GAMES}{full}/join/")
    private_game(alice)

    def ids(**params):
        response = carol.get("/api/v1/seeks/", **params)
        assert response.status_code == 200, response.content
        return {g["id"] for g in response.json()["results"]}

    assert ids() == {per_move, no_clock, pickpic}
    assert ids(kind="duel") == {per_move, no_clock}
    assert ids(players=4) == {pickpic}
    assert ids(time_control="none") == {no_clock}
    assert ids(kind="duel", time_control="per_move") == {per_move}
    for bad in ({"kind": "chess"}, {"players": "two"}, {"players": 0}, {"time_control": "blitz"}, {"limit": 0}):
        response = carol.get("/api/v1/seeks/", **bad)
        assert (response.status_code, response.json()["code"]) == (400, "invalid"), bad


def test_spectators_list_public_games_in_progress_and_see_exactly_the_spectator_view(alice, bob, carol):
    active = start_game(alice, [bob])
    alice.post(GAMES, {"kind": "duel"})  # open: not in progress
    listed = carol.get("/api/v1/spectate/").json()["results"]
    assert [g["id"] for g in listed] == [active] and listed[0]["your_seat"] is None
    assert carol.get("/api/v1/spectate/", kind="pickpic").json()["results"] == []
    assert carol.get("/api/v1/spectate/", kind="chess").status_code == 400
    game = Game.objects.get(pk=active)
    expected = get_engine("duel").view(store.state_at(game), None)
    seen = carol.game(active)
    assert seen["state"] == expected and seen["your_seat"] is None and seen["join_code"] is None
    assert seen["state"] != alice.game(active)["state"]
