"""A staff rollback never replays a phase whose hidden information the players already saw:
a rollback across an event that revealed something (Engine.reveals) is refused."""

import pytest

from games.play import store
from games.models import Dispute, Event, Game
from tests.conftest import start_game
from tests.games.test_admin_disputes import play, staff  # noqa: F401 (fixture)


def roll_back(staff_client, dispute_id):  # noqa: F811
    return staff_client.post(
        f"/admin/games/dispute/{dispute_id}/change/", {"resolution": "replay it", "decision": "rollback"}, follow=True
    )


def messages_of(response):
    """What the reviewer is told: the messages, and the form's errors (a rollback known to be
    impossible is refused by the form, with the typed text kept)."""
    said = [str(m) for m in response.context["messages"]]
    form = response.context.get("adminform")
    if form is not None:
        said += [str(e) for errors in form.form.errors.values() for e in errors]
    return said


def test_duel_a_rollback_across_a_draw_is_refused_and_the_admin_says_only_that(staff, alice, bob, duel):  # noqa: F811
    play(alice, duel)
    first = Game.objects.get(pk=duel).version
    play(bob, duel)  # the trick is complete: each seat draws a secret card
    drawn = Event.objects.get(game_id=duel, seq=first + 1)
    assert drawn.data["record"]["drawn"]
    before = list(Event.objects.filter(game_id=duel).values_list("seq", "type"))
    opened = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": first, "reason": "misclick"}).json()
    response = roll_back(staff, opened["id"])
    shown = messages_of(response)
    assert any("revealed hidden information" in m for m in shown), shown
    assert not any("upheld by referee; the game was rolled back" in m for m in shown), shown
    assert list(Event.objects.filter(game_id=duel).values_list("seq", "type")) == before
    assert Dispute.objects.get(pk=opened["id"]).status == "open"


def test_duel_a_rollback_before_any_reveal_still_works(staff, alice, bob, duel):  # noqa: F811
    play(alice, duel)
    seq = Game.objects.get(pk=duel).version
    opened = alice.post(f"/api/v1/games/{duel}/disputes/", {"seq": seq, "reason": "misclick"}).json()
    response = roll_back(staff, opened["id"])
    assert any("upheld by referee; the game was rolled back" in m for m in messages_of(response))
    assert Event.objects.filter(game_id=duel).last().type == "GameRolledBack"


def pickpic_game(make_player):
    players = [make_player() for _ in range(3)]
    game_id = start_game(players[0], players[1:], kind="pickpic", seats=3)
    return game_id, players


def first_legal(player, game_id):
    legal = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()
    return legal["moves"][0], legal["version"]


def test_pickpic_the_ranking_start_reveals_the_stacks_so_no_rollback_crosses_it(staff, make_player):  # noqa: F811
    game_id, players = pickpic_game(make_player)
    seqs = []
    for player in players:
        move, version = first_legal(player, game_id)
        assert player.move(game_id, move, version).status_code == 201
        seqs.append(version + 1)
    game = Game.objects.get(pk=game_id)
    assert Event.objects.get(game=game, seq=seqs[-1]).data["record"].get("stacks")  # rank begins
    # Disputing the first give would replay the give phase with every stack already seen.
    opened = players[1].post(f"/api/v1/games/{game_id}/disputes/", {"seq": seqs[0], "reason": "x"}).json()
    response = roll_back(staff, opened["id"])
    assert any(f"event {seqs[-1]} revealed" in m for m in messages_of(response))
    game.refresh_from_db()
    assert game.version == seqs[-1]
    assert store.state_at(game)["phase"] == "rank"


def test_pickpic_a_give_may_be_rolled_back_while_the_gifts_are_still_secret(staff, make_player):  # noqa: F811
    game_id, players = pickpic_game(make_player)
    move, version = first_legal(players[0], game_id)
    assert players[0].move(game_id, move, version).status_code == 201
    opened = players[1].post(f"/api/v1/games/{game_id}/disputes/", {"seq": version + 1, "reason": "x"}).json()
    roll_back(staff, opened["id"])
    game = Game.objects.get(pk=game_id)
    assert Event.objects.filter(game=game).last().type == "GameRolledBack"
    assert players[0].game(game_id)["your_turn"] is True  # seat 0 gives again


def test_pickpic_no_rollback_past_an_evaluation(staff, make_player):  # noqa: F811
    """After a rollback past the evaluation the ranker would re-rank knowing the
    random card and every giver, and the next round's cards would repeat."""
    game_id, players = pickpic_game(make_player)
    for player in players * 2:  # three gives, then three ranks
        move, version = first_legal(player, game_id)
        assert player.move(game_id, move, version).status_code == 201
    evaluated = Event.objects.filter(game_id=game_id, type="RoundEvaluated").get()
    opened = players[0].post(f"/api/v1/games/{game_id}/disputes/", {"seq": evaluated.seq - 1, "reason": "x"}).json()
    response = roll_back(staff, opened["id"])
    assert any("revealed hidden information" in m for m in messages_of(response))
    assert Event.objects.filter(game_id=game_id).last().seq == evaluated.seq


@pytest.mark.parametrize(
    "kind, record, reveals",
    [
        ("pickpic", {"round": 1}, False),
        ("pickpic", {"round": 1, "stacks": [[1, 2]]}, True),
        ("provence", {"round": 2}, False),
        ("provence", {"round": 2, "walks": []}, True),
        ("photograph", {"stage": "turn", "seat": 0, "cards": []}, True),  # cautious default
        ("photoshoot", {"action": 3, "seat": 0, "kind": "swap", "cells": [0, 1]}, False),
        ("photoshoot", {"seat": 1, "round": 2, "hourglass": None}, False),
    ],
)
def test_which_log_entries_count_as_reveals(kind, record, reveals):
    from games.play.kinds import get_engine

    types = {"photoshoot": "CharactersSwapped" if "cells" in record else "PlayerReady"}
    event = {"seq": 9, "type": types.get(kind, "X"), "actor": 0, "data": {"move": {}, "record": record}}
    assert get_engine(kind).reveals(event) is reveals


@pytest.mark.parametrize(
    "kind_of_event", ["PhotoCalled", "ActionChallenged", "ErrorCaught", "HourglassRanOut", "SomethingNew"]
)
def test_photoshoot_a_new_objective_a_verdict_or_drawn_effects_are_reveals(kind_of_event):
    from games.play.kinds import get_engine

    event = {"seq": 9, "type": kind_of_event, "actor": 0, "data": {"move": {}, "record": {"action": 1}}}
    assert get_engine("photoshoot").reveals(event) is True


def test_photoshoot_a_swap_rolls_back_but_not_across_a_photo(staff, make_player):  # noqa: F811
    players = [make_player() for _ in range(4)]
    game_id = start_game(players[0], players[1:], kind="photoshoot")
    for seat in range(4):
        players[seat].move(game_id, {"type": "ready"})

    def turn():
        return players[0].game(game_id)["state"]["turn"]

    assert players[turn()].move(game_id, {"type": "swap", "cells": [0, 1]}).status_code == 201
    swapped = Game.objects.get(pk=game_id).version
    opened = players[1].post(f"/api/v1/games/{game_id}/disputes/", {"seq": swapped, "reason": "x"}).json()
    assert any("upheld by referee; the game was rolled back" in m for m in messages_of(roll_back(staff, opened["id"])))
    assert Event.objects.filter(game_id=game_id).last().type == "GameRolledBack"
    assert players[turn()].move(game_id, {"type": "swap", "cells": [0, 1]}).status_code == 201
    swapped = Game.objects.get(pk=game_id).version
    assert players[turn()].move(game_id, {"type": "photo"}).status_code == 201  # reveals the next objective
    opened = players[3].post(f"/api/v1/games/{game_id}/disputes/", {"seq": swapped, "reason": "x"}).json()
    assert any("revealed hidden information" in m for m in messages_of(roll_back(staff, opened["id"])))
    assert Event.objects.filter(game_id=game_id).last().type == "PhotoCalled"
