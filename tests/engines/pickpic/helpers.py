"""Shared test tools: hand-built states, card accounting and the secrecy checks."""

from __future__ import annotations

import copy
from datetime import datetime, timezone

from games.engines.pickpic import ENGINE
from games.engines.pickpic.cards import CARD_IDS

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
ALL_CARDS = sorted(CARD_IDS)


def play(state, seat, move):
    return ENGINE.play(state, seat, move, T0)


def event_of(step, seat, move, seq=1):
    return {"seq": seq, "type": step.event_type, "actor": seat, "data": {"move": move, "record": step.record}}


# ---------------------------------------------------------------------------------------------
# Hand-built rounds. Card numbers are chosen to be readable: the photo in front of seat r is
# 1 + r; the card seat g gives seat r is 20 + 10*g + r (3 players: also 70 + 10*g + r); the
# random card of seat r is 100 + r.
# ---------------------------------------------------------------------------------------------
def gift_card(giver, receiver, second=False):
    return (70 if second else 20) + 10 * giver + receiver


def standard_gifts(players):
    gifts = []
    for g in range(players):
        gifts.append(
            {
                str(r): ([gift_card(g, r), gift_card(g, r, True)] if players == 3 else [gift_card(g, r)])
                for r in range(players)
                if r != g
            }
        )
    return gifts


def random_card(seat):
    return 100 + seat


def give_state(players, hands=None, options=None, seed="hand-built"):
    """Round 1, give phase, with each seat holding the cards it will give in the standard round."""
    state = ENGINE.setup(players, options or {}, seed)
    table = [1 + r for r in range(players)]
    if hands is None:
        hands = [sorted(c for cards in g.values() for c in cards) for g in standard_gifts(players)]
    used = set(table) | {c for h in hands for c in h}
    state.update(
        table=table,
        hands=[list(h) for h in hands],
        gifts=[None] * players,
        random=[None] * players,
        stacks=[None] * players,
        rankings=[None] * players,
        phase="give",
        deck=[c for c in ALL_CARDS if c not in used],
        discard=[],
    )
    return state


def rank_state(players, gifts=None, random_cards=None, scores=None, options=None, seed="hand-built"):
    """Round 1, rank phase, every seat given the standard round's cards (or `gifts`)."""
    state = ENGINE.setup(players, options or {}, seed)
    gifts = gifts or standard_gifts(players)
    random_cards = random_cards or [random_card(r) for r in range(players)]
    table = [1 + r for r in range(players)]
    stacks = []
    for r in range(players):
        received = [c for g in gifts if g for c in g.get(str(r), [])]
        stacks.append(sorted(received + [random_cards[r]]))
    used = set(table) | {c for s in stacks for c in s}
    state.update(
        table=table,
        hands=[[] for _ in range(players)],
        gifts=copy.deepcopy(gifts),
        random=list(random_cards),
        stacks=stacks,
        rankings=[None] * players,
        phase="rank",
        deck=[c for c in ALL_CARDS if c not in used],
        discard=[],
    )
    if scores is not None:
        state["scores"] = list(scores)
    return state


def rank_all(state, orders, comments=None):
    """Every seat ranks (`orders[seat]`); returns (final state, the evaluation step)."""
    step = None
    for seat, order in enumerate(orders):
        move = {"type": "rank", "order": order}
        if comments and comments.get(seat):
            move["comments"] = comments[seat]
        step = play(state, seat, move)
        state = step.state
    return state, step


# ---------------------------------------------------------------------------------------------
# Card accounting: every card is in exactly one place.
# ---------------------------------------------------------------------------------------------
def card_places(state):
    """Every card of the state with the place it is in (a card in two places is listed twice)."""
    places = [("deck", c) for c in state["deck"]] + [("discard", c) for c in state["discard"]]
    places += [("table", c) for c in state["table"]]
    phase = state["phase"]
    if phase == "give":
        places += [(f"hand{s}", c) for s, h in enumerate(state["hands"]) for c in h]
        places += [
            (f"gift{g}", c)
            for g, given in enumerate(state["gifts"])
            if given
            for cards in given.values()
            for c in cards
        ]
    elif phase == "rank":
        places += [(f"stack{s}", c) for s, st in enumerate(state["stacks"]) for c in st]
    return places


def assert_cards_accounted(state):
    places = card_places(state)
    assert sorted(c for _, c in places) == ALL_CARDS, "a card was duplicated or lost"
    if state["phase"] == "rank":
        for r, stack in enumerate(state["stacks"]):
            received = [c for g in state["gifts"] for c in g.get(str(r), [])]
            assert sorted(stack) == sorted(received + [state["random"][r]])
    if state["phase"] == "over":
        assert state["table"] == [] and all(h == [] for h in state["hands"])


# ---------------------------------------------------------------------------------------------
# Secrecy: every number in a view or a log line is either a known non-card field or a card, and
# the cards must all be ones the viewer may know.
# ---------------------------------------------------------------------------------------------
CARD_KEYS = {"table", "hand", "hands", "stack", "stacks", "order", "card", "random", "gifts", "discarded", "cards"}
NUMBER_KEYS = {
    "seq",
    "actor",
    "players",
    "round",
    "target",
    "cards_per_gift",
    "scores",
    "deck_size",
    "discard_size",
    "active",
    "seat",
    "giver",
    "giver_points",
    "ranker_points",
    "random_position",
    "random_last_bonus",
    "points",
    "as_giver",
    "top_card",
    "as_ranker",
    "random_last",
    "total",
    "places",
    "winners",
    "reshuffled",
    "discarded_count",
}


def cards_in(value, key=None):
    found = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if k.isdigit():  # seat-keyed (gifts) or card-keyed (comments): keep the context
                if key == "comments":
                    found.add(int(k))
                found |= cards_in(v, key)
            else:
                found |= cards_in(v, k)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v, key)
    elif isinstance(value, int) and not isinstance(value, bool):
        if key in CARD_KEYS:
            found.add(value)
        else:
            assert key in NUMBER_KEYS, f"unclassified number under {key!r}: update the test lists"
    return found


def own_cards(state, seat):
    """The cards of the current round `seat` holds or has handled itself."""
    if seat is None or state["phase"] == "over":
        return set()
    mine = set(state["hands"][seat])
    if state["gifts"][seat]:
        mine |= {c for cards in state["gifts"][seat].values() for c in cards}
    if state["phase"] == "rank":
        mine |= set(state["stacks"][seat])
    return mine


def allowed_cards(state, viewer):
    """The cards whose place `viewer` may know now: the photos on the table and its own cards."""
    allowed = set(state["table"]) | own_cards(state, viewer)
    assert not allowed & set(state["deck"]), "a deck card would be visible"
    return allowed


# The public record of rounds already evaluated: the same for every viewer, and about the past
# (after a reshuffle its cards may be back in the deck: that tells nothing of the deck's order).
HISTORY_KEYS = ("last_round", "result", "evaluation", "discarded")


def common_history(shown, viewer):
    """The history every viewer shares: the evaluated rounds but for the viewer's own stack (a
    ranker knows its own face-down cards in the comments variant) and the discards it has seen."""
    history = copy.deepcopy({k: shown[k] for k in HISTORY_KEYS if k in shown and k != "discarded"})
    for key in ("last_round", "evaluation"):
        if history.get(key) and viewer is not None:
            history[key]["stacks"][viewer] = "own"
    return history


def current_cards(shown):
    """The cards a view or a log line shows, leaving out the history of evaluated rounds."""
    return cards_in({k: v for k, v in shown.items() if k not in HISTORY_KEYS})


def viewers(state):
    return [None, *range(state["players"])]


# ---------------------------------------------------------------------------------------------
# Indistinguishability: states that differ only in a secret must look the same to every seat
# that does not know that secret (and to spectators).
# ---------------------------------------------------------------------------------------------
def alternatives(state):
    """Yield (altered state, seats allowed to notice) for each secret of the state."""
    n, phase = state["players"], state["phase"]
    if len(state["deck"]) > 1:
        alt = copy.deepcopy(state)
        alt["deck"].reverse()
        yield alt, set()  # the deck's order: secret to everybody
    if phase == "give" and state["deck"]:
        for j in range(n):
            alt = copy.deepcopy(state)
            top = alt["deck"][-1]
            if alt["hands"][j]:
                alt["deck"][-1], alt["hands"][j][0] = alt["hands"][j][0], top
            else:
                first = min(alt["gifts"][j], key=int)
                alt["deck"][-1], alt["gifts"][j][first][0] = alt["gifts"][j][first][0], top
            yield alt, {j}  # a hand, or the gifts before the rank phase: the owner's only
            if state["gifts"][j]:
                alt = copy.deepcopy(state)
                keys = sorted(alt["gifts"][j], key=int)
                values = [alt["gifts"][j][k] for k in keys]
                alt["gifts"][j] = dict(zip(keys, values[1:] + values[:1]))
                yield alt, {j}  # who gets which gift
    if phase == "rank":
        for r in range(n):
            g1, g2 = [g for g in range(n) if g != r][:2]
            alt = copy.deepcopy(state)
            a, b = alt["gifts"][g1][str(r)], alt["gifts"][g2][str(r)]
            a[0], b[0] = b[0], a[0]
            yield alt, {g1, g2}  # who gave which card of r's stack
            alt = copy.deepcopy(state)
            a = alt["gifts"][g1][str(r)]
            a[0], alt["random"][r] = alt["random"][r], a[0]
            yield alt, {g1}  # which card of r's stack is the random one
        for j in range(n):
            if state["rankings"][j] is not None:
                alt = copy.deepcopy(state)
                alt["rankings"][j]["order"].reverse()
                yield alt, {j}  # a ranking, before the evaluation


def assert_secrets_kept(state):
    """Every viewer's view holds only cards it may know, and no secret changes any view."""
    history = None
    for viewer in viewers(state):
        shown = ENGINE.view(state, viewer)
        assert current_cards(shown) <= allowed_cards(state, viewer), viewer
        if viewer is None:
            history = {k: shown[k] for k in HISTORY_KEYS if k in shown}
        assert common_history(shown, viewer) == common_history(history, viewer), "history differs"
    for alt, aware in alternatives(state):
        for viewer in viewers(state):
            if viewer not in aware:
                assert ENGINE.view(alt, viewer) == ENGINE.view(state, viewer), (viewer, aware)


PUBLIC_DESCRIBE_KEYS = {"seq", "type", "actor", "round"}


def assert_event_secrets_kept(event, after):
    """A log line shows a viewer only what it may know (judged on the state after the event)."""
    kind, actor = event["type"], event["actor"]
    for viewer in viewers(after):
        line = ENGINE.describe(event, viewer)
        assert current_cards(line) <= allowed_cards(after, viewer), (kind, viewer)
        assert common_history(line, viewer) == common_history(ENGINE.describe(event, None), viewer), (
            "the evaluation is the same for everybody"
        )
        if kind in ("CardsGiven", "CardsRanked") and viewer != actor:
            extra = set(line) - PUBLIC_DESCRIBE_KEYS
            if "stacks" in event["data"]["record"]:
                assert extra <= {"ranking_starts", "deck_size", "reshuffled", "stack"}
                if viewer is None:
                    assert "stack" not in line
                else:
                    assert line["stack"] == after["stacks"][viewer]
            else:
                assert not extra, (kind, viewer, extra)
        if kind == "RoundEvaluated" and line["next"] is not None:
            if viewer is None:
                assert "hand" not in line["next"]
            else:
                assert line["next"]["hand"] == after["hands"][viewer]
