"""Hands and pending choices are private; landscapes, tokens and markers are public."""

import copy

from games.engines.provence import ENGINE
from tests.engines.contract import as_json
from tests.engines.provence.test_engine import first_moves, play

HIDDEN = "hidden"


def scrub_state(state, viewer):
    """The state with everything `viewer` may not know replaced by placeholders."""
    out = copy.deepcopy(state)
    out["deck"] = [HIDDEN] * len(state["deck"])
    for seat in range(state["players"]):
        if seat == viewer:
            continue
        out["hands"][seat] = [HIDDEN] * len(state["hands"][seat])
        if state["pending"][seat] is not None:
            out["pending"][seat] = {HIDDEN: True}
        if state["passing"][seat] is not None:
            out["passing"][seat] = HIDDEN
    return out


def scrub_event(event, viewer):
    out = copy.deepcopy(event)
    data = out["data"]
    if event["type"] in ("CardChosen", "WalkChosen") and event["actor"] != viewer:
        data["move"] = {"type": data["move"]["type"], HIDDEN: True}
    record = data["record"]
    for key in ("passed", "hands"):
        if key in record:
            record[key] = [v if s == viewer else HIDDEN for s, v in enumerate(record[key])]
    return out


def assert_nothing_leaks(state, event=None):
    """A viewer's view and log line do not change whatever the others' secrets are."""
    for viewer in [None, *range(state["players"])]:
        assert ENGINE.view(state, viewer) == ENGINE.view(scrub_state(state, viewer), viewer)
        if event is not None:
            assert ENGINE.describe(event, viewer) == ENGINE.describe(scrub_event(event, viewer), viewer)


def event_of(step, seat, move, seq=1):
    return {"seq": seq, "type": step.event_type, "actor": seat, "data": {"move": move, "record": step.record}}


def test_a_hand_is_seen_by_its_owner_only():
    state = ENGINE.setup(3, {}, "hands")
    for viewer in range(3):
        assert [c["id"] for c in ENGINE.view(state, viewer)["you"]["hand"]] == state["hands"][viewer]
    assert "you" not in ENGINE.view(state, None)
    for card in state["hands"][0]:
        assert f'"{card}"' not in as_json(ENGINE.view(state, 1)) + as_json(ENGINE.view(state, None))
    assert_nothing_leaks(state)


def test_a_pending_scene_choice_is_hidden_until_the_phase_resolves():
    state = ENGINE.setup(3, {}, "pending")
    move = ENGINE.legal_moves(state, 0)[0]
    step = play(state, 0, move)
    event = event_of(step, 0, move)
    assert ENGINE.view(step.state, 0)["you"]["pending"]["card"] == move["card"]
    assert ENGINE.describe(event, 0)["move"] == move
    for viewer in (None, 1, 2):
        assert "move" not in ENGINE.describe(event, viewer)
        assert ENGINE.view(step.state, viewer)["submitted"] == [True, False, False]
    assert_nothing_leaks(step.state, event)


def test_placements_become_public_when_the_scene_phase_resolves_but_passed_cards_do_not():
    state = ENGINE.setup(2, {}, "reveal")
    state = play(state, 0, ENGINE.legal_moves(state, 0)[0]).state
    move = ENGINE.legal_moves(state, 1)[0]
    step = play(state, 1, move)
    event = event_of(step, 1, move, 2)
    spectator = ENGINE.describe(event, None)
    assert [p["card"] for p in spectator["placements"]] == [
        land["cards"][-1]["card"] for land in step.state["landscapes"]
    ]
    assert "you_passed" not in spectator
    assert ENGINE.describe(event, 0)["you_passed"] == step.state["passing"][0]
    assert f'"{step.state["passing"][0]}"' not in as_json(ENGINE.describe(event, 1))
    assert_nothing_leaks(step.state, event)


def test_a_pending_walk_is_hidden_and_refilled_hands_go_to_their_owners_only():
    state = first_moves(ENGINE.setup(2, {}, "walks")).state
    land = state["landscapes"][0]
    move = {"type": "walk", "photographer": land["drone"], "drone": land["photographer"]}
    step = play(state, 0, move)
    assert_nothing_leaks(step.state, event_of(step, 0, move))
    assert ENGINE.view(step.state, 1)["landscapes"][0]["photographer"] == land["photographer"]
    last = play(step.state, 1, {"type": "walk"})
    event = event_of(last, 1, {"type": "walk"}, 2)
    assert ENGINE.describe(event, 0)["your_hand"] == last.state["hands"][0]
    assert "your_hand" not in ENGINE.describe(event, None)
    assert ENGINE.view(last.state, 1)["landscapes"][0]["photographer"] == land["drone"]
    assert_nothing_leaks(last.state, event)


def test_the_view_shows_landscapes_tokens_markers_photos_and_goals_to_everyone():
    state = ENGINE.setup(2, {}, "public")
    view = ENGINE.view(state, None)
    assert view["phase"] == "scene" and view["active"] == [0, 1] and view["players"] == 2
    assert len(view["landscapes"]) == 2 and len(view["landscapes"][0]["visible"]) == 6
    assert view["landscapes"][1]["drone"] == state["landscapes"][1]["drone"]
    assert len(view["photos"]) == 7 and len(view["goals"]) == 2
    assert view["markers"] == [7, 7] and view["deck"] == 16 and view["hand_sizes"] == [2, 2]
