"""Secrets, phase by phase, on hand-built states, through `view` and `describe`.

Issue: "Until evaluation, nobody learns who gave which card, and nobody sees what another seat
gave, received or ranked. A receiver sees their received cards only in the ranking phase,
shuffled together with the random card and without givers. After evaluation, everything of that
round is public." Rulebook: "Each player draws a secret hand"; "Players may not yet look at the
cards they just received"; "make sure never to show your cards".
"""

from games.engines.pickpic import ENGINE
from tests.engines.pickpic.helpers import (
    assert_event_secrets_kept,
    assert_secrets_kept,
    cards_in,
    event_of,
    give_state,
    play,
    rank_all,
    rank_state,
    standard_gifts,
    viewers,
    gift_card,
)

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
        assert ENGINE.describe(event, viewer) == {"seq": 1, "type": "CardsGiven", "actor": 0, "round": 1}
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
            "seq": 1,
            "type": "CardsRanked",
            "actor": 0,
            "round": 1,
        }
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


def test_after_evaluation_the_rankings_random_cards_and_claimed_givers_are_public():
    """Evaluate scores: the giver "reveals themselves"; the rankings (placed "face up in order")
    and the random cards are public afterwards - in the evaluating event, for every viewer, and in
    every view's `last_round`."""
    state = rank_state(4)
    round_cards = set(state["table"]) | {c for s in state["stacks"] for c in s}
    for seat in range(3):
        state = play(state, seat, {"type": "rank", "order": ORDERS[seat]}).state
    move = {"type": "rank", "order": ORDERS[3]}
    step = play(state, 3, move)
    event = event_of(step, 3, move)
    lines = {v: ENGINE.describe(event, v) for v in viewers(step.state)}
    evaluation = lines[None]["evaluation"]
    assert evaluation["random"] == [100, 101, 102, 103]
    assert [[e["card"] for e in s["order"]] for s in evaluation["stacks"]] == ORDERS
    # Every random card is last here, so every gift is claimed by its giver.
    for receiver, stack in enumerate(evaluation["stacks"]):
        for entry in stack["order"][:-1]:
            assert entry["claimed"] and entry["card"] == gift_card(entry["giver"], receiver)
    for viewer, line in lines.items():
        assert line["evaluation"] == evaluation
        assert ENGINE.view(step.state, viewer)["last_round"] == evaluation
        assert round_cards <= cards_in(line)
    assert_secrets_kept(step.state)
    assert_event_secrets_kept(event, step.state)


# Seat 0's stack is 30 (from seat 1), 40 (seat 2), 50 (seat 3) and its random card 100.
BELOW = [[30, 100, 40, 50], *ORDERS[1:]]


def test_nobody_claims_a_card_ranked_below_the_random_card_so_its_giver_stays_secret():
    """Evaluate scores: "when you reach the card that was given at random, stop (you will know,
    because nobody claims it)". Cards below it are never claimed: the table learns the ranking
    and the random card, not who gave 40 and 50 - not even the ranker."""
    state, step = rank_all(rank_state(4), BELOW)
    event = event_of(step, 3, {"type": "rank", "order": BELOW[3]})
    for viewer in viewers(state):
        for shown in (ENGINE.describe(event, viewer)["evaluation"], ENGINE.view(state, viewer)["last_round"]):
            assert "gifts" not in shown
            stack = shown["stacks"][0]
            assert stack["random_position"] == 1
            assert stack["order"][0] == {
                "card": 30,
                "giver": 1,
                "random": False,
                "claimed": True,
                "giver_points": 2,
                "ranker_points": 1,
            }
            assert stack["order"][1]["card"] == 100 and stack["order"][1]["random"]
            assert stack["order"][2:] == [
                {"card": c, "giver": None, "random": False, "claimed": False, "giver_points": 0, "ranker_points": 0}
                for c in (40, 50)
            ]
    # The state keeps the whole round (for the audit); views and the log do not show it.
    assert state["last_round"]["gifts"][2]["0"] == [40]


def test_the_giver_of_an_unclaimed_card_cannot_be_told_from_the_log():
    """Swapping who gave 40 and 50 to seat 0 (both unclaimed) changes nothing seats 0 and 1 see
    of the evaluation: only the givers themselves know."""
    swapped = standard_gifts(4)
    swapped[2]["0"], swapped[3]["0"] = [50], [40]
    _, step = rank_all(rank_state(4), BELOW)
    _, other = rank_all(rank_state(4, gifts=swapped), BELOW)
    for viewer in (None, 0, 1):
        line = ENGINE.describe(event_of(step, 3, {"type": "rank", "order": BELOW[3]}), viewer)
        alt = ENGINE.describe(event_of(other, 3, {"type": "rank", "order": BELOW[3]}), viewer)
        assert line == alt, viewer
        assert ENGINE.view(step.state, viewer) == ENGINE.view(other.state, viewer), viewer


def test_variant_cards_below_the_random_card_stay_face_down_but_for_their_ranker():
    """Variants: "place the ranked cards face down in order. And when evaluating, reveal them one
    by one giving short comments" - and stop at the random card: what lies below it, with its
    comments, is never turned over. Its ranker knows it; nobody else sees it."""
    state = rank_state(4, options={"comments": True})
    comments = {0: {"30": "same light", "40": "below the random one"}}
    state, step = rank_all(state, BELOW, comments)
    event = event_of(step, 3, {"type": "rank", "order": BELOW[3]})
    for viewer in (None, 1, 2, 3):
        line = ENGINE.describe(event, viewer)
        stack = line["evaluation"]["stacks"][0]
        assert stack["order"][0]["comment"] == "same light"
        assert stack["order"][2:] == [{"face_down": True}] * 2
        assert "below the random one" not in repr(line)
        assert "below the random one" not in repr(ENGINE.view(state, viewer))
        seen = {None: set(), 1: set(), 2: {40}, 3: {50}}[viewer]  # a giver knows its own card
        assert {40, 50} & set(line["discarded"]) == seen
        assert line["discarded_count"] == 4 + 16
    own = ENGINE.view(state, 0)["last_round"]["stacks"][0]["order"]
    assert [e["card"] for e in own] == BELOW[0] and own[2]["comment"] == "below the random one"
    assert own[2]["giver"] is None, "the ranker does not know who gave an unclaimed card either"


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
