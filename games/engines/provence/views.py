"""What each seat (or a spectator, viewer None) may see: landscapes, tokens and markers are
public; a hand, a passed card and a choice not yet revealed belong to their seat alone."""

from __future__ import annotations

from typing import Any, Mapping

from . import cards, components, layout

ATTR_NAMES = {"lavender": "growth", "sunflower": "facing", "town": "shop", "meadow": "feature"}


def square_json(cell, square) -> dict:
    terrain, attr, card = square
    out = {"x": cell[0], "y": cell[1], "terrain": terrain, "card": card}
    if attr is not None:
        out[ATTR_NAMES[terrain]] = {"h": "horizontal", "v": "vertical"}.get(attr, attr)
    return out


def landscape_json(land: dict) -> dict:
    grid = layout.visible(land)
    return {
        "cards": [dict(p) for p in land["cards"]],
        "photographer": list(land["photographer"]),
        "drone": list(land["drone"]),
        "visible": [square_json(c, grid[c]) for c in sorted(grid, key=lambda c: (c[1], c[0]))],
    }


def photo_json(photo: dict) -> dict:
    card = cards.PHOTO[photo["card"]]
    return {
        "card": photo["card"],
        "back": card["back"],
        "taken_by": "drone" if card["back"] == "C" else "photographer",
        "requires": [{"terrain": t, "count": n} for t, n in card["requires"]],
        "spots": list(card["spots"]),
        "markers": [list(s) for s in photo["markers"]],
    }


def view(state: dict, viewer: int | None, active: list[int], result: dict | None) -> dict:
    out: dict[str, Any] = {
        "phase": state["phase"],
        "active": active,
        "players": state["players"],
        "round": state["round"],
        "rounds": components.ROUNDS,
        "deck": len(state["deck"]),
        "hand_sizes": [len(h) for h in state["hands"]],
        "submitted": [p is not None for p in state["pending"]],
        "landscapes": [landscape_json(land) for land in state["landscapes"]],
        "photos": [photo_json(p) for p in state["photos"]],
        "goals": [dict(g) for g in state["goals"]],
        "markers": list(state["markers"]),
    }
    if viewer is not None and 0 <= viewer < state["players"]:
        pending = state["pending"][viewer]
        out["you"] = {
            "seat": viewer,
            "hand": [cards.card_json(c) for c in state["hands"][viewer]],
            "pending": dict(pending) if pending else None,
            "passed": state["passing"][viewer],
        }
    if result is not None:
        out["result"] = result
    return out


def describe(event: Mapping[str, Any], viewer: int | None) -> dict:
    """Self-contained: reads only the event. A choice is shown to its own seat until the
    resolving event of its phase makes everything but passed cards and hands public."""
    kind, actor = event["type"], event["actor"]
    data = event.get("data") or {}
    move, record = data.get("move") or {}, data.get("record") or {}
    out: dict[str, Any] = {"seq": event["seq"], "type": kind, "actor": actor, "round": record.get("round")}
    if kind in ("CardChosen", "WalkChosen"):
        if viewer is not None and viewer == actor:
            out["move"] = move
        return out
    if kind == "ScenesPlaced":
        out["placements"] = record.get("placements")
        if viewer is not None and 0 <= viewer < len(record.get("passed", [])):
            out["you_passed"] = record["passed"][viewer]
        return out
    if kind == "WalksRevealed":
        out["walks"] = record.get("walks")
        out["photos"] = record.get("photos")
        if "deck" in record:
            out["deck"] = record["deck"]
        if viewer is not None and 0 <= viewer < len(record.get("hands", [])):
            out["your_hand"] = record["hands"][viewer]
        if "result" in record:
            out["result"] = record["result"]
        return out
    return out
