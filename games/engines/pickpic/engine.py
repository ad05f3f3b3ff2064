"""Pick Pic: rounds of reveal, give (simultaneous, secret), rank (simultaneous, secret), evaluate.

State (plain JSON; per-seat data are lists indexed by seat):
  players, options {target, comments}, _seed, round, phase ("give" | "rank" | "over"),
  deck (top = last; never shown), discard, reshuffles (how many refills so far),
  table (the revealed photo in front of each seat), hands (secret hands in the give phase),
  gifts (per giver: None until given, then {"<receiver>": [cards]}), random (per seat: the random
  card of its stack), stacks (per seat: received + random, shuffled), rankings (per seat: None
  until ranked, then {"order", "comments"}), scores, tally (per seat: where the points came from),
  last_round (the public evaluation of the latest round).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from .. import base
from . import deck as decks
from . import moves as mv
from . import scoring, views
from . import schemas
from .cards import CATALOGUE, image_path

DEFAULT_TARGET = 20


class PickPic(base.Engine):
    kind = "pickpic"
    title = "Pick Pic"
    min_players = 3
    max_players = 5
    # 1: the deck was refilled from the discards mid-round (the random card could be told apart);
    # 2: a round the deck cannot cover is dealt from the deck and the discards shuffled together.
    # The evaluation's visibility (what the table reveals) is the same for every version.
    rules_version = 2
    rules_versions = (1, 2)

    # -- identity and options -----------------------------------------------------------------
    def options_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "target": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 200,
                    "default": DEFAULT_TARGET,
                    "description": "the game ends after a round in which a player "
                    "reached this many points (rulebook: 20)",
                },
                "comments": {
                    "type": "boolean",
                    "default": False,
                    "description": "variant: a ranker may attach a short comment to "
                    f"each card (up to {mv.COMMENT_MAX} characters), "
                    "shown at evaluation",
                },
            },
            "additionalProperties": False,
        }

    def move_schema(self) -> dict[str, Any]:
        return mv.move_schema()

    def view_schema(self) -> dict[str, Any]:
        return schemas.VIEW

    def event_schema(self) -> dict[str, Any]:
        return schemas.EVENT

    # -- setup and rounds ---------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: str) -> base.State:
        if not (type(players) is int and self.min_players <= players <= self.max_players):
            raise ValueError(f"Pick Pic is for {self.min_players} to {self.max_players} players")
        options = dict(options or {})
        unknown = sorted(set(options) - {"target", "comments"})
        if unknown:
            raise ValueError(f"unknown option(s): {unknown}")
        target = options.get("target", DEFAULT_TARGET)
        comments = options.get("comments", False)
        if not (type(target) is int and 1 <= target <= 200):
            raise ValueError("option 'target' must be an integer from 1 to 200")
        if type(comments) is not bool:
            raise ValueError("option 'comments' must be a boolean")
        state: base.State = {
            "players": players,
            "options": {"target": target, "comments": comments},
            "_seed": seed,
            "round": 0,
            "phase": "give",
            "deck": decks.new_deck(seed),  # Setting Up: "Shuffle the cards ... face-down deck"
            "discard": [],
            "reshuffles": 0,
            "scores": [0] * players,
            "tally": [scoring.new_tally() for _ in range(players)],
            "last_round": None,
        }
        start_round(state, self.rules_version)
        return state

    def active_players(self, state: base.State) -> set[int]:
        if state["phase"] == "give":
            return {s for s, g in enumerate(state["gifts"]) if g is None}
        if state["phase"] == "rank":
            return {s for s, r in enumerate(state["rankings"]) if r is None}
        return set()

    def move_types(self, state: base.State, seat: int | None) -> set[str]:
        if seat is None or seat not in self.active_players(state):
            return set()
        return {state["phase"]}

    def legal_moves(self, state: base.State, seat: int) -> list[base.Move]:
        if seat not in self.active_players(state):
            return []
        if state["phase"] == "give":
            return mv.give_moves(state["players"], seat, state["hands"][seat])
        return mv.rank_moves(state["stacks"][seat])

    # -- moves --------------------------------------------------------------------------------
    def step(self, state: base.State, actor: int | None, move: base.Move, at: datetime) -> base.Step:
        base.require(isinstance(move, dict), "a move is an object")
        if type(actor) is not int or not 0 <= actor < state["players"]:
            raise base.IllegalMove("only a seated player moves in Pick Pic")
        phase, kind = state["phase"], move.get("type")
        base.require(phase != "over", "the game is over")
        base.require(kind == phase, "'%(kind)s' is not a move of the %(phase)s phase", kind=kind, phase=phase)
        if phase == "give":
            base.require(state["gifts"][actor] is None, "you have already given your cards")
            return self._give(state, actor, move)
        base.require(state["rankings"][actor] is None, "you have already ranked your stack")
        return self._rank(state, actor, move)

    def _give(self, state: base.State, actor: int, move: base.Move) -> base.Step:
        gifts = mv.check_give(move, state["players"], actor, state["hands"][actor])
        new = base.clone(state)
        new["gifts"][actor] = gifts
        new["hands"][actor] = []
        record: dict[str, Any] = {"round": new["round"]}
        if all(g is not None for g in new["gifts"]):
            record.update(deal_random_cards(new))
        return base.Step(new, "CardsGiven", record)

    def _rank(self, state: base.State, actor: int, move: base.Move) -> base.Step:
        ranking = mv.check_rank(move, state["stacks"][actor], state["options"]["comments"])
        new = base.clone(state)
        new["rankings"][actor] = ranking
        if any(r is None for r in new["rankings"]):
            return base.Step(new, "CardsRanked", {"round": new["round"]})
        record = evaluate(new, self.rules_version)
        if new["phase"] == "over":
            record["result"] = self.result(new)
        return base.Step(new, "RoundEvaluated", record)

    # -- views and the end --------------------------------------------------------------------
    def view(self, state: base.State, viewer: int | None) -> dict[str, Any]:
        return views.view(state, viewer, sorted(self.active_players(state)), self.result(state))

    def describe(self, event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
        return views.describe(event, viewer)

    def standing(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        # the table's scores: public after every round's evaluation
        return [{"seats": [s], "score": score} for s, score in enumerate(view["scores"])]

    def catalogue(self) -> list[dict[str, Any]]:
        return [{**card, "image": image_path(card["id"])} for card in CATALOGUE]

    def result(self, state: base.State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        scores = dict(enumerate(state["scores"]))
        breakdown = {s: {**state["tally"][s], "total": state["scores"][s]} for s in scores}
        # End of the Game: "the player with the highest points is the winner. In case of a tie,
        # share the victory." No tie-break: equal scores share the place.
        return base.make_result(scores, {s: (v,) for s, v in scores.items()}, breakdown=breakdown)


# ---------------------------------------------------------------------------------------------
# Round structure (these mutate the state they are given: call them on a clone)
# ---------------------------------------------------------------------------------------------
def round_size(players: int) -> int:
    """The cards one round uses: a photo, a hand and a random card per seat."""
    return players * (1 + mv.hand_size(players) + 1)


def start_round(state: base.State, rules_version: int) -> dict[str, Any]:
    """1. Reveal a card ("Draw one card and place it face-up in front of each player"), then
    2. each player draws a secret hand."""
    n = state["players"]
    refills = state["reshuffles"]
    if rules_version >= 2 and len(state["deck"]) < round_size(n):
        decks.mix_in_discards(state)  # the whole round from one pool (see deck.py)
    state["round"] += 1
    state["phase"] = "give"
    state["table"] = decks.draw(state, n)
    state["hands"] = [decks.draw(state, mv.hand_size(n)) for _ in range(n)]
    state["gifts"] = [None] * n
    state["random"] = [None] * n
    state["stacks"] = [None] * n
    state["rankings"] = [None] * n
    return {
        "round": state["round"],
        "table": list(state["table"]),
        "hands": [list(h) for h in state["hands"]],
        "deck_size": len(state["deck"]),
        "reshuffled": state["reshuffles"] - refills,
    }


def deal_random_cards(state: base.State) -> dict[str, Any]:
    """3. Rank cards: "draw one random card from the deck and shuffle it into your stack"."""
    n = state["players"]
    refills = state["reshuffles"]
    state["random"] = decks.draw(state, n)
    stacks = []
    for seat in range(n):
        # Sorted before the shuffle: the stack's order then depends on its cards and the seed
        # only, never on who gave which card nor on which one is the random card.
        stack = sorted([*scoring.giver_of(state["gifts"], seat), state["random"][seat]])
        base.rng(state["_seed"], "stack", state["round"], seat).shuffle(stack)
        stacks.append(stack)
    state["stacks"] = stacks
    state["phase"] = "rank"
    return {
        "stacks": [list(s) for s in stacks],
        "deck_size": len(state["deck"]),
        "reshuffled": state["reshuffles"] - refills,
    }


def round_cards(state: base.State) -> list[int]:
    """Every card used in the current round: photos, gifts and random cards."""
    cards = list(state["table"]) + [c for c in state["random"] if c is not None]
    for given in state["gifts"]:
        for to_cards in (given or {}).values():
            cards += to_cards
    cards += [c for hand in state["hands"] for c in hand]
    return cards


def evaluate(state: base.State, rules_version: int) -> dict[str, Any]:
    """4. Evaluate scores, End of the Round (discard), End of the Game or the next round."""
    n = state["players"]
    outcome = scoring.evaluate_round(
        n, state["gifts"], state["random"], state["rankings"], state["options"]["comments"]
    )
    for seat in range(n):
        state["scores"][seat] += outcome["points"][seat]
        for key in scoring.TALLY_KEYS:
            state["tally"][seat][key] += outcome["breakdown"][seat][key]
    # The whole round, kept for the record and the audit; `views.public_round` shows each
    # viewer only what the table reveals (no giver below a random card, say).
    state["last_round"] = {
        "round": state["round"],
        "table": list(state["table"]),
        "gifts": base.clone(state["gifts"]),
        "random": list(state["random"]),
        "stacks": outcome["stacks"],
        "points": outcome["points"],
        "breakdown": outcome["breakdown"],
        "scores": list(state["scores"]),
    }
    # End of the Round: "discard all the cards used during this round".
    discarded = sorted(round_cards(state))
    state["discard"] += discarded
    record: dict[str, Any] = {
        "round": state["round"],
        "evaluation": base.clone(state["last_round"]),
        "discarded": discarded,
    }
    # End of the Game: "At the end of the round, if one or more players have reached 20 points,
    # the game ends".
    if max(state["scores"]) >= state["options"]["target"]:
        state["phase"] = "over"
        state["table"], state["hands"] = [], [[] for _ in range(n)]
        for key in ("gifts", "random", "stacks", "rankings"):
            state[key] = [None] * n
        record["next"] = None
    else:
        record["next"] = start_round(state, rules_version)
    return record
