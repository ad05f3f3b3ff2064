"""A game that starts itself: the creator asks for it at create (the web page's default), the join
that takes the last seat starts it, and the creator hears of every join by a notice."""

from games.models import Event, Game

GAMES = "/api/v1/games/"


def notices(player, kind):
    return [n for n in player.get("/api/v1/notifications/").json()["results"] if n["type"] == kind]


def test_the_join_that_takes_the_last_seat_starts_a_game_made_to_start_itself(alice, bob):
    made = alice.post(GAMES, {"kind": "duel", "auto_start": True}).json()
    assert made["auto_start"] is True and made["status"] == "open"
    joined = bob.post(f"{GAMES}{made['id']}/join/")
    assert joined.status_code == 200, joined.content
    game = bob.game(made["id"])
    assert game["status"] == "active" and game["state"] is not None
    assert [e.type for e in Event.objects.filter(game_id=made["id"]).order_by("seq")][-2:] == [
        "PlayerJoined",
        "GameStarted",
    ]
    # Starting it again is refused as for any started game.
    assert alice.post(f"{GAMES}{made['id']}/start/").status_code == 409


def test_a_game_made_without_auto_start_waits_for_its_creator(alice, bob):
    made = alice.post(GAMES, {"kind": "duel"}).json()
    assert made["auto_start"] is False
    bob.post(f"{GAMES}{made['id']}/join/")
    assert Game.objects.get(pk=made["id"]).status == "open"
    assert alice.post(f"{GAMES}{made['id']}/start/").status_code == 200


def test_a_seat_short_of_full_does_not_start_it(alice, bob, make_player):
    made = alice.post(GAMES, {"kind": "photograph", "seats": 3, "auto_start": True}).json()
    bob.post(f"{GAMES}{made['id']}/join/")
    assert Game.objects.get(pk=made["id"]).status == "open"
    make_player("cy").post(f"{GAMES}{made['id']}/join/")
    assert Game.objects.get(pk=made["id"]).status == "active"


def test_the_creator_is_told_of_each_join_and_nobody_else_is(alice, bob, make_player):
    made = alice.post(GAMES, {"kind": "photograph", "seats": 3, "auto_start": True}).json()
    bob.post(f"{GAMES}{made['id']}/join/")
    joined = notices(alice, "joined")
    assert [(n["title"], n["game"]) for n in joined] == [("bob joined your game of Photograph", made["id"])]
    cy = make_player("cy")
    cy.post(f"{GAMES}{made['id']}/join/")
    assert len(notices(alice, "joined")) == 2
    assert notices(bob, "joined") == [] and notices(cy, "joined") == []


def test_auto_start_must_be_a_boolean(alice):
    refused = alice.post(GAMES, {"kind": "duel", "auto_start": "yes"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert not Game.objects.exists()
