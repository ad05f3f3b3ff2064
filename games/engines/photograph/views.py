"""What each seat may see: "what an attentive player at the table knows, no more".

Numbers shown: face-up cards; cards a seat took face down or was dealt (to that seat only); cards
played face up. Everything else shows its back: colour and whether the number is 1-6 or 7-12.

A blurred shot: "first show the card's face to the other players, then turn it face-down [...]
From this point on, players may not check the number on this card." Its face is shown for the
moment of its play only: in the view after that action (`shown`, until the next action; rules
version 2 keeps it in the state) and in the log line of its play while that line is fresh (no
action since: the move's answer, the live channel). Later reads of the log and replays of past
states show its colour only.
"""

from __future__ import annotations

from typing import Any, Mapping

from .cards import back, face
from .moves import OVER, SIMULTANEOUS, WIND
from .reels import good_shot_threshold
from .scoring import result


def active(state: Mapping[str, Any]) -> set[int]:
    phase = state["phase"]
    if phase == OVER:
        return set()
    if phase in SIMULTANEOUS:
        return {s for s, w in enumerate(state["winds"]) if w is None}
    return {state["turn"]}


def _card(card: str, known: bool) -> dict[str, Any]:
    return face(card) if known else back(card)


def _place(place) -> dict[str, Any] | None:
    if place is None:
        return None
    return {**_card(place["card"], place["up"]), "face_up": place["up"]}


def _hand(hand, owner: int, viewer: int | None) -> list[dict[str, Any]]:
    if owner == viewer:
        return [{**face(e["card"]), "public": e["public"]} for e in hand]
    return [_card(e["card"], e["public"]) for e in hand]


def _reel(reel) -> list[dict[str, Any]]:
    return [{"colour": face(e["card"])["colour"], "blurred": True} if e["blurred"] else face(e["card"]) for e in reel]


def view(state: Mapping[str, Any], viewer: int | None, moment: bool = True) -> dict[str, Any]:
    """`moment` False: a replay of a past state, without the faces shown for a moment."""
    phase, players = state["phase"], state["players"]
    seen = {
        "phase": phase,
        "active": sorted(active(state)),
        "players": players,
        "turn": state["turn"],
        "first": state["first"],
        "turns": state["turns"],
        "options": dict(state["options"]),
        "colours": list(state["colours"]),
        "removed_colours": list(state["removed_colours"]),
        "deck_size": len(state["deck"]),
        "sunset": state["sunset"],
        "layout": [[_place(p) for p in row] for row in state["layout"]],
        "hands": [_hand(state["hands"][s], s, viewer) for s in range(players)],
        "reels": [{c: _reel(r) for c, r in state["reels"][s].items()} for s in range(players)],
        "good_shots": {c: dict(g) for c, g in state["good_shots"].items()},
        "good_shot_threshold": good_shot_threshold(players),
        "out": [_card(e["card"], e["seen"]) for e in state["out"]],
        "shown": [{"seat": e["seat"], **face(e["card"])} for e in state.get("shown", [])] if moment else [],
    }
    if phase == WIND:
        seen["to_play"] = state["taken"]
    if phase in SIMULTANEOUS:
        seen["wound"] = [w is not None for w in state["winds"]]
        if viewer is not None and state["winds"][viewer] is not None:
            source, target = state["winds"][viewer]
            seen["my_wind"] = {"from": source, "to": target}
    if phase == OVER:
        seen["last_cards"] = [
            [_card(e["card"], e["public"] or s == viewer) for e in left] for s, left in enumerate(state["last_cards"])
        ]
        seen["result"] = result(state)
    return seen


def _check(check: Mapping[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {"refilled": check.get("refilled", False), "sunset": check.get("sunset", False)}
    if "removed" in check:
        shown["removed"] = [
            {"pos": e["pos"], **_card(e["card"], e["seen"]), "seen": e["seen"]} for e in check["removed"]
        ]
    if "moved" in check:
        # turned face up as they move to the leftmost column: public from now on
        shown["moved"] = [{"from": e["from"], "to": e["to"], **face(e["card"])} for e in check["moved"]]
    shown["dealt"] = [
        {"pos": e["pos"], **_card(e["card"], e["face_up"]), "face_up": e["face_up"]} for e in check.get("dealt", [])
    ]
    return shown


def _played(played, fresh: bool) -> list[dict[str, Any]]:
    # every played card was shown to all, blurred ones too, at this moment; a blurred one is
    # then turned face down: its number only while the line is fresh
    return [
        {
            "seat": p["seat"],
            **({"colour": face(p["card"])["colour"]} if p["blurred"] and not fresh else face(p["card"])),
            "blurred": p["blurred"],
            "good_shot": p["good_shot"],
        }
        for p in played
    ]


def describe(event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    data = event.get("data") or {}
    move, record = data.get("move") or {}, data.get("record") or {}
    shown: dict[str, Any] = {"seq": event["seq"], "type": event["type"], "actor": event["actor"]}
    stage = record.get("stage")
    if event["type"] == "SubjectChosen":
        taker = record["seat"]
        shown["move"] = {k: move[k] for k in ("type", "row", "side", "count") if k in move}
        shown["cards"] = [
            {"pos": c["pos"], **_card(c["card"], c["face_up"] or viewer == taker), "face_up": c["face_up"]}
            for c in record["cards"]
        ]
    elif event["type"] == "FilmWound":
        shown["stage"] = stage
        if stage == "turn" or viewer == record.get("seat"):
            shown["move"] = {k: move[k] for k in ("type", "from", "to") if k in move}
        else:
            # a simultaneous wind stays secret until every seat has wound
            shown["move"] = {"type": "wind"}
        if stage != "turn":
            shown["resolved"] = record.get("resolved", False)
        if "winds" in record:
            shown["winds"] = [dict(w) for w in record["winds"]]
        if "played" in record:
            shown["played"] = _played(record["played"], event.get("fresh") is True)
        if "voided" in record:
            shown["voided"] = list(record["voided"])
        if "check" in record:
            shown["check"] = _check(record["check"])
        if "left" in record:
            shown["left"] = [
                {"seat": e["seat"], **_card(e["card"], e["public"] or e["seat"] == viewer)} for e in record["left"]
            ]
    if "next" in record:
        shown["next"] = dict(record["next"])
    return shown
