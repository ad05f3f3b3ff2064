"""Hidden information is a security property: through every channel (game view, move answer,
event log, state?at=, legal-moves), no seat and no spectator learns what is not theirs to see.
Duel's secrets: the deck order, the other hand, the seed and what the other seat drew."""

import json

from games.play import store
from games.models import Event, Game


def text(response):
    return json.dumps(response.json())


def secrets_hidden_from(game_id, seat, version):
    """Cards the seat cannot know after `version`: the deck and the other hand (if a player),
    both hands (if a spectator)."""
    state = store.replay_from_scratch(Game.objects.get(pk=game_id), version)
    hidden = list(state["deck"])
    for other in range(2):
        if other != seat:
            hidden += state["hands"][other]
    return hidden


def all_channels(viewer, game_id, version):
    yield viewer.get(f"/api/v1/games/{game_id}/")
    yield viewer.get(f"/api/v1/games/{game_id}/events/")
    for at in range(version + 1):
        yield viewer.get(f"/api/v1/games/{game_id}/state/", at=at)


def test_no_channel_shows_a_seat_the_other_hand_the_deck_or_the_seed(alice, bob, carol, duel):
    players = {0: alice, 1: bob}
    seed = Event.objects.get(game_id=duel, seq=1).data["seed"]
    while True:
        game = alice.game(duel)
        if game["status"] != "active":
            break
        version = game["version"]
        for seat, viewer in [(0, alice), (1, bob), (None, carol)]:
            for response in all_channels(viewer, duel, version):
                assert response.status_code == 200
                body = text(response)
                assert seed not in body
                # what is hidden now was hidden at every earlier version too
                for card in secrets_hidden_from(duel, seat, version):
                    assert f'"{card}"' not in body, (seat, card, response.request["PATH_INFO"])
        seat = game["active_seats"][0]
        moves = players[seat].get(f"/api/v1/games/{duel}/legal-moves/").json()
        answer = players[seat].move(duel, moves["moves"][0], moves["version"])
        for card in secrets_hidden_from(duel, seat, version + 1):
            assert f'"{card}"' not in text(answer)


def test_a_drawn_card_shows_in_the_log_for_its_drawer_only(alice, bob, carol, duel):
    players = {0: alice, 1: bob}
    for _ in range(2):
        game = alice.game(duel)
        seat = game["active_seats"][0]
        players[seat].move(duel, {"type": "play", "card": players[seat].game(duel)["state"]["hand"][0]})
    trick = [e for e in Event.objects.filter(game_id=duel).order_by("seq") if e.data.get("record", {}).get("drawn")][0]
    drawn = trick.data["record"]["drawn"]
    assert set(drawn) == {"0", "1"}
    for seat, viewer in [(0, alice), (1, bob), (None, carol)]:
        entry = [e for e in viewer.get(f"/api/v1/games/{duel}/events/").json()["events"] if e["seq"] == trick.seq][0]
        assert entry["drawn"] == ({str(seat): drawn[str(seat)]} if seat is not None else {})


def test_legal_moves_are_for_your_own_seat_only(alice, bob, carol, duel):
    mine = alice.get(f"/api/v1/games/{duel}/legal-moves/").json()
    assert {m["card"] for m in mine["moves"]} == set(alice.game(duel)["state"]["hand"])
    assert bob.get(f"/api/v1/games/{duel}/legal-moves/").json()["moves"] == []
    spectator = carol.get(f"/api/v1/games/{duel}/legal-moves/")
    assert (spectator.status_code, spectator.json()["code"]) == (403, "not_a_player")


def test_a_spectator_sees_no_hand_at_all(carol, duel):
    state = carol.game(duel)["state"]
    assert state["hand"] is None and state["hand_sizes"] == [3, 3]
