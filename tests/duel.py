"""Duel: the tiny two-player card game the server's tests play (not a real product game).

Twelve cards D01..D12 are shuffled from the seed; each seat holds three, hidden from the other.
Seats take turns playing a card face up; when both have played, the higher card wins the trick
and each seat draws from the deck (the drawn card is seen by its drawer only). When the hands are
empty, most tricks wins. It has everything the server must handle: a secret seed, a hidden deck,
hidden hands, a log entry with a private part, and an end. With the `hourglass` option each turn
has that many seconds, as Photoshoot's round does: when it runs out, the system plays the active
seat's lowest card (an engine deadline, not a player clock).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.engines import base
from games.engines.base import Step, clone, require


def value(card: str) -> int:
    return int(card[1:])


class Duel(base.Engine):
    kind = "duel"
    title = "Duel (test game)"
    min_players = 2
    max_players = 2

    def options_schema(self):
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "hand_size": {"type": "integer", "minimum": 1, "maximum": 6, "default": 3},
                "hourglass": {"type": "integer", "minimum": 0, "maximum": 600, "default": 0},
            },
        }

    def move_schema(self):
        return {
            "type": "object",
            "required": ["type", "card"],
            "properties": {"type": {"const": "play"}, "card": {"type": "string", "pattern": "^D[0-9]{2}$"}},
        }

    def setup(self, players, options, seed):
        deck = [f"D{n:02d}" for n in range(1, 13)]
        base.rng(seed, "deck").shuffle(deck)
        size = options.get("hand_size", 3)
        hands = [deck[:size], deck[size : 2 * size]]
        return {
            "players": players,
            "deck": deck[2 * size :],
            "hands": hands,
            "turn": 0,
            "trick": [],
            "tricks": [0, 0],
            "discard": [],
            "hourglass": options.get("hourglass", 0),
            "turn_started": None,
        }

    def active_players(self, state):
        return set() if self.result(state) else {state["turn"]}

    def legal_moves(self, state, seat):
        return [{"type": "play", "card": card} for card in state["hands"][seat]]

    def deadlines(self, state):
        if not state.get("hourglass") or self.result(state) or state.get("turn_started") is None:
            return []
        at = datetime.fromisoformat(state["turn_started"]) + timedelta(seconds=state["hourglass"])
        return [base.Deadline(at=at, kind="hourglass", move={"type": "hourglass_run_out"}, seat=state["turn"])]

    def step(self, state, actor, move, at: datetime) -> Step:
        if actor is None:
            require(move == {"type": "hourglass_run_out"} and self.deadlines(state), "no timer is due")
            actor = state["turn"]
            move = {"type": "play", "card": min(state["hands"][actor], key=value)}
        card = move.get("card")
        require(set(move) == {"type", "card"}, "a play is {type, card}")
        require(isinstance(card, str) and card in state["hands"][actor], "you do not hold that card")
        new = clone(state)
        new["hands"][actor].remove(card)
        new["trick"].append([actor, card])
        record = {"card": card, "drawn": {}}
        if len(new["trick"]) == 2:
            (s0, c0), (s1, c1) = new["trick"]
            winner = s0 if value(c0) > value(c1) else s1
            new["tricks"][winner] += 1
            new["discard"] += [c0, c1]
            new["trick"] = []
            record["winner"] = winner
            for seat in (winner, 1 - winner):
                if new["deck"]:
                    drawn = new["deck"].pop(0)
                    new["hands"][seat].append(drawn)
                    record["drawn"][str(seat)] = drawn
            new["turn"] = winner
        else:
            new["turn"] = 1 - actor
        if new.get("hourglass"):
            new["turn_started"] = at.isoformat()
        return Step(new, "CardPlayed", record)

    def view(self, state, viewer):
        return {
            "phase": "over" if self.result(state) else "play",
            "active": sorted(self.active_players(state)),
            "players": state["players"],
            "deck_size": len(state["deck"]),
            "hand_sizes": [len(h) for h in state["hands"]],
            "hand": state["hands"][viewer] if viewer is not None else None,
            "trick": state["trick"],
            "tricks": state["tricks"],
            "discard": state["discard"],
        }

    def describe(self, event, viewer):
        record = event["data"]["record"]
        drawn = {seat: card for seat, card in record["drawn"].items() if viewer == int(seat)}
        return {
            "seq": event["seq"],
            "type": event["type"],
            "actor": event["actor"],
            "card": record["card"],
            "winner": record.get("winner"),
            "drawn": drawn,
        }

    def reveals(self, event):
        # A card played is its player's own choice; a card drawn from the deck is a secret seen.
        return bool(event["data"]["record"].get("drawn"))

    def result(self, state):
        if any(state["hands"]) or state["trick"]:
            return None
        return base.make_result(dict(enumerate(state["tricks"])))


ENGINE = Duel()
