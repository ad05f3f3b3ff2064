"""The game's ETag changes whenever its body would (If-None-Match never hides a change)."""

from tests.conftest import start_game


def url(game_id):
    return f"/api/v1/games/{game_id}/"


def test_a_vacation_that_moves_the_deadline_changes_the_etag(alice, bob):
    game_id = start_game(alice, [bob], options={"time_control": "per_move", "move_seconds": 3600})
    first = bob.client.get(url(game_id))
    etag, deadline = first["ETag"], first.json()["next_deadline"]
    assert bob.client.get(url(game_id), HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert alice.post("/api/v1/accounts/vacation/", {"days": 2}).status_code in (200, 201)
    after = bob.client.get(url(game_id), HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert after.json()["next_deadline"] != deadline  # alice is active: her deadline moved
    assert after["ETag"] != etag
    assert bob.client.get(url(game_id), HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304


def test_equal_bodies_have_equal_etags_and_a_304_has_no_body(alice, duel):
    one, two = alice.client.get(url(duel)), alice.client.get(url(duel))
    assert one.json() == two.json() and one["ETag"] == two["ETag"]
    cached = alice.client.get(url(duel), HTTP_IF_NONE_MATCH=f'"other", {one["ETag"]}')
    assert cached.status_code == 304 and not cached.content


def test_the_etag_is_the_digest_of_the_bytes_served(alice, duel):
    import hashlib

    response = alice.client.get(url(duel))
    assert response["ETag"] == 'W/"%s"' % hashlib.sha256(response.content).hexdigest()[:32]
    # A 304 names the same representation, and only it.
    assert alice.client.get(url(duel), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    other = response["ETag"][:-2] + ("1" if response["ETag"][-2] == "0" else "0") + '"'
    assert alice.client.get(url(duel), HTTP_IF_NONE_MATCH=other).status_code == 200
