"""Secrets, phase by phase, on hand-built states, through `view` and `describe`.

Issue: "Until evaluation, nobody learns who gave which card, and nobody sees what another seat
gave, received or ranked. A receiver sees their received cards only in the ranking phase,
shuffled together with the random card and without givers. After evaluation, everything of that
round is public." Rulebook: "Each player draws a secret hand"; "Players may not yet look at the
cards they just received"; "make sure never to show your cards".
"""
from games.engines.pickpic import ENGINE
from tests.engines.pickpic.helpers import (assert_event_secrets_kept, assert_secrets_kept,
                                           cards_in, event_of, give_state, play, rank_all,
                                           rank_state, standard_gifts, viewers)

ORDERS = [[30, 40, 50, 100], [21, 41, 51, 101], [22, 32, 52, 102], [23, 33, 43, 103]]


def test_view_shape_and_public_fields():
    shown = ENGINE.view(give_state(4), None)
    assert shown["phase"] == "give" and shown["active"] == [0, 1, 2, 3] and shown["players"] == 4
    assert shown["table"] == [1, 2, 3, 4], "Reveal a card: the photos are visible to all"
    assert shown["deck_size"] == 120 - 4 - 12 and "deck" not in shown
    assert shown["done"] == [False] * 4 and shown["last_round"] is None
    assert "you" not in shown and shown["result"] is None


def test_give_phase_each_seat_sees_its_own_hand_only():
    """Give cards: "Each player draws a secret hand of cards"."""
    state = give_state(4)
    for seat in range(4):
        you = ENGINE.view(state, seat)["you"]
        assert you == {"seat": seat, "hand": state["hands"][seat]}
    assert_secrets_kept(state)


def test_after_giving_the_giver_sees_its_gifts_and_the_receivers_see_nothing():
    """Give cards: "Players may not yet look at the cards they just received"."""
    state = give_state(4)
    move = {"type": "give", "gifts": standard_gifts(4)[0]}
    step = play(state, 0, move)
    after = step.state
    assert ENGINE.view(after, 0)["you"] == {"seat": 0, "gifts": standard_gifts(4)[0]}
    assert ENGINE.view(after, 1)["you"] == {"seat": 1, "hand": after["hands"][1]}
    assert ENGINE.view(after, None)["done"] == [True, False, False, False]
    assert 21 not in cards_in(ENGINE.view(after, 1))
    event = event_of(step, 0, move)
    assert ENGINE.describe(event, 0)["gifts"] == standard_gifts(4)[0]
    for viewer in (None, 1, 2, 3):
        assert ENGINE.describe(event, viewer) == {"seq": 1, "type": "CardsGiven", "actor": 0,
                                                  "round": 1}
    assert_secrets_kept(after)
    assert_event_secrets_kept(event, after)


def test_rank_phase_the_receiver_sees_its_stack_shuffled_without_givers():
    """Rank cards: "draw one random card from the deck and shuffle it into your stack of cards
    without revealing it. Now look at the cards in your stack"."""
    state = give_state(4)
    for seat in range(4):
        move = {"type": "give", "gifts": standard_gifts(4)[seat]}
        step = play(state, seat, move)
        state = step.state
    event = event_of(step, 3, move)
    for seat in range(4):
        you = ENGINE.view(state, seat)["you"]
        assert you == {"seat": seat, "gifts": standard_gifts(4)[seat], "stack": state["stacks"][seat]}
        line = ENGINE.describe(event, seat)
        assert line["stack"] == state["stacks"][seat] and line["ranking_starts"] is True
    assert "stack" not in ENGINE.describe(event, None)
    assert "you" not in ENGINE.view(state, None)
    assert_secrets_kept(state)
    assert_event_secrets_kept(event, state)


def test_rankings_stay_secret_until_everybody_has_ranked():
    """Rank cards: "All players do this simultaneously"; the ranking is revealed at evaluation."""
    state = rank_state(4)
    move = {"type": "rank", "order": ORDERS[0]}
    step = play(state, 0, move)
    assert ENGINE.view(step.state, 0)["you"]["ranking"] == {"order": ORDERS[0], "comments": {}}
    for viewer in (None, 1, 2, 3):
        assert "ranking" not in ENGINE.view(step.state, viewer).get("you", {})
        assert ENGINE.describe(event_of(step, 0, move), viewer) == {
            "seq": 1, "type": "CardsRanked", "actor": 0, "round": 1}
    assert ENGINE.describe(event_of(step, 0, move), 0)["order"] == ORDERS[0]
    assert_secrets_kept(step.state)


def test_variant_comments_stay_secret_until_evaluation():
    state = rank_state(3, options={"comments": True})
    move = {"type": "rank", "order": state["stacks"][0], "comments": {"30": "secret thought"}}
    step = play(state, 0, move)
    assert ENGINE.describe(event_of(step, 0, move), 0)["comments"] == {"30": "secret thought"}
    for viewer in (None, 1, 2):
        assert "secret thought" not in repr(ENGINE.describe(event_of(step, 0, move), viewer))
        assert "secret thought" not in repr(ENGINE.view(step.state, viewer))


def test_after_evaluation_everything_of_the_round_is_public():
    """Evaluate scores: the giver "reveals themselves"; the whole round is public afterwards -
    in the evaluating event, for every viewer, and in every view's `last_round`."""
    state = rank_state(4)
    round_cards = set(state["table"]) | {c for s in state["stacks"] for c in s}
    for seat in range(3):
        state = play(state, seat, {"type": "rank", "order": ORDERS[seat]}).state
    move = {"type": "rank", "order": ORDERS[3]}
    step = play(state, 3, move)
    event = event_of(step, 3, move)
    lines = {v: ENGINE.describe(event, v) for v in viewers(step.state)}
    evaluation = lines[None]["evaluation"]
    assert evaluation["gifts"] == standard_gifts(4) and evaluation["random"] == [100, 101, 102, 103]
    assert [[e["card"] for e in s["order"]] for s in evaluation["stacks"]] == ORDERS
    for viewer, line in lines.items():
        assert line["evaluation"] == evaluation
        assert ENGINE.view(step.state, viewer)["last_round"] == evaluation
        assert round_cards <= cards_in(line)
    assert_secrets_kept(step.state)
    assert_event_secrets_kept(event, step.state)


def test_the_game_end_view_shows_the_result_to_everybody():
    state, step = rank_all(rank_state(4, scores=[0, 19, 0, 0]), ORDERS)
    for viewer in viewers(state):
        shown = ENGINE.view(state, viewer)
        assert shown["phase"] == "over" and shown["result"] == ENGINE.result(state)
        assert "you" not in shown and shown["active"] == []


def test_hand_built_states_keep_every_secret_in_each_phase():
    for players in (3, 4, 5):
        state = give_state(players)
        assert_secrets_kept(state)
        for seat in range(players):
            state = play(state, seat, {"type": "give", "gifts": standard_gifts(players)[seat]}).state
            assert_secrets_kept(state)
        for seat in range(players):
            state = play(state, seat, ENGINE.legal_moves(state, seat)[seat]).state
            assert_secrets_kept(state)


def test_the_seed_never_shows():
    state = give_state(4, seed="very-secret-seed")
    for viewer in viewers(state):
        assert "very-secret-seed" not in repr(ENGINE.view(state, viewer))
        assert "_seed" not in repr(ENGINE.view(state, viewer))
