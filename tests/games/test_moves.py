"""POST /moves/: the acting seat comes from the token, every error has its code, and a refused
move writes nothing."""

import pytest

from games.models import Event


def count(game_id):
    return Event.objects.filter(game_id=game_id).count()


def a_card_of(player, game_id):
    return player.game(game_id)["state"]["hand"][0]


def test_a_legal_move_is_201_with_the_new_version_and_the_movers_view(alice, duel):
    version = alice.game(duel)["version"]
    card = a_card_of(alice, duel)
    response = alice.move(duel, {"type": "play", "card": card}, version)
    assert response.status_code == 201
    body = response.json()
    assert body["version"] == version + 1 and card not in body["state"]["hand"]
    assert body["state"]["trick"] == [[0, card]]


@pytest.mark.parametrize(
    "body, code",
    [
        ({"move": {"type": "play", "card": "D01"}}, "invalid"),  # no expected_version
        ({"expected_version": 4}, "invalid"),  # no move
        ({"move": {"type": "play", "card": "D01"}, "expected_version": "four"}, "invalid"),
        ({"move": {"type": "play", "card": "D01"}, "expected_version": -1}, "invalid"),
        ({"move": "play D01", "expected_version": 4}, "illegal_move"),
        ({"move": {"card": "D01"}, "expected_version": 4}, "illegal_move"),
        ({"move": {"type": "play", "card": "D99"}, "expected_version": 4}, "illegal_move"),
        ({"move": {"type": "play", "card": ["D01"]}, "expected_version": 4}, "illegal_move"),
        ({"move": {"type": "play", "card": "D01", "extra": 1}, "expected_version": 4}, "illegal_move"),
        ({"move": {"type": "draw"}, "expected_version": 4}, "unavailable_move"),
    ],
)
def test_bad_moves_are_400_with_their_code_and_write_nothing(alice, duel, body, code):
    before = count(duel)
    response = alice.post(f"/api/v1/games/{duel}/moves/", body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code and response.json()["detail"]
    assert count(duel) == before


def test_a_card_not_in_your_hand_is_illegal(alice, bob, duel):
    bobs = a_card_of(bob, duel)
    response = alice.move(duel, {"type": "play", "card": bobs})
    assert (response.status_code, response.json()["code"]) == (400, "illegal_move")


def test_not_your_turn_is_409(bob, duel):
    before = count(duel)
    response = bob.move(duel, {"type": "play", "card": a_card_of(bob, duel)})
    assert (response.status_code, response.json()["code"]) == (409, "not_your_turn")
    assert count(duel) == before


def test_a_stale_expected_version_is_409_with_the_current_version(alice, duel):
    version = alice.game(duel)["version"]
    response = alice.move(duel, {"type": "play", "card": a_card_of(alice, duel)}, version - 1)
    assert response.status_code == 409
    assert response.json() == {"code": "version_conflict", "version": version, "detail": response.json()["detail"]}
    assert count(duel) == version


def test_a_stranger_is_403_not_a_player(carol, duel):
    response = carol.move(duel, {"type": "play", "card": "D01"}, 4)
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")


def test_the_seat_comes_from_the_token_never_from_the_body(alice, bob, duel):
    """Bob cannot act as seat 0 by saying so: the extra field is ignored and he is judged as seat 1."""
    version = alice.game(duel)["version"]
    response = bob.post(
        f"/api/v1/games/{duel}/moves/",
        {"move": {"type": "play", "card": a_card_of(alice, duel)}, "expected_version": version, "seat": 0, "actor": 0},
    )
    assert (response.status_code, response.json()["code"]) == (409, "not_your_turn")


def test_moves_in_an_open_game_are_409_game_not_active(alice):
    game_id = alice.post("/api/v1/games/", {"kind": "duel"}).json()["id"]
    response = alice.move(game_id, {"type": "play", "card": "D01"}, 2)
    assert (response.status_code, response.json()["code"]) == (409, "game_not_active")


def test_unknown_game_is_404_and_no_token_is_401(alice, anonymous, duel):
    missing = alice.post("/api/v1/games/00000000-0000-0000-0000-000000000000/moves/", {})
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    not_uuid = alice.get("/api/v1/games/not-a-uuid/")
    assert (not_uuid.status_code, not_uuid.json()["code"]) == (404, "not_found")
    response = anonymous.post(f"/api/v1/games/{duel}/moves/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")


def test_malformed_json_is_400_malformed(alice, duel):
    response = alice.client.post(
        f"/api/v1/games/{duel}/moves/", data='{"move": {"type": ', content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "malformed")


def test_a_body_that_is_not_an_object_is_400_invalid(alice, duel):
    response = alice.client.post(f"/api/v1/games/{duel}/moves/", data="[1, 2]", content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_non_json_content_type_is_415(alice, duel):
    response = alice.client.post(
        f"/api/v1/games/{duel}/moves/", data="move=play", content_type="application/x-www-form-urlencoded"
    )
    assert (response.status_code, response.json()["code"]) == (415, "unsupported_media_type")


def test_an_oversized_body_is_413_and_writes_nothing(alice, duel):
    before = count(duel)
    huge = {"move": {"type": "play", "card": "D01", "pad": "x" * 100_000}, "expected_version": 4}
    response = alice.post(f"/api/v1/games/{duel}/moves/", huge)
    assert (response.status_code, response.json()["code"]) == (413, "too_large")
    assert count(duel) == before


def test_a_retry_with_the_same_idempotency_key_returns_the_first_answer(alice, duel):
    version = alice.game(duel)["version"]
    move = {"type": "play", "card": a_card_of(alice, duel)}
    first = alice.move(duel, move, version, key="retry-1")
    again = alice.move(duel, move, version, key="retry-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert count(duel) == version + 1


def test_a_retried_final_move_returns_the_first_answer_and_its_last_version(alice, bob, duel):
    """The move that ends the game writes its play and the game's end in one append: a retry of it
    answers the version after all of them, exactly as the first answer did, and writes nothing."""
    players, n = {0: alice, 1: bob}, 0
    while (game := alice.game(duel))["status"] == "active":
        player = players[game["active_seats"][0]]
        moves = player.get(f"/api/v1/games/{duel}/legal-moves/").json()
        n += 1
        last = (player, moves["moves"][0], moves["version"], f"move-{n}")
        first = player.move(duel, *last[1:])
        assert first.status_code == 201, first.content
    assert first.json()["version"] > last[2] + 1, "the final move wrote a single event"
    written = count(duel)
    again = last[0].move(duel, *last[1:])
    assert (again.status_code, again["Idempotent-Replayed"]) == (201, "true")
    assert again.json() == first.json()
    assert count(duel) == written


def test_the_same_key_with_a_different_body_is_422(alice, duel):
    version = alice.game(duel)["version"]
    hand = alice.game(duel)["state"]["hand"]
    alice.move(duel, {"type": "play", "card": hand[0]}, version, key="k")
    response = alice.move(duel, {"type": "play", "card": hand[1]}, version, key="k")
    assert (response.status_code, response.json()["code"]) == (422, "idempotency_mismatch")
    assert count(duel) == version + 1


def test_another_user_reusing_a_key_is_judged_as_their_own_request(alice, bob, duel):
    """Keys are scoped to the caller: bob never gets alice's answer, and her key is not his to spend."""
    version = alice.game(duel)["version"]
    move = {"type": "play", "card": a_card_of(alice, duel)}
    alice.move(duel, move, version, key="shared")
    response = bob.move(duel, move, version, key="shared")
    assert (response.status_code, response.json()["code"]) == (409, "version_conflict")
    assert count(duel) == version + 1


def test_a_bad_idempotency_key_is_400(alice, duel):
    response = alice.move(duel, {"type": "play", "card": "D01"}, 4, key="x" * 200)
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
