"""Disputes do not block play and are limited per player and game (docs/operations.md)."""

import pytest

from games.play import disputes
from games.models import Dispute, Event, Game, Notification
from tests.games.test_admin_disputes import play, staff  # noqa: F401 (fixture)


@pytest.fixture
def no_cooldown(settings):
    settings.DISPUTE_COOLDOWN_SECONDS = 0
    settings.DISPUTE_MAX_OPEN = 3


def dispute(player, game_id, seq, reason="looks wrong"):
    return player.post(f"/api/v1/games/{game_id}/disputes/", {"seq": seq, "reason": reason})


def test_a_dispute_does_not_move_the_version_so_the_opponent_moves_on(alice, bob, duel):
    play(alice, duel)
    version = Game.objects.get(pk=duel).version
    assert dispute(alice, duel, version).status_code == 201
    assert Game.objects.get(pk=duel).version == version
    card = bob.game(duel)["state"]["hand"][0]
    moved = bob.move(duel, {"type": "play", "card": card}, version)  # decided before the dispute
    assert moved.status_code == 201, moved.content


def test_many_disputes_from_one_player_cost_the_opponent_no_409(alice, bob, duel, no_cooldown):
    """One player files disputes in a row while the other plays."""
    players = {0: alice, 1: bob}
    for _ in range(4):
        game = alice.game(duel)
        if game["status"] != "active":
            break
        version = game["version"]
        dispute(alice, duel, version, f"at {version}")
        mover = players[game["active_seats"][0]]
        card = mover.game(duel)["state"]["hand"][0]
        assert mover.move(duel, {"type": "play", "card": card}, version).status_code == 201


def test_a_player_may_hold_only_a_few_open_disputes_per_game(alice, bob, duel, no_cooldown):
    for seq in (1, 2, 3):
        assert dispute(alice, duel, seq).status_code == 201
    before = (Dispute.objects.count(), Event.objects.count(), Notification.objects.count())
    refused = dispute(alice, duel, 4)
    assert refused.status_code == 429
    assert refused.json()["code"] == "throttled"
    assert int(refused["Retry-After"]) >= 0
    assert (Dispute.objects.count(), Event.objects.count(), Notification.objects.count()) == before
    assert dispute(bob, duel, 4).status_code == 201  # the limit is per player


def test_a_decided_dispute_frees_its_place(alice, duel, no_cooldown, staff):  # noqa: F811
    ids = [dispute(alice, duel, seq).json()["id"] for seq in (1, 2, 3)]
    disputes.resolve_dispute(ids[0], staff.user, uphold=False, resolution="no")
    assert dispute(alice, duel, 4).status_code == 201


def test_the_limit_is_per_game(alice, bob, make_player, duel, no_cooldown):
    from tests.conftest import start_game

    for seq in (1, 2, 3):
        dispute(alice, duel, seq)
    other = start_game(alice, [make_player()])
    assert dispute(alice, other, 1).status_code == 201


def test_a_cooldown_separates_two_disputes_of_one_player(alice, bob, duel, settings):
    settings.DISPUTE_COOLDOWN_SECONDS = 600
    assert dispute(alice, duel, 3).status_code == 201
    refused = dispute(alice, duel, 4)
    assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
    assert 590 <= int(refused["Retry-After"]) <= 600
    assert Dispute.objects.count() == 1
    assert dispute(bob, duel, 4).status_code == 201


def test_the_same_event_cannot_be_disputed_twice_while_open(alice, duel, no_cooldown):
    assert dispute(alice, duel, 4).status_code == 201
    again = dispute(alice, duel, 4)
    assert (again.status_code, again.json()["code"]) == (400, "invalid")
    assert Dispute.objects.count() == 1


def test_opening_notifies_the_other_players_once_and_the_decision_is_logged_whole(alice, bob, duel, staff):  # noqa: F811
    opened = dispute(alice, duel, 4, "the deal looks off").json()
    assert Notification.objects.filter(user=bob.user, type="dispute").count() == 1
    assert Notification.objects.filter(user=alice.user, type="dispute").count() == 0
    disputes.resolve_dispute(opened["id"], staff.user, uphold=False, resolution="dealt fairly")
    log = alice.get(f"/api/v1/games/{duel}/events/").json()["events"]
    decided = [e for e in log if e["type"] == "DisputeResolved"]
    assert len(decided) == 1
    data = decided[0]["data"]
    assert {k: data[k] for k in ("dispute", "seq", "reason", "raised_by", "status", "resolution")} == {
        "dispute": opened["id"],
        "seq": 4,
        "reason": "the deal looks off",
        "raised_by": 0,
        "status": "dismissed",
        "resolution": "dealt fairly",
    }
    assert data["opened_at"]


@pytest.mark.django_db(transaction=True)
def test_racing_disputes_cannot_exceed_the_limit(make_player, settings):
    """Eight disputes from one player at once: the seat lock lets exactly the limit through."""
    import threading

    from django.db import connections

    from tests.conftest import start_game

    settings.DISPUTE_COOLDOWN_SECONDS, settings.DISPUTE_MAX_OPEN = 0, 3
    alice, bob = make_player(), make_player()
    game_id = start_game(alice, [bob])
    barrier, statuses = threading.Barrier(8), []

    def race(seq):
        try:
            barrier.wait(10)
            statuses.append(dispute(alice, game_id, seq, f"race {seq}").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=race, args=(1 + i % 4,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(statuses).count(201) == 3 and len(statuses) == 8
    assert set(statuses) <= {201, 400, 429}
    assert Dispute.objects.filter(game_id=game_id, status="open").count() == 3
