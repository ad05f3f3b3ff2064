"""A game's life over HTTP: create, join, leave, start, play to the end, and every lobby error."""

from games.models import Event, Game
from tests.conftest import start_game


def test_kinds_lists_every_game_with_its_options_schema(anonymous):
    kinds = {k["kind"]: k for k in anonymous.get("/api/v1/kinds/").json()}
    assert {"pickpic", "photograph", "provence", "duel"} <= set(kinds)
    duel = kinds["duel"]
    assert (duel["min_players"], duel["max_players"]) == (2, 2)
    assert duel["options_schema"]["properties"]["hand_size"]["default"] == 3
    assert duel["options_schema"]["properties"]["time_control"]["default"] == "per_move"


def test_create_gives_the_creator_seat_0_in_an_open_game(alice):
    response = alice.post("/api/v1/games/", {"kind": "duel", "options": {"hand_size": 2}})
    assert response.status_code == 201
    game = response.json()
    assert game["status"] == "open" and game["your_seat"] == 0 and game["state"] is None
    assert game["options"]["hand_size"] == 2 and game["options"]["time_control"] == "per_move"
    assert len(game["seed_hash"]) == 64 and game["seed"] is None
    assert [p["username"] for p in game["players"]] == ["alice"]


def test_game_ids_are_uuids(alice):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    assert len(game_id) == 36 and game_id.count("-") == 4


def test_bad_create_requests_are_400_invalid_and_write_nothing(alice):
    bad = [
        {"kind": "chess"},
        {"kind": "duel", "options": {"hand_size": 99}},
        {"kind": "duel", "options": {"colour": "red"}},
        {"kind": "duel", "options": "fast"},
        {"kind": "duel", "seats": 7},
        {"kind": "duel", "seats": "two"},
        {"kind": "duel", "options": {"time_control": "blitz"}},
        {"options": {}},
        {"kind": 5},
    ]
    for body in bad:
        response = alice.post("/api/v1/games/", body)
        assert response.status_code == 400, (body, response.content)
        assert response.json()["code"] == "invalid" and response.json()["detail"]
    assert Game.objects.count() == 0 and Event.objects.count() == 0


def test_join_full_double_and_started_are_clear_409s(alice, bob, carol):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    assert alice.post(f"/api/v1/games/{game_id}/join/").json()["code"] == "already_joined"
    assert bob.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    full = carol.post(f"/api/v1/games/{game_id}/join/")
    assert (full.status_code, full.json()["code"]) == (409, "game_full")
    assert alice.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    late = carol.post(f"/api/v1/games/{game_id}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "game_not_open")
    leave = bob.post(f"/api/v1/games/{game_id}/leave/")
    assert (leave.status_code, leave.json()["code"]) == (409, "game_not_open")


def test_only_the_creator_starts_and_only_with_enough_players(alice, bob):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    too_few = alice.post(f"/api/v1/games/{game_id}/start/")
    assert (too_few.status_code, too_few.json()["code"]) == (409, "wrong_player_count")
    bob.post(f"/api/v1/games/{game_id}/join/")
    not_creator = bob.post(f"/api/v1/games/{game_id}/start/")
    assert (not_creator.status_code, not_creator.json()["code"]) == (403, "forbidden")
    started = alice.post(f"/api/v1/games/{game_id}/start/").json()
    assert started["status"] == "active" and started["active_seats"] == [0]
    assert len(started["state"]["hand"]) == 3


def test_leave_frees_the_seat_and_the_creator_leaving_cancels(alice, bob, carol):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/")
    assert bob.post(f"/api/v1/games/{game_id}/leave/").status_code == 200
    assert carol.post(f"/api/v1/games/{game_id}/join/").json()["your_seat"] == 1
    stranger = bob.post(f"/api/v1/games/{game_id}/leave/")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "not_a_player")
    assert alice.post(f"/api/v1/games/{game_id}/leave/").json()["status"] == "cancelled"
    # Who may act is judged before the game's status (docs/api.md): carol is not the creator.
    refused = carol.post(f"/api/v1/games/{game_id}/start/")
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    refused = alice.post(f"/api/v1/games/{game_id}/start/")
    assert (refused.status_code, refused.json()["code"]) == (409, "game_not_open")


def test_list_filters_by_status_kind_and_mine(alice, bob, carol):
    open_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    active_id = start_game(bob, [carol])
    listed = alice.get("/api/v1/games/").json()
    assert {g["id"] for g in listed["results"]} == {open_id, active_id}
    assert [g["id"] for g in alice.get("/api/v1/games/", status="active").json()["results"]] == [active_id]
    assert [g["id"] for g in alice.get("/api/v1/games/", mine="true").json()["results"]] == [open_id]
    assert alice.get("/api/v1/games/", kind="pickpic").json()["results"] == []
    assert alice.get("/api/v1/games/", status="bogus").json()["code"] == "invalid"


def test_a_whole_game_played_over_http_ends_with_a_result_and_the_seed(alice, bob, duel):
    players = {0: alice, 1: bob}
    for _ in range(20):
        game = alice.game(duel)
        if game["status"] == "finished":
            break
        seat = game["active_seats"][0]
        moves = players[seat].get(f"/api/v1/games/{duel}/legal-moves/").json()
        response = players[seat].move(duel, moves["moves"][0], moves["version"])
        assert response.status_code == 201, response.content
    game = alice.game(duel)
    assert game["status"] == "finished" and game["result"]["winners"]
    assert sum(game["result"]["scores"]) == 6
    import hashlib

    assert hashlib.sha256(game["seed"].encode()).hexdigest() == game["seed_hash"]
    log = alice.get(f"/api/v1/games/{duel}/events/").json()["events"]
    assert log[-1]["type"] == "GameFinished" and log[-1]["data"]["seed"] == game["seed"]
    after = alice.move(duel, {"type": "play", "card": "D01"}, game["version"])
    assert (after.status_code, after.json()["code"]) == (409, "game_not_active")


def test_listing_games_costs_the_same_queries_for_many_games(alice, bob):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries_to_list():
        with CaptureQueriesContext(connection) as captured:
            alice.get("/api/v1/games/")
        return len(captured.captured_queries)

    start_game(alice, [bob])
    one = queries_to_list()
    for _ in range(9):
        start_game(alice, [bob])
    assert queries_to_list() == one
