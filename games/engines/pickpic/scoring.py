"""Phase 4, Evaluate scores: walk down each ranking until the random card.

Rulebook: "The player points at the card that he ranked highest. Then the player who played that
card reveals themselves. Both players receive one point. Then continue to the next card. However,
when you reach the card that was given at random, stop [...] No more points are given."
Bonus points: "The player who played the highest ranked card (if it wasn't the random card)
receives 2 points instead of 1." and "A player who manages to place the random card at the very
last position gets 1 bonus point."

Interpretation: "the player who played" a card is its giver (the evaluation's own words: "the
player who played that card reveals themselves"), so on the top card the giver scores 2 and the
ranker keeps the 1 point of "Both players receive one point": the bonus replaces only the giver's
point. The last-position bonus goes to the ranker only (nobody played the random card).
"""

from __future__ import annotations

from typing import Any

TALLY_KEYS = ("as_giver", "top_card", "as_ranker", "random_last")


def new_tally() -> dict[str, int]:
    return {key: 0 for key in TALLY_KEYS}


def giver_of(gifts: list[dict[str, list[int]]], receiver: int) -> dict[int, int]:
    """card -> giver, for the cards given to `receiver`."""
    return {card: giver for giver, given in enumerate(gifts) if given for card in given.get(str(receiver), [])}


def evaluate_stack(
    seat: int, order: list[int], random_card: int, givers: dict[int, int], comments: dict[str, str] | None
) -> dict[str, Any]:
    """One player's evaluation: each card with its giver and the points it earned."""
    entries = []
    tallies: dict[int, dict[str, int]] = {}
    stopped = False
    for position, card in enumerate(order):
        is_random = card == random_card
        stopped = stopped or is_random
        giver = None if is_random else givers[card]
        giver_points = ranker_points = 0
        if not stopped:  # so not the random card: it has a giver
            top = position == 0
            giver_points, ranker_points = (2 if top else 1), 1
            t = tallies.setdefault(givers[card], new_tally())
            t["as_giver"] += 1
            t["top_card"] += 1 if top else 0
            tallies.setdefault(seat, new_tally())["as_ranker"] += 1
        entry: dict[str, Any] = {
            "card": card,
            "giver": giver,
            "random": is_random,
            "giver_points": giver_points,
            "ranker_points": ranker_points,
        }
        if comments is not None:
            entry["comment"] = comments.get(str(card))
        entries.append(entry)
    random_last = 1 if order[-1] == random_card else 0
    if random_last:
        tallies.setdefault(seat, new_tally())["random_last"] += 1
    return {
        "seat": seat,
        "order": entries,
        "random_position": order.index(random_card),
        "random_last_bonus": random_last,
        "tallies": {str(s): t for s, t in sorted(tallies.items())},
    }


def points(tally: dict[str, int]) -> int:
    return tally["as_giver"] + tally["top_card"] + tally["as_ranker"] + tally["random_last"]


def evaluate_round(
    players: int,
    gifts: list[dict[str, list[int]]],
    random_cards: list[int],
    rankings: list[dict[str, Any]],
    with_comments: bool,
) -> dict[str, Any]:
    """Every player's evaluation, in seat order ("Evaluate each player one at a time"), and the
    round's points per seat with their breakdown."""
    stacks = []
    round_tally = [new_tally() for _ in range(players)]
    for seat in range(players):
        ranking = rankings[seat]
        result = evaluate_stack(
            seat,
            ranking["order"],
            random_cards[seat],
            giver_of(gifts, seat),
            ranking.get("comments", {}) if with_comments else None,
        )
        for s, t in result.pop("tallies").items():
            for key in TALLY_KEYS:
                round_tally[int(s)][key] += t[key]
        stacks.append(result)
    return {"stacks": stacks, "breakdown": round_tally, "points": [points(t) for t in round_tally]}
