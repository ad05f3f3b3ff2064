"""Photograph (Wind the Film!) on the engine protocol."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from games.engines.base import Engine, IllegalMove, Step

from . import moves, schemas, scoring, views


class PhotographEngine(Engine):
    kind = "photograph"
    title = "Photograph"
    min_players = 2
    max_players = 4
    # 1: as first published. 2: the state remembers the blurred shots the last action showed
    # (`shown`), so the view shows their faces until the next action and no longer (the log
    # shows them only while fresh, for every version). Play is the same in both.
    rules_version = 2
    rules_versions = (1, 2)

    def options_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "missed_shot": {
                    "type": "boolean",
                    "default": False,
                    "description": "Missed Shot variant: the last card left in hand removes the "
                    "reel and the good shot card of its colour at scoring.",
                },
            },
            "additionalProperties": False,
        }

    def move_schema(self) -> dict[str, Any]:
        return {
            "oneOf": [
                {
                    "type": "object",
                    "title": "take",
                    "additionalProperties": False,
                    "description": "Choose a subject: 1-3 cards from one end of one row of the layout.",
                    "required": ["type", "row", "side", "count"],
                    "properties": {
                        "type": {"const": "take"},
                        "row": {"type": "integer", "minimum": 0, "maximum": 3},
                        "side": {"enum": ["left", "right"]},
                        "count": {"type": "integer", "minimum": 1, "maximum": 3},
                    },
                },
                {
                    "type": "object",
                    "title": "wind",
                    "additionalProperties": False,
                    "description": "Wind the film: move the card at hand position `from` (0 = leftmost, "
                    "not the rightmost) to position `to` further right.",
                    "required": ["type", "from", "to"],
                    "properties": {
                        "type": {"const": "wind"},
                        "from": {"type": "integer", "minimum": 0},
                        "to": {"type": "integer", "minimum": 1},
                    },
                },
            ]
        }

    def view_schema(self) -> dict[str, Any]:
        return schemas.VIEW

    def event_schema(self) -> dict[str, Any]:
        return schemas.EVENT

    def setup(self, players: int, options: Mapping[str, Any], seed: str) -> dict[str, Any]:
        if not (self.min_players <= players <= self.max_players):
            raise ValueError(f"Photograph is for {self.min_players}-{self.max_players} players")
        unknown = set(options or {}) - {"missed_shot"}
        if unknown:
            raise ValueError(f"unknown options: {sorted(unknown)}")
        return moves.setup(players, dict(options or {}), seed)

    def active_players(self, state) -> set[int]:
        return views.active(state)

    def move_types(self, state, seat) -> set[str]:
        if seat is None or seat not in views.active(state):
            return set()
        return {"take"} if state["phase"] == moves.TAKE else {"wind"}

    def legal_moves(self, state, seat: int) -> list[dict[str, Any]]:
        if seat not in views.active(state):
            return []
        if state["phase"] == moves.TAKE:
            return moves.legal_takes(state)
        return moves.legal_winds(len(state["hands"][seat]))

    def step(self, state, actor, move, at: datetime) -> Step:
        if actor is None:
            raise IllegalMove("Photograph has no system moves")
        if not isinstance(move, dict):
            raise IllegalMove('a move is an object with a string "type"')
        if actor not in views.active(state):
            raise IllegalMove("seat %(actor)s has nothing to do now", actor=actor)
        new, event_type, record = moves.dispatch(state, actor, move)
        if self.rules_version >= 2:
            # "first show the card's face to the other players, then turn it face-down": shown
            # until the next action, then "players may not check the number on this card".
            new["shown"] = [{"seat": p["seat"], "card": p["card"]} for p in record.get("played", []) if p["blurred"]]
        return Step(new, event_type, record)

    def view(self, state, viewer):
        return views.view(state, viewer)

    def replay_view(self, state, viewer):
        return views.view(state, viewer, moment=False)

    def describe(self, event, viewer):
        return views.describe(event, viewer)

    def standing(self, view):
        return scoring.standing(view)

    def result(self, state):
        if state["phase"] != moves.OVER:
            return None
        return scoring.result(state)
