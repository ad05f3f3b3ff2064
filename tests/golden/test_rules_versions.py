"""Rules versions: a game records the rules it was created under and is played and replayed by
them forever; a version this server no longer has is refused, never replayed by other rules."""

from __future__ import annotations

from datetime import datetime

import pytest

from games import engines
from games.play import moves, store
from games.engines.base import UnknownRulesVersion
from games.play.kinds import RulesVersionUnavailable, engine_of, get_engine
from games.models import Event, Game, Seat
from tests.conftest import start_game
from tests.golden.record import state_hash
from tests.golden.test_golden import HERE, load, stored_game

OLD_DEAL = HERE / "pickpic" / "v1-3p-long.json"


def test_each_kind_has_a_current_rules_version_it_keeps():
    assert get_engine("pickpic").rules_version == 2 and get_engine("pickpic").rules_versions == (1, 2)
    assert get_engine("photograph").rules_version == 2
    assert get_engine("provence").rules_version == 2
    for kind in engines.kinds():
        engine = get_engine(kind)
        assert engine.rules_version in engine.rules_versions
        for version in engine.rules_versions:
            assert get_engine(kind, version).rules_version == version
        assert get_engine(kind, engine.rules_version) is engine


@pytest.mark.parametrize("version", [0, 3, 99, "2", 2.0, True])
def test_a_version_the_server_does_not_keep_is_refused(version):
    with pytest.raises(UnknownRulesVersion):
        engines.get("pickpic", version)
    with pytest.raises(RulesVersionUnavailable) as refused:
        get_engine("pickpic", version)
    assert refused.value.code == "rules_version_unavailable" and refused.value.status == 409


def test_kinds_list_each_rules_version(anonymous):
    kinds = {k["kind"]: k for k in anonymous.get("/api/v1/kinds/").json()}
    for kind in engines.kinds():
        assert kinds[kind]["rules_version"] == get_engine(kind).rules_version
    assert anonymous.get("/api/v1/kinds/pickpic/").json()["rules_version"] == 2


def test_a_new_game_records_its_rules_version_in_its_first_event(alice, bob, carol):
    game_id = start_game(alice, [bob, carol], kind="pickpic")
    assert alice.game(game_id)["rules_version"] == 2
    game = Game.objects.get(pk=game_id)
    created = Event.objects.get(game=game, seq=1)
    assert created.type == store.GAME_CREATED and created.data["rules_version"] == 2
    assert game.rules_version == 2 and engine_of(game).rules_version == 2


def test_a_game_whose_rules_version_is_gone_is_refused_not_replayed_by_other_rules(alice, bob, carol):
    game_id = start_game(alice, [bob, carol], kind="pickpic")
    hand = alice.game(game_id)["state"]["you"]["hand"]
    Game.objects.filter(pk=game_id).update(rules_version=99)  # a projection column, not history
    version = Game.objects.get(pk=game_id).version
    for response in (
        alice.get(f"/api/v1/games/{game_id}/"),
        alice.get(f"/api/v1/games/{game_id}/legal-moves/"),
        alice.move(game_id, {"type": "give", "gifts": {"1": hand[:2], "2": hand[2:]}}, expected_version=version),
    ):
        assert response.status_code == 409, response.content
        assert response.json()["code"] == "rules_version_unavailable"
        assert "99" in response.json()["detail"]
    assert Game.objects.get(pk=game_id).version == version, "nothing written"


def _replayed(recorded: dict, upto: int):
    engine = get_engine(recorded["kind"], recorded["rules_version"])
    started = next(e for e in recorded["events"] if e["type"] == store.GAME_STARTED)
    state = engine.setup(recorded["players"], started["data"]["options"], recorded["seed"])
    for event in recorded["events"][:upto]:
        if event["type"] not in store.SERVER_TYPES:
            state = engine.apply(
                state, event["actor"], event["data"]["move"], datetime.fromisoformat(event["created_at"])
            )
    return state


def test_the_old_deal_game_really_refilled_in_the_middle_of_round_7():
    """The golden game below is the defect itself: at 3 players round 7 begins with 12 cards in
    the deck and refills from the discards halfway through the deal (version 1)."""
    recorded = load(OLD_DEAL)
    assert recorded["rules_version"] == 1 and recorded["players"] == 3
    evaluated = [e for e in recorded["events"] if e["type"] == "RoundEvaluated"]
    sixth = evaluated[5]["data"]["record"]
    assert sixth["round"] == 6 and sixth["next"]["reshuffled"] == 1
    assert sixth["next"]["deck_size"] == 108 - 3, "12 cards left, 15 dealt: 3 from the refill"
    # The current rules deal that game differently: replaying it by them would be another game.
    old = _replayed(recorded, evaluated[5]["seq"])
    new = _replayed({**recorded, "rules_version": 2}, evaluated[5]["seq"])
    assert old["round"] == new["round"] == 7 and old["hands"] != new["hands"]


@pytest.mark.django_db
def test_a_game_created_under_the_old_pickpic_deal_goes_on_exactly_as_it_was_played(django_user_model):
    """A version-1 game running when version 2 was deployed: its next move, judged now, deals
    round 7 the old way, and the game replays to the recorded hash."""
    recorded = load(OLD_DEAL)
    evaluated = [e for e in recorded["events"] if e["type"] == "RoundEvaluated"]
    cut = evaluated[5]["seq"]  # the move that ends round 6 and deals round 7
    users = [django_user_model.objects.create_user(f"old{i}", f"o{i}@example.org", "x" * 12) for i in range(3)]
    running = {**recorded, "events": recorded["events"][: cut - 1]}
    game = stored_game(running, users[0])
    for number, user in enumerate(users):
        Seat.objects.create(game=game, user=user, number=number)
    state = store.state_at(game)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.ACTIVE, active_seats=sorted(engine_of(game).active_players(state))
    )
    last = recorded["events"][cut - 1]
    moves.submit_move(game.pk, users[last["actor"]], last["data"]["move"], cut - 1)
    game.refresh_from_db()
    new = Event.objects.get(game=game, seq=cut)
    assert (new.type, new.data["record"]) == (last["type"], last["data"]["record"])
    assert state_hash(store.replay_from_scratch(game)) == state_hash(_replayed(recorded, cut))
    assert game.rules_version == 1
