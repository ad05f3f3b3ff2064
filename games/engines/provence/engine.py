"""Walking in Provence: ten simultaneous rounds of Scene, Walking, Photo and Refill phases."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from .. import base
from ..base import IllegalMove, Step
from . import cards, components, layout, moves, photos, scoring, views
from . import schemas

SCENE, WALKING, OVER = "scene", "walking", "over"


def left_of(seat: int, players: int) -> int:
    """The player to your left, who receives the card you pass."""
    return (seat + 1) % players


class ProvenceEngine(base.Engine):
    kind = "provence"
    title = "Walking in Provence"
    min_players = 2
    max_players = 5
    # 1: goal card G1 carried churches and lavender (the scoring example could not be dealt);
    # 2: reworked goal cards (components.GOAL_CARDS). Only the goals dealt at setup differ.
    rules_version = 2
    rules_versions = (1, 2)

    def options_schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}, "additionalProperties": False}

    def move_schema(self) -> dict[str, Any]:
        return moves.MOVE_SCHEMA

    def view_schema(self) -> dict[str, Any]:
        return schemas.VIEW

    def event_schema(self) -> dict[str, Any]:
        return schemas.EVENT

    # -- setup ----------------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: str) -> dict:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Walking in Provence is for 2-5 players, not {players}")
        deck = cards.scene_ids(players)
        base.rng(seed, "scene-deck").shuffle(deck)
        face_up = []
        for back, shown in (("A", 2), ("B", 2), ("C", 3)):
            pile = sorted(cid for cid, p in cards.PHOTO.items() if p["back"] == back)
            # The extra face-down "framing area" card has no effect on play: not kept.
            face_up += sorted(base.rng(seed, "photos", back).sample(pile, shown))
        goal_rng = base.rng(seed, "goals")
        goal_sides = cards.goal_cards(self.rules_version)
        goal_cards = sorted(goal_rng.sample(sorted(goal_sides), 2))
        goals = [{"card": g, "goal": goal_sides[g][goal_rng.randrange(2)]} for g in goal_cards]
        starts = base.rng(seed, "start-cards").sample(sorted(cards.START), players)
        landscapes = [layout.new_landscape(s, base.rng(seed, "drone", i).randrange(2)) for i, s in enumerate(starts)]
        hands = [deck[components.HAND_SIZE * i : components.HAND_SIZE * (i + 1)] for i in range(players)]
        return {
            "players": players,
            "round": 1,
            "phase": SCENE,
            "deck": deck[components.HAND_SIZE * players :],
            "hands": hands,
            "passing": [None] * players,
            "pending": [None] * players,
            "landscapes": landscapes,
            "photos": [{"card": cid, "markers": [[] for _ in cards.PHOTO[cid]["spots"]]} for cid in face_up],
            "goals": goals,
            "markers": [components.MARKERS_PER_PLAYER] * players,
        }

    # -- who acts, and with what -----------------------------------------------------------------
    def active_players(self, state: dict) -> set[int]:
        if state["phase"] == OVER:
            return set()
        return {s for s, p in enumerate(state["pending"]) if p is None}

    def move_types(self, state: dict, seat: int | None) -> set[str]:
        if seat is None or seat not in self.active_players(state):
            return set()
        return {"place"} if state["phase"] == SCENE else {"walk"}

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.active_players(state):
            return []
        land = state["landscapes"][seat]
        grid = layout.visible(land)
        if state["phase"] == SCENE:
            return [
                {"type": "place", "card": card, "x": x, "y": y, "rotation": r, "under": u}
                for card in state["hands"][seat]
                for x, y, r, u in layout.placements(land, card, grid)
            ]
        spots = layout.meadows(grid)
        here = (tuple(land["photographer"]), tuple(land["drone"]))
        out: list[dict[str, Any]] = [{"type": "walk"}]
        out += [
            {"type": "walk", "photographer": list(p), "drone": list(d)}
            for p in spots
            for d in spots
            if p != d and (p, d) != here
        ]
        return out

    # -- moves ------------------------------------------------------------------------------------
    def step(self, state: dict, actor: int | None, move: dict, at: datetime) -> Step:
        if actor is None:
            raise IllegalMove("Walking in Provence has no system moves")
        if actor not in self.active_players(state):
            raise IllegalMove("seat %(actor)s has already chosen this phase", actor=actor)
        if move.get("type") == "place" and state["phase"] == SCENE:
            return self._place(state, actor, move)
        if move.get("type") == "walk" and state["phase"] == WALKING:
            return self._walk(state, actor, move)
        raise IllegalMove(
            "'%(value)s' is not a move of the %(phase)s phase", value=move.get("type"), phase=state["phase"]
        )

    def _place(self, state: dict, actor: int, move: dict) -> Step:
        card, x, y, rotation, under = moves.parse_place(move)
        if card not in state["hands"][actor]:
            raise IllegalMove("%(card)s is not in your hand", card=card)
        error = layout.placement_error(state["landscapes"][actor], card, x, y, rotation, under)
        if error:
            raise IllegalMove(error)
        new = base.clone(state)
        new["pending"][actor] = {"card": card, "x": x, "y": y, "rotation": rotation, "under": under}
        if any(p is None for p in new["pending"]):
            return Step(new, "CardChosen", {"round": new["round"]})
        return Step(new, "ScenesPlaced", self._resolve_scene(new))

    def _resolve_scene(self, state: dict) -> dict:
        """Every seat's choice takes effect at once: the card is placed, the other is passed."""
        placements, passed = [], []
        for seat, choice in enumerate(state["pending"]):
            layout.place(
                state["landscapes"][seat], choice["card"], choice["x"], choice["y"], choice["rotation"], choice["under"]
            )
            rest = [c for c in state["hands"][seat] if c != choice["card"]]
            state["passing"][seat] = rest[0] if rest else None
            passed.append(state["passing"][seat])
            state["hands"][seat] = []
            placements.append(dict(choice))
        state["pending"] = [None] * state["players"]
        state["phase"] = WALKING
        return {"round": state["round"], "placements": placements, "passed": passed}

    def _walk(self, state: dict, actor: int, move: dict) -> Step:
        targets = moves.parse_walk(move)
        land = state["landscapes"][actor]
        meadows = set(layout.meadows(layout.visible(land)))
        final = {t: targets.get(t, tuple(land[t])) for t in ("photographer", "drone")}
        for token, cell in targets.items():
            if cell not in meadows:
                raise IllegalMove(
                    "the %(token)s must go to a visible Meadow square, not %(cell)s", token=token, cell=list(cell)
                )
        if final["photographer"] == final["drone"]:
            raise IllegalMove("a Meadow square can only contain one token")
        new = base.clone(state)
        new["pending"][actor] = {t: list(c) for t, c in final.items()}
        if any(p is None for p in new["pending"]):
            return Step(new, "WalkChosen", {"round": new["round"]})
        return Step(new, "WalksRevealed", self._resolve_round(new))

    def _resolve_round(self, state: dict) -> dict:
        """End of the Walking phase, then the Photo phase and the Refill phase."""
        n = state["players"]
        walks = state["pending"]
        for seat, walk in enumerate(walks):
            state["landscapes"][seat].update(walk)
        state["pending"] = [None] * n
        record = {"round": state["round"], "walks": walks, "photos": self._photo_phase(state)}
        if state["round"] == components.ROUNDS:
            # Exception 2: no Refill phase in the final round; the game ends.
            state["phase"] = OVER
            record["result"] = self.result(state)
            return record
        hands = []
        for seat in range(n):
            # Exception 1: once the deck is empty (the second to last round) only the passed card.
            hand = [state["passing"][(seat - 1) % n]]
            if state["deck"]:
                hand.append(state["deck"].pop(0))
            state["hands"][seat] = hand
            hands.append(hand)
        state["passing"] = [None] * n
        state["round"] += 1
        state["phase"] = SCENE
        record["hands"] = hands
        record["deck"] = len(state["deck"])
        return record

    def _photo_phase(self, state: dict) -> list[dict]:
        grids = [layout.visible(land) for land in state["landscapes"]]
        taken = []
        for photo in state["photos"]:
            have = photos.holders(photo)
            seats = [
                s
                for s in range(state["players"])
                if s not in have and photos.completed(grids[s], state["landscapes"][s], photo["card"])
            ]
            if not seats:
                continue
            spot = photos.award(photo, seats)
            for s in seats:
                state["markers"][s] -= 1
                assert state["markers"][s] >= 0, "7 markers cover the 7 face-up photo cards"
            taken.append(
                {
                    "card": photo["card"],
                    "seats": seats,
                    "spot": spot,
                    "points": cards.PHOTO[photo["card"]]["spots"][spot],
                }
            )
        return taken

    # -- what people see ------------------------------------------------------------------------
    def view(self, state: dict, viewer: int | None) -> dict:
        return views.view(state, viewer, sorted(self.active_players(state)), self.result(state))

    def describe(self, event: Mapping[str, Any], viewer: int | None) -> dict:
        return views.describe(event, viewer)

    def standing(self, view: Mapping[str, Any]) -> list[dict]:
        return scoring.standing(dict(view))

    def result(self, state: dict) -> dict | None:
        if state["phase"] != OVER:
            return None
        scores, keys, breakdown = scoring.final(state)
        return base.make_result(
            scores, keys, breakdown=breakdown, tie_break="fewer player markers placed, then shared victory"
        )
