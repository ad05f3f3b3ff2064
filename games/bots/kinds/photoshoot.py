"""Photoshoot's bot kit: a seat at a real-time table.

The table is public but for the order of the objective and Effect piles and the verdict on the
latest action. The kit imagines the piles at random and plays everything else as the view shows
it; it is generic over the engine's legal moves (it tries them on the imagined state and reads
what the engine makes of them), so new rules keep working.

- Everybody posts `ready`. Under rules version 1 a teammate posts the wave or answer it owes at
  once (levels 2 and 3); from version 2 on the team's part is declared with the action (the
  `wave` and `answered` rituals the engine's moves carry), and no teammate's move exists.
- The photographer tries each action on the imagined table: an action the engine judges an
  error is never chosen, nor (levels 2 and 3) one that returns the square to a position it held
  in the latest actions since the objective was revealed (no swap straight back, no team
  circling: the log shows those squares). Level 2 takes the action that places most
  characters; level 3 searches sequences of correct actions (breadth first, a few moves deep)
  for the shortest way to the objective, and calls "Photo!" when the square matches it. When
  what it found by the end of its CPU budget is no better than one move, level 3 plays level
  2's choice. A
  mend at the ready step is chosen the same way, among the mends the engine offers.
- The Control team challenges on evidence only: it replays the latest action on the table as it
  stood before (the log shows that square) and challenges when the engine finds an error there.
  Without evidence it lets the action stand (`pass`, rules version 2) or does not act (`None`).
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta

from games.engines.base import EngineError
from games.engines.photoshoot import effects as fx
from games.engines.photoshoot import grid as g
from games.engines.photoshoot import objectives as obj

from . import Kit

ACTIONS = ("swap", "push", "photo", "mend")


def _time(view) -> datetime:
    start = view.get("hourglass_started")
    from games.bots.search import AT

    return datetime.fromisoformat(start) + timedelta(seconds=1) if start else AT


class PhotoshootKit(Kit):
    def determinize(self, me, rng: random.Random) -> dict:
        v = me.view
        n = v["players"]
        in_hand = {c["id"] for cards in v["effects"] for c in cards}
        piles = {}
        for colour, size in v["effect_piles"].items():
            unseen = sorted(c for c, card in fx.CARDS.items() if card["colour"] == colour and c not in in_hand)
            rng.shuffle(unseen)
            piles[colour] = unseen[:size]
        current = v["objective"]["id"] if v["objective"] else None
        others = [c for c in range(obj.COUNT) if c != current]
        rng.shuffle(others)
        size = v["objective_pile_size"]
        teams = [list(t) for t in v["teams"]]
        photographers = v["photographers"] if v["photographers"] is not None else 0
        turn = [0] * len(teams)
        if v["turn"] is not None:
            turn[photographers] = teams[photographers].index(v["turn"])
        last = None
        if v["last_action"]:
            last = {
                **v["last_action"],
                "faults": [],
                "owed": v["last_action"].get("owed") or {"wave": [], "answer": []},
            }
        hourglass = {"start": v["hourglass_started"], "deadline": v["deadline"]} if v["deadline"] else None
        state = {
            "players": n,
            "options": {
                "level": v["level"],
                "family": v["family"],
                "hourglass_seconds": v["hourglass_seconds"],
                "teams": me.options.get("teams", "alternate"),
            },
            "_seed": f"imagined:{rng.random()}",
            "mode": v["mode"],
            "teams": teams,
            "photographers": photographers,
            "photo_rounds": list(v["photo_rounds"]),
            "round": v["round"],
            "phase": v["phase"],
            "ready": list(v["ready"]),
            "grid": list(v["grid"]),
            "objective": current,
            "objective_pile": others[:size],
            "objective_discard": others[size:],
            "piles": piles,
            "effects": [[c["id"] for c in cards] for cards in v["effects"]],
            "drawn": [[t for t in fx.THRESHOLDS if t <= score] for score in v["scores"]],
            "scores": list(v["scores"]),
            "tokens": v["tokens_left"],
            "tally": dict(v["tally"] or {"validated": 0, "photographer_tokens": 0, "control_tokens": 0}),
            "turn": turn,
            "hourglass": hourglass,
            "actions": last["number"] if last else 0,
            "last": last,
            # Version 3 names the seat that owes Max's stroke (the view shows it).
            "stroke_due": v.get("stroke_due") if me.engine.rules_version >= 3 else False,
            "last_round": v["last_round"],
        }
        if me.engine.rules_version >= 2:
            # The engine reads its rules from the state (as its setup wrote them): without this
            # the imagined table plays version 1 and refuses version 2's declared rituals.
            state["rules_version"] = me.engine.rules_version
        if v.get("forfeited"):
            # The seats that left: the turn skips them and, from version 3, so does "the player
            # after" (Olivia's slap, Max's stroke), so a table without them judges otherwise.
            state["_forfeited"] = list(v["forfeited"])
        if last is not None:
            before = {
                "grid": list(v["grid"]),
                "objective": current,
                "objective_pile": list(state["objective_pile"]),
                "objective_discard": list(state["objective_discard"]),
                "stroke_due": state["stroke_due"],
                "validated": state["tally"]["validated"],
            }
            last["before"] = before
        return state

    def evaluate(self, me, state: dict) -> float:
        return 0.0

    # -- deciding -----------------------------------------------------------------------------
    def random_move(self, me, rng: random.Random) -> dict | None:
        """Level 1 acts at random, but challenges only on evidence like every level (and a
        control seat's `pass`, rules version 2, is no action to pick at random either)."""
        moves = [m for m in me.legal if m["type"] not in ("challenge", "pass")]
        if moves:
            return rng.choice(moves)
        challenges = [m for m in me.legal if m["type"] == "challenge"]
        if challenges and self._evidence(me):
            return challenges[0]
        return next((m for m in me.legal if m["type"] == "pass"), None)

    def decide(self, me, level: int, rng: random.Random, budget) -> dict | None:
        by_type: dict[str, list[dict]] = {}
        for move in me.legal:
            by_type.setdefault(move["type"], []).append(move)
        for duty in ("ready", "wave", "answer"):
            if duty in by_type:
                return by_type[duty][0]
        actions = [m for m in me.legal if m["type"] in ACTIONS]
        if actions:
            return self._photograph(me, actions, level, rng, budget)
        if "challenge" in by_type:
            if self._evidence(me):
                return by_type["challenge"][0]
            # Rules version 2 lets a control seat say it lets the action stand; otherwise it
            # simply does not act.
            return by_type["pass"][0] if "pass" in by_type else None
        return rng.choice(me.legal)

    def _play(self, me, state: dict, actor: int, move: dict):
        """(state after, whether the engine found an error in the move), or None if refused."""
        try:
            step = me.engine.play(state, actor, move, _time(me.view))
        except EngineError:
            return None
        last = step.state.get("last") or {}
        error = step.event_type == "ErrorCaught" or bool(last.get("faults"))
        return step.state, error

    def _placed(self, state: dict) -> int:
        return obj.placed(state["grid"], state["objective"]) if state["objective"] is not None else 0

    def _photograph(self, me, actions: list[dict], level: int, rng: random.Random, budget) -> dict:
        started = time.process_time()
        world = me.imagine(rng)
        correct = []
        for move in actions:
            played = self._play(me, world, me.seat, move)
            if played and not played[1]:
                correct.append((move, played[0]))
        if not correct:
            return rng.choice(actions)
        photos = [m for m, _ in correct if m["type"] == "photo"]
        if photos:
            return photos[0]
        recent = self._recent_squares(me)
        fresh = [(m, s) for m, s in correct if tuple(s["grid"]) not in recent] or correct
        most = max(self._placed(s) for _, s in fresh)
        greedy = rng.choice([m for m, s in fresh if self._placed(s) == most])
        if level == 2 or not me.view["objective"]:
            return greedy
        stop = None if budget.seconds is None else started + budget.seconds
        effects = [c["id"] for c in me.view["effects"][me.view["photographers"] or 0]]
        objective = me.view["objective"]["id"]
        first, grid = self._shortest(fresh, effects, objective, rng, stop, recent)
        if obj.matches(grid, objective) or obj.placed(grid, objective) > most:
            return first
        # Looking ahead found nothing better than one move does (or the budget ran out before
        # it did): level 2's choice, whose random pick among equals keeps the team moving.
        return greedy

    @staticmethod
    def _recent_squares(me, span: int = 8) -> set[tuple]:
        """The squares of the latest `span` log entries that show one, back to the latest
        "Photo!" (whose square is the one the objective was revealed on; the square carries
        over from one round to the next, so rounds do not cut it): a correct action
        that returns to one of them undoes a recent action (a swap straight back, or a team
        going round in a circle) and gets no nearer the objective."""
        found: set[tuple] = set()
        for entry in reversed(me.log):
            record = entry.get("record") or entry
            grid = record.get("grid") if isinstance(record, dict) else None
            if isinstance(grid, list):
                found.add(tuple(grid))
                if len(found) >= span:
                    break
            if entry.get("type") == "PhotoCalled":
                break
        return found

    def _shortest(
        self,
        fresh,
        effects: list[str],
        objective: int,
        rng: random.Random,
        stop: float | None = None,
        recent: set[tuple] = frozenset(),
        width: int = 400,
    ) -> tuple[dict, tuple]:
        """Breadth first from the squares the correct actions `fresh` leave, over the moves the
        team's Effect cards allow (`effects.correct_movements`, the rules the engine judges
        by; a teammate's rituals cannot change the square): (first move, square) of the
        shortest way to a square that matches the objective; failing that, of the way that
        places most characters, found so far. Without a time budget it looks three moves
        ahead (reproducible); with one (`stop`, a CPU time) it looks deeper, up to six, until
        the budget runs out. A square of `recent` is never entered."""
        frontier = [(m, tuple(state["grid"])) for m, state in fresh]
        best = max(frontier, key=lambda f: obj.placed(f[1], objective))
        most = obj.placed(best[1], objective)
        seen = set(recent) | {grid for _, grid in frontier}
        for _ in range(5 if stop is not None else 2):
            following = []
            for first, grid in frontier:
                if obj.matches(grid, objective):
                    return first, grid
                if stop is not None and time.process_time() > stop:
                    return best
                for movement in fx.correct_movements(grid, effects):
                    after = tuple(
                        g.swap(grid, movement[1], movement[2])
                        if movement[0] == "swap"
                        else g.push(grid, movement[1], movement[2])
                    )
                    if after in seen:
                        continue
                    seen.add(after)
                    following.append((first, after))
                    placed = obj.placed(after, objective)
                    if placed > most:
                        best, most = (first, after), placed
            if not following:
                break
            frontier = following if len(following) <= width else rng.sample(following, width)
        return next(((first, grid) for first, grid in frontier if obj.matches(grid, objective)), best)

    def _evidence(self, me) -> bool:
        """Whether the latest action broke a rule, judged on the table as it stood before it."""
        last = me.view.get("last_action")
        if not last or last.get("kind") not in ("swap", "push", "photo"):
            return False
        before = None
        for entry in reversed(me.log):
            record = entry.get("record") or entry
            if record.get("action") == last["number"] and entry.get("type") in (
                "CharactersSwapped",
                "RowPushed",
                "PhotoCalled",
            ):
                continue
            if isinstance(record.get("grid"), list):
                before = record["grid"]
                break
        if before is None:
            if last["kind"] != "swap":
                return False
            a, b = last["cells"]
            before = list(last["grid"])
            before[a], before[b] = before[b], before[a]
        world = self.determinize(me, random.Random(0))
        world.update(grid=list(before), last=None, actions=last["number"] - 1)
        if "stroke_owed" in last:
            # Version 3: whether its player owed Max's stroke then, not who owes it now.
            world["stroke_due"] = last["seat"] if last["stroke_owed"] else None
        if last["kind"] == "photo" and last.get("validated") is not None:
            world["objective"] = last["validated"]
        team = world["teams"][world["photographers"]]
        if last["seat"] not in team:
            return False
        world["turn"][world["photographers"]] = team.index(last["seat"])
        move = {"type": last["kind"], "rituals": last.get("rituals") or {}}
        if last["kind"] == "swap":
            move["cells"] = list(last["cells"])
        elif last["kind"] == "push":
            move.update(cell=last["cell"], direction=last["direction"])
        played = self._play(me, world, last["seat"], move)
        return bool(played and played[1])


KIT = PhotoshootKit()
