"""Leaving a game well, over HTTP: resign, abort (alone before every seat has moved, by a
unanimous vote after), claiming a vanished seat, and the default clock of new games."""

from games.play import projection
from games.models import AbortVote, Event, Game, Notification
from tests.conftest import start_game


def url(game_id, what):
    return f"/api/v1/games/{game_id}/{what}/"


def first_move(player, game_id):
    moves = player.get(url(game_id, "legal-moves")).json()["moves"]
    response = player.move(game_id, moves[0])
    assert response.status_code == 201, response.content
    return response


def mover(game_id, *players):
    game = Game.objects.get(pk=game_id)
    seat = game.active_seats[0]
    return next(p for p in players if game.seat_set.get(number=seat).user_id == p.user.pk)


def counts(game_id):
    return Event.objects.filter(game_id=game_id).count(), AbortVote.objects.filter(game_id=game_id).count()


# -- resign ------------------------------------------------------------------------------------
def test_resigning_a_two_player_game_hands_the_other_the_win(alice, bob, duel):
    response = bob.post(url(duel, "resign"))
    assert response.status_code == 200, response.content
    game = response.json()
    assert game["status"] == "finished"
    assert game["result"]["winners"] == [0] and game["result"]["forfeited"] == [1]
    forfeit = Event.objects.get(game_id=duel, type="SeatForfeited")
    assert forfeit.data == {"seat": 1, "reason": "resigned"} and forfeit.actor == 1
    assert Notification.objects.filter(user=alice.user, game_id=duel, type="finished").exists()


def test_in_a_three_seat_game_the_others_play_on_after_a_resignation(make_player):
    players = [make_player() for _ in range(3)]
    game_id = start_game(players[0], players[1:], kind="pickpic")
    response = players[2].post(url(game_id, "resign"))
    assert response.status_code == 200
    game = response.json()
    assert game["status"] == "active" and game["result"] is None
    assert 2 not in game["active_seats"]
    again = players[2].post(url(game_id, "resign"))
    assert (again.status_code, again.json()["code"]) == (403, "forbidden")


def test_resign_refusals_write_nothing(alice, bob, carol, duel):
    before = counts(duel)
    spectator = carol.post(url(duel, "resign"))
    assert (spectator.status_code, spectator.json()["code"]) == (403, "not_a_player")
    missing = alice.post(url("00000000-0000-0000-0000-000000000000", "resign"))
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    open_game = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    lobby = alice.post(url(open_game, "resign"))
    assert (lobby.status_code, lobby.json()["code"]) == (409, "game_not_active")
    assert counts(duel) == before


# -- abort -------------------------------------------------------------------------------------
def test_before_every_seat_has_moved_one_seat_aborts_alone(alice, bob, duel):
    first_move(mover(duel, alice, bob), duel)  # one seat has moved; the other has not
    response = bob.post(url(duel, "abort"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["aborted"] is True and body["alone"] is True and body["status"] == "aborted"
    game = alice.game(duel)
    assert game["status"] == "aborted" and game["result"]["aborted"] is True
    assert game["active_seats"] == [] and game["next_deadline"] is None and game["seed"] is None
    assert Event.objects.filter(game_id=duel, type="GameAborted").count() == 1
    later = alice.move(duel, {"type": "play", "card": "D01"})
    assert later.json()["code"] == "game_not_active"
    assert projection.rebuild_projection(Game.objects.get(pk=duel))["status"] == "aborted"


def test_after_every_seat_has_moved_it_takes_a_unanimous_vote_which_can_be_withdrawn(alice, bob, duel):
    first_move(mover(duel, alice, bob), duel)
    first_move(mover(duel, alice, bob), duel)
    events = Event.objects.filter(game_id=duel).count()
    vote = alice.post(url(duel, "abort")).json()
    assert (vote["aborted"], vote["alone"], vote["votes"], vote["needed"]) == (False, False, [0], [0, 1])
    assert Event.objects.filter(game_id=duel).count() == events  # a vote is not an event
    assert bob.get(url(duel, "abort")).json()["votes"] == [0]
    asked = Notification.objects.filter(type="abort_vote")
    assert [(n.user, n.title) for n in asked] == [(bob.user, "alice asks to abort Duel (test game)")]
    withdrawn = alice.client.delete(url(duel, "abort"))
    assert withdrawn.json()["votes"] == []
    assert bob.post(url(duel, "abort")).json()["aborted"] is False
    assert alice.post(url(duel, "abort")).json()["aborted"] is True
    assert alice.game(duel)["status"] == "aborted"


def test_abort_refusals_write_nothing(alice, bob, carol, duel):
    before = counts(duel)
    assert carol.post(url(duel, "abort")).json()["code"] == "not_a_player"
    assert carol.client.delete(url(duel, "abort")).status_code == 403
    open_game = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    assert alice.post(url(open_game, "abort")).status_code == 409
    assert counts(duel) == before


def test_a_seat_that_resigned_has_no_say_in_an_abort(make_player):
    players = [make_player() for _ in range(3)]
    game_id = start_game(players[0], players[1:], kind="pickpic")
    players[2].post(url(game_id, "resign"))
    refused = players[2].post(url(game_id, "abort"))
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")


# -- a vanished player -------------------------------------------------------------------------
def no_clock_duel(alice, bob):
    return start_game(alice, [bob], options={"time_control": "none"})


def test_a_silent_seat_can_be_claimed_after_the_inactivity_period(alice, bob, settings):
    game_id = no_clock_duel(alice, bob)
    waiting, silent = (alice, bob) if mover(game_id, alice, bob) is bob else (bob, alice)
    seat = alice.game(game_id)["active_seats"][0]
    settings.VANISHED_AFTER_DAYS = 0  # the period has run
    response = waiting.post(url(game_id, "claim-forfeit"), {"seat": seat})
    assert response.status_code == 200, response.content
    game = response.json()
    assert game["status"] == "finished" and game["result"]["forfeited"] == [seat]
    assert Event.objects.get(game_id=game_id, type="SeatForfeited").data == {"seat": seat, "reason": "vanished"}


def test_claims_too_early_or_wrong_are_refused_and_write_nothing(alice, bob, carol, settings):
    settings.VANISHED_AFTER_DAYS = 14
    game_id = no_clock_duel(alice, bob)
    waiting = alice if mover(game_id, alice, bob) is bob else bob
    seat = alice.game(game_id)["active_seats"][0]
    before = counts(game_id)
    early = waiting.post(url(game_id, "claim-forfeit"), {"seat": seat})
    assert (early.status_code, early.json()["code"]) == (409, "not_yet")
    assert "14 days" in early.json()["detail"]
    settings.VANISHED_AFTER_DAYS = 0
    own = waiting.post(url(game_id, "claim-forfeit"), {"seat": 1 - seat})
    assert (own.status_code, own.json()["code"]) == (400, "invalid")
    for body in ({}, {"seat": "one"}, {"seat": -1}, {"seat": 9}):
        bad = waiting.post(url(game_id, "claim-forfeit"), body)
        assert (bad.status_code, bad.json()["code"]) == (400, "invalid"), body
    assert carol.post(url(game_id, "claim-forfeit"), {"seat": seat}).json()["code"] == "not_a_player"
    clocked = start_game(alice, [bob])
    refused = alice.post(url(clocked, "claim-forfeit"), {"seat": 1})
    assert refused.status_code in (400, 409)
    assert counts(game_id) == before


def test_new_games_get_a_correspondence_clock_by_default(alice):
    game = alice.post("/api/v1/games/", {"kind": "duel"}).json()
    assert game["options"]["time_control"] == "per_move"
    assert game["options"]["move_seconds"] == 3 * 86400
    kinds = alice.get("/api/v1/kinds/duel/").json()
    assert kinds["options_schema"]["properties"]["time_control"]["default"] == "per_move"
