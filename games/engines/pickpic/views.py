"""What each seat (or a spectator, viewer None) may see: the views and the log.

The secrets of a round, until its evaluation: the deck's order (only its size is shown), each
hand, who gave which card to whom, which card of a stack is the random one, and each ranking.
A seat sees its own hand, its own gifts, its own stack once the rank phase starts (shuffled with
the random card, without givers: the stack's order comes from the seed, never from the givers)
and its own ranking. The evaluation then makes the whole round public (`last_round`, and the
record of the move that triggered it). Spectators see only what is public.
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


def view(state: base.State, viewer: int | None, active: list[int],
         result: dict[str, Any] | None) -> dict[str, Any]:
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
        "last_round": _copy(state["last_round"]),
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
    out: dict[str, Any] = {"seq": event.get("seq"), "type": kind, "actor": actor,
                           "round": record.get("round")}
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
        out["evaluation"] = _copy(record.get("evaluation"))
        out["discarded"] = list(record.get("discarded") or [])
        following = record.get("next")
        if following:
            hands = following.get("hands") or []
            out["next"] = {"round": following.get("round"), "table": list(following["table"]),
                           "deck_size": following.get("deck_size"),
                           "reshuffled": following.get("reshuffled")}
            if type(viewer) is int and 0 <= viewer < len(hands):
                out["next"]["hand"] = list(hands[viewer])
        else:
            out["next"] = None
        out["result"] = _copy(record.get("result"))
    return out
