"""The two moves, "give" and "rank": their schema, their validation, and every legal instance.

give: {"type": "give", "gifts": {"<seat>": [card, ...], ...}}: every other seat gets a list of
      exactly `per_seat(players)` cards (1, or 2 in a 3-player game) and the hand is used up.
rank: {"type": "rank", "order": [card, ...], "comments": {"<card>": "why", ...}}: the whole
      stack, best first; "comments" only with the comments variant (optional even then).
"""

from __future__ import annotations

import itertools
from typing import Any

from ..base import IllegalMove, require
from .cards import is_card

COMMENT_MAX = 140


def per_seat(players: int) -> int:
    """Rulebook, 3-player game: "each player draws 4 cards to their hand and gives 2 cards to each
    of the other players"; otherwise one card to each other player."""
    return 2 if players == 3 else 1


def hand_size(players: int) -> int:
    """Rulebook, Give cards: "a secret hand of cards equal to the number of players minus one
    (except in a 3-player game)"."""
    return per_seat(players) * (players - 1)


def others(players: int, seat: int) -> list[int]:
    return [s for s in range(players) if s != seat]


# --------------------------------------------------------------------------------------------
# Schema (for the OpenAPI document)
# --------------------------------------------------------------------------------------------
def move_schema() -> dict[str, Any]:
    card = {"type": "integer", "minimum": 1, "maximum": 120}
    return {
        "oneOf": [
            {
                "title": "give",
                "type": "object",
                "required": ["type", "gifts"],
                "additionalProperties": False,
                "description": "Give phase: one card (two in a 3-player game) to each other seat, "
                "using the whole hand.",
                "properties": {
                    "type": {"const": "give"},
                    "gifts": {
                        "type": "object",
                        "description": "receiving seat (as a string) -> cards",
                        "additionalProperties": {"type": "array", "items": card, "minItems": 1, "maxItems": 2},
                    },
                },
                "example": {"type": "give", "gifts": {"1": [17], "2": [64], "3": [5]}},
            },
            {
                "title": "rank",
                "type": "object",
                "required": ["type", "order"],
                "additionalProperties": False,
                "description": "Rank phase: the whole stack, the card most in common with your photo "
                "first. Comments (variant only): card id (as a string) -> short text.",
                "properties": {
                    "type": {"const": "rank"},
                    "order": {"type": "array", "items": card, "minItems": 4, "maxItems": 5},
                    "comments": {
                        "type": "object",
                        "additionalProperties": {"type": "string", "minLength": 1, "maxLength": COMMENT_MAX},
                    },
                },
                "example": {"type": "rank", "order": [64, 12, 99, 3], "comments": {"64": "same lonely light"}},
            },
        ]
    }


# --------------------------------------------------------------------------------------------
# Validation: anything a client can send comes back as IllegalMove, never as a crash.
# --------------------------------------------------------------------------------------------
def _only_keys(move: dict, allowed: set[str]) -> None:
    extra = sorted(set(move) - allowed)
    require(not extra, "unknown field(s): %(extra)s", extra=extra)


def _card_list(value: Any, what: str) -> list[int]:
    require(isinstance(value, list), "%(what)s must be a list of card ids", what=what)
    require(all(is_card(c) for c in value), "%(what)s must hold card ids (integers 1..120)", what=what)
    return value


def check_give(move: dict, players: int, seat: int, hand: list[int]) -> dict[str, list[int]]:
    """The gifts, normalised (each list sorted), or IllegalMove."""
    _only_keys(move, {"type", "gifts"})
    gifts = move.get("gifts")
    if not isinstance(gifts, dict):
        raise IllegalMove('"gifts" must be an object: seat -> list of cards')
    expected = {str(s) for s in others(players, seat)}
    require(
        set(gifts) == expected,
        '"gifts" must name exactly the other seats %(expected)s, got %(gifts)s',
        expected=sorted(expected),
        gifts=sorted(gifts),
    )
    count = per_seat(players)
    given: list[int] = []
    for to in sorted(gifts):
        cards = _card_list(gifts[to], f"gifts[{to}]")
        require(
            len(cards) == count,
            "give exactly %(count)s card(s) to each other player, not %(cards)s to seat %(to)s",
            count=count,
            cards=len(cards),
            to=to,
        )
        given += cards
    require(len(set(given)) == len(given), "a card can be given only once")
    missing = sorted(set(given) - set(hand))
    require(not missing, "not in your hand: %(missing)s", missing=missing)
    # With the counts right and no duplicates, the whole hand is given.
    return {to: sorted(gifts[to]) for to in sorted(gifts, key=int)}


def check_rank(move: dict, stack: list[int], comments_allowed: bool) -> dict[str, Any]:
    """The ranking {"order", "comments"}, or IllegalMove."""
    _only_keys(move, {"type", "order", "comments"})
    order = _card_list(move.get("order"), '"order"')
    require(len(order) == len(set(order)), "a card can be ranked only once")
    require(
        sorted(order) == sorted(stack),
        '"order" must rank exactly the cards of your stack %(stack)s',
        stack=sorted(stack),
    )
    comments = move.get("comments", {})
    require(isinstance(comments, dict), '"comments" must be an object: card id -> text')
    require(comments_allowed or not comments, "comments are only part of the comments variant (option 'comments')")
    names = {str(c) for c in stack}
    for key, text in comments.items():
        require(key in names, "comment on %(key)r, which is not a card of your stack", key=key)
        require(
            isinstance(text, str) and text.strip() != "", "the comment on card %(key)s must be non-empty text", key=key
        )
        require(
            len(text) <= COMMENT_MAX,
            "the comment on card %(key)s is longer than %(COMMENT_MAX)s characters",
            key=key,
            COMMENT_MAX=COMMENT_MAX,
        )
        require(text.isprintable(), "the comment on card %(key)s holds control characters", key=key)
    return {"order": list(order), "comments": {k: comments[k] for k in sorted(comments, key=int)}}


# --------------------------------------------------------------------------------------------
# Every legal move, concretely
# --------------------------------------------------------------------------------------------
def _splits(cards: list[int], receivers: list[int], count: int):
    if not receivers:
        yield {}
        return
    for chosen in itertools.combinations(cards, count):
        rest = [c for c in cards if c not in chosen]
        for tail in _splits(rest, receivers[1:], count):
            yield {str(receivers[0]): list(chosen), **tail}


def give_moves(players: int, seat: int, hand: list[int]) -> list[dict]:
    """All ways to share the hand out: (n-1)! at 4-5 players, 6 at 3 players (2+2 of 4)."""
    return [
        {"type": "give", "gifts": gifts} for gifts in _splits(sorted(hand), others(players, seat), per_seat(players))
    ]


def rank_moves(stack: list[int]) -> list[dict]:
    """All orderings of the stack (without comments, which are optional)."""
    return [{"type": "rank", "order": list(order)} for order in itertools.permutations(stack)]
