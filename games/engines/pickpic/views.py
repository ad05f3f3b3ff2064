"""What each seat (or a spectator, viewer None) may see: the views and the log.

The secrets of a round, until its evaluation: the deck's order (only its size is shown), each
hand, who gave which card to whom, which card of a stack is the random one, and each ranking.
A seat sees its own hand, its own gifts, its own stack once the rank phase starts (shuffled with
the random card, without givers: the stack's order comes from the seed, never from the givers)
and its own ranking. Spectators see only what is public.

The evaluation reveals what the table reveals, no more (`public_round`, in `last_round` and in the
log line of the move that completed the round): each stack's ranking (the base game ranks face
up), the giver of every card above the random card (each "reveals themselves" and scores), and
the random card ("you will know, because nobody claims it"). Nobody claims a card below the random
card, so its giver stays secret for good, even from the ranker. With the comments variant the
cards are ranked face down and turned one by one until the random card: the cards below it (and
their comments) stay face down for everybody but their ranker.
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import base
from .moves import per_seat


def _copy(value: Any) -> Any:
    """A copy of plain JSON data (much faster than deepcopy; views are built often)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _is_seat(viewer: Any, players: int) -> bool:
    return type(viewer) is int and 0 <= viewer < players


def view(state: base.State, viewer: int | None, active: list[int], result: dict[str, Any] | None) -> dict[str, Any]:
    n, phase = state["players"], state["phase"]
    acted = {"give": state["gifts"], "rank": state["rankings"]}.get(phase, [None] * n)
    shown: dict[str, Any] = {
        "phase": phase,
        "active": active,
        "players": n,
        "round": state["round"],
        "target": state["options"]["target"],
        "comments": state["options"]["comments"],
        "cards_per_gift": per_seat(n),
        "scores": list(state["scores"]),
        "deck_size": len(state["deck"]),
        "discard_size": len(state["discard"]),
        "table": list(state["table"]),
        "done": [a is not None for a in acted] if phase != "over" else [True] * n,
        "last_round": public_round(state["last_round"], viewer, state["options"]["comments"]),
        "result": _copy(result),
    }
    if _is_seat(viewer, n) and phase != "over":
        you: dict[str, Any] = {"seat": viewer}
        if phase == "give" and state["gifts"][viewer] is None:
            you["hand"] = list(state["hands"][viewer])
        if state["gifts"][viewer] is not None:
            you["gifts"] = _copy(state["gifts"][viewer])
        if phase == "rank":
            you["stack"] = list(state["stacks"][viewer])
            if state["rankings"][viewer] is not None:
                you["ranking"] = _copy(state["rankings"][viewer])
        shown["you"] = you
    return shown


def describe(event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    kind, actor = event.get("type"), event.get("actor")
    data = event.get("data") or {}
    move, record = data.get("move") or {}, data.get("record") or {}
    out: dict[str, Any] = {"seq": event.get("seq"), "type": kind, "actor": actor, "round": record.get("round")}
    own = viewer is not None and viewer == actor
    if kind == "CardsGiven":
        if own:
            out["gifts"] = _copy(move.get("gifts"))
        stacks = record.get("stacks")
        if stacks is not None:
            # The last gift starts the rank phase: each seat learns its own stack only.
            out["ranking_starts"] = True
            out["deck_size"] = record.get("deck_size")
            out["reshuffled"] = record.get("reshuffled")
            if type(viewer) is int and 0 <= viewer < len(stacks):
                out["stack"] = list(stacks[viewer])
    elif kind == "CardsRanked":
        if own:
            out["order"] = list(move.get("order") or [])
            if move.get("comments"):
                out["comments"] = dict(move["comments"])
    elif kind == "RoundEvaluated":
        evaluation = record.get("evaluation")
        face_down = _face_down_variant(evaluation)
        out["evaluation"] = public_round(evaluation, viewer, face_down)
        out["discarded"] = _seen_discards(record.get("discarded") or [], evaluation, viewer, face_down)
        out["discarded_count"] = len(record.get("discarded") or [])
        following = record.get("next")
        if following:
            hands = following.get("hands") or []
            out["next"] = {
                "round": following.get("round"),
                "table": list(following["table"]),
                "deck_size": following.get("deck_size"),
                "reshuffled": following.get("reshuffled"),
            }
            if type(viewer) is int and 0 <= viewer < len(hands):
                out["next"]["hand"] = list(hands[viewer])
        else:
            out["next"] = None
        out["result"] = _copy(record.get("result"))
    return out


# --------------------------------------------------------------------------------------------
# The evaluation, as the table reveals it
# --------------------------------------------------------------------------------------------
PUBLIC_ROUND_KEYS = ("round", "table", "random", "points", "breakdown", "scores")


def _face_down_variant(evaluation: Mapping[str, Any] | None) -> bool:
    """Whether the round was played with the comments variant (its entries carry comments)."""
    stacks = (evaluation or {}).get("stacks") or []
    return any("comment" in entry for stack in stacks for entry in stack.get("order", []))


def public_stack(stack: Mapping[str, Any], viewer: int | None, face_down: bool) -> dict[str, Any]:
    """One seat's evaluated stack: its claimed cards (with their givers and points) and its random
    card; below the random card the cards without givers, or face down (variant) to all but the
    ranker."""
    cut, own = stack["random_position"], viewer == stack["seat"]
    order = []
    for position, entry in enumerate(stack["order"]):
        if position <= cut:
            shown = _copy(entry)
        elif face_down and not own:
            shown = {"face_down": True}
        else:
            shown = {"card": entry["card"], "giver": None, "random": False, "giver_points": 0, "ranker_points": 0}
            if own and "comment" in entry:
                shown["comment"] = entry["comment"]
        if "face_down" not in shown:
            shown["claimed"] = position < cut
        order.append(shown)
    return {
        "seat": stack["seat"],
        "order": order,
        "random_position": cut,
        "random_last_bonus": stack["random_last_bonus"],
    }


def public_round(evaluation: Mapping[str, Any] | None, viewer: int | None, face_down: bool) -> dict[str, Any] | None:
    """The round's evaluation as `viewer` may see it (the state and the record keep it whole)."""
    if evaluation is None:
        return None
    shown = {key: _copy(evaluation[key]) for key in PUBLIC_ROUND_KEYS}
    shown["stacks"] = [public_stack(s, viewer, face_down) for s in evaluation["stacks"]]
    return shown


def _seen_discards(
    discarded: list[int], evaluation: Mapping[str, Any] | None, viewer: int | None, face_down: bool
) -> list[int]:
    """The round's discards the viewer has seen: all of them, but for face-down cards (variant)
    that were neither its own stack nor its own gifts."""
    if not face_down or evaluation is None:
        return list(discarded)
    hidden = set()
    for stack in evaluation["stacks"]:
        if stack["seat"] != viewer:
            hidden |= {e["card"] for e in stack["order"][stack["random_position"] + 1 :]}
    gifts = evaluation.get("gifts") or []
    if type(viewer) is int and 0 <= viewer < len(gifts):
        hidden -= {c for cards in (gifts[viewer] or {}).values() for c in cards}
    return [c for c in discarded if c not in hidden]
