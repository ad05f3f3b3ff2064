"""Photoshoot: the real-time team game. Rounds of a ready step, then actions against the
hourglass, which the server runs (`deadlines`): see docs/photoshoot.md."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from .. import base
from . import challenges as ch
from . import effects as fx
from . import grid as g
from . import moves as mv
from . import rituals as rt
from . import rounds, scoring, views


class Photoshoot(base.Engine):
    kind = "photoshoot"
    title = "Photoshoot"
    min_players = 2
    max_players = 6
    # Version 2 (docs/photoshoot.md, "Rules versions"): the teammates' rituals declared with the
    # action, a mend is one movement with its rituals, `pass` (the timeout's move), results that
    # place teams and give a lost cooperative game no winners. Version 1 stays for its games.
    # Version 3: a forfeit never wins a cooperative game, Olivia's slap and Max's stroke go to
    # the player after the mover (forfeited seats skipped; a pass or a mend hands nothing on),
    # equal team scores ask for a rematch. Versions 1 and 2 stay for their games.
    rules_version = 3
    rules_versions = (1, 2, 3)

    # -- identity and options -----------------------------------------------------------------
    def options_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "level": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 5,
                    "default": 1,
                    "description": "difficulty level (1: the Base Level): which Effect "
                    "cards a team draws at 0, 5 and 15 points",
                },
                "family": {
                    "type": "boolean",
                    "default": False,
                    "description": "Family Variant: only blue Effect cards are drawn",
                },
                "hourglass_seconds": {
                    "type": "integer",
                    "minimum": 5,
                    "maximum": 3600,
                    "default": rounds.DEFAULT_HOURGLASS,
                    "description": "the hourglass (rulebook: 90 seconds)",
                },
                "teams": {
                    "type": "string",
                    "enum": ["alternate", "halves"],
                    "default": "alternate",
                    "description": "4-6 players, who is on which team by seat: alternate "
                    "(0, 2, 4 against 1, 3, 5) or halves (0, 1, 2 against "
                    "3, 4, 5); team 0 photographs first. Ignored with 2-3 "
                    "players (cooperative)",
                },
            },
            "additionalProperties": False,
        }

    def move_schema(self) -> dict[str, Any]:
        return mv.move_schema()

    def view_schema(self) -> dict[str, Any]:
        return views.view_schema()

    def setup(self, players: int, options: Mapping[str, Any], seed: str) -> base.State:
        if not (type(players) is int and self.min_players <= players <= self.max_players):
            raise ValueError("Photoshoot is for 2 to 6 players")
        known = self.options_schema()["properties"]
        options = {name: spec["default"] for name, spec in known.items()} | dict(options or {})
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"unknown option(s): {unknown}")
        if not (type(options["level"]) is int and 1 <= options["level"] <= 5):
            raise ValueError("option 'level' must be an integer from 1 to 5")
        if type(options["family"]) is not bool:
            raise ValueError("option 'family' must be a boolean")
        if options["teams"] not in ("alternate", "halves"):
            raise ValueError("option 'teams' must be 'alternate' or 'halves'")
        seconds = options["hourglass_seconds"]
        if not (type(seconds) is int and 5 <= seconds <= 3600):
            raise ValueError("option 'hourglass_seconds' must be an integer from 5 to 3600")
        state = rounds.new_state(players, options, seed)
        if self.rules_version >= 2:
            state["rules_version"] = self.rules_version
        if self.rules_version >= 3:
            state["stroke_due"] = None  # version 3 names the seat that owes Max's stroke
        return state

    # -- who acts -------------------------------------------------------------------------------
    def move_types(self, state: base.State, seat: int | None) -> set[str]:
        if seat is None or state["phase"] == "over":
            return set()
        found: set[str] = set()
        if state["phase"] == "ready":
            if seat in rounds.awaiting_ready(state):
                found.add("ready")
            if rounds.mending(state) and seat == rounds.current_photographer(state):
                found.add("mend")
            return found
        declared = rounds.declared(state)
        if seat == rounds.current_photographer(state) and not (declared and seat in self.forfeited(state)):
            found.update(mv.ACTIONS)
            if declared:
                found.add(mv.PASS)
        found.update(ch.owes(state, seat))
        last = state["last"]
        if (
            last
            and last["status"] == "open"
            and seat in self._controllers(state)
            and seat not in last.get("passed", ())
        ):
            found.add("challenge")
            if declared:
                found.add(mv.PASS)
        return found

    def _controllers(self, state: base.State) -> list[int]:
        out = set(self.forfeited(state))
        return [s for s in rounds.control(state) if s not in out]

    def active_players(self, state: base.State) -> set[int]:
        return {s for s in range(state["players"]) if self.move_types(state, s)}

    def legal_moves(self, state: base.State, seat: int) -> list[base.Move]:
        types = self.move_types(state, seat)
        found: list[base.Move] = []
        if "ready" in types:
            found.append({"type": "ready"})
        declared = rounds.declared(state)
        if "mend" in types:
            if declared:
                found += mv.mend_moves_v2(
                    state["grid"], rounds.team_effects(state), seat, rounds.table_order(state), state["players"]
                )
            else:
                found += mv.mend_moves(state["grid"], rounds.team_effects(state))
        if "swap" in types:
            found += mv.action_moves(
                state["grid"],
                rounds.team_effects(state),
                state["objective"],
                seat,
                rounds.table_order(state),
                state["players"],
                declared,
                every=rounds.by_player(state),
            )
        found += [{"type": kind} for kind in mv.TEAM_RITUALS if kind in types]
        if "challenge" in types:
            found.append({"type": "challenge", "action": state["last"]["number"]})
        if mv.PASS in types:
            found.append({"type": mv.PASS})
        return found

    def auto_move(self, state: base.State, seat: int, rng) -> base.Move:
        """A timeout is a timeout (rules version 2): the server never chooses an action for a
        timed-out seat, so it can neither give the other team a token nor win one. The
        photographer on turn and a control seat pass (the photographers lose the time, the
        control seat its chance to challenge); a seat the ready step waits for is made ready, and
        a mend the round cannot start without is the first correct one offered, rituals done.
        Version 1 draws from `legal_moves` (errors and challenges included)."""
        if not rounds.declared(state):
            return super().auto_move(state, seat, rng)
        if mv.PASS in self.move_types(state, seat):
            return {"type": mv.PASS}
        return self.legal_moves(state, seat)[0]

    # Log entries that show nobody anything hidden: the table is public, and none of these draws
    # from a pile or gives a verdict. A "Photo!" reveals the next objective, a challenge (or the
    # cooperative referee) a verdict, the hourglass's end the Effect cards drawn: those, and any
    # type not listed here, count as reveals (the cautious default), so no rollback crosses them.
    SILENT = frozenset(
        {"PlayerReady", "SquareMended", "CharactersSwapped", "RowPushed", "WaveJoined", "EdgarAnswered", "Passed"}
    )

    def reveals(self, event: Mapping[str, Any]) -> bool:
        return event.get("type") not in self.SILENT and super().reveals(event)

    # -- moves ------------------------------------------------------------------------------------
    def step(self, state: base.State, actor: int | None, move: base.Move, at: datetime) -> base.Step:
        kind = move["type"]
        new = base.clone(state)
        if actor is None:
            base.require(kind == mv.SYSTEM, "the system only turns the hourglass ('%(SYSTEM)s')", SYSTEM=mv.SYSTEM)
            base.require(state["phase"] == "round", "no hourglass is running")
            return base.Step(new, "HourglassRanOut", self._end_round(new))
        base.require(kind in self.move_types(state, actor), "'%(kind)s' is not available now", kind=kind)
        ends = rounds.deadline(new)  # None outside a round
        if ends is not None and at >= ends:
            # The server settles the expiry before judging a move, so a late move never gets
            # here over HTTP; called directly, the engine still refuses to play it: the round
            # ends instead, the late move is not applied.
            return base.Step(new, "HourglassRanOut", {**self._end_round(new), "late_move": kind})
        if kind == "ready":
            return self._ready(new, actor, move, at)
        if kind == "mend" and rounds.declared(new):
            return self._mend(new, actor, move, at)
        if kind == mv.PASS:
            mv.only_fields(move, ())
            return base.Step(new, "Passed", ch.pass_move(new, actor))
        if kind == "mend":
            mv.only_fields(move, ("cells",))
            a, b = mv.parse_pair(move)
            effects = rounds.team_effects(new)
            base.require(
                fx.swap_fault(new["grid"], a, b, effects) is None, fx.swap_fault(new["grid"], a, b, effects) or ""
            )
            new["grid"] = g.swap(new["grid"], a, b)
            record = {"seat": actor, "cells": [a, b], "grid": list(new["grid"]), "mended": not rounds.mending(new)}
            record["hourglass"] = base.clone(new["hourglass"]) if rounds.maybe_start_hourglass(new, at) else None
            return base.Step(new, "SquareMended", record)
        if kind in mv.TEAM_RITUALS:
            mv.only_fields(move, ())
            return base.Step(new, "WaveJoined" if kind == "wave" else "EdgarAnswered", ch.join(new, actor, kind))
        if kind == "challenge":
            number = mv.parse_challenge(move)
            return base.Step(new, "ActionChallenged", ch.challenge(new, actor, number))
        action = mv.parse_action(move, new["players"], rounds.declared(new))
        if new["mode"] == "coop":
            event, record = ch.coop_action(new, actor, action)
            return base.Step(new, event, record)
        ch.close_window(new)
        return base.Step(new, ch.EVENT[kind], ch.perform(new, actor, action))

    def _mend(self, new: base.State, actor: int, move: base.Move, at: datetime) -> base.Step:
        """Rules version 2, Arthur's and James's notes: "make a move to separate them (bring them
        closer) before starting". A mend is one movement, a swap or Jo's push, made as any move
        is: the team's effects and the blue cards' rituals apply. Nothing is hidden before the
        hourglass, so the server refuses a mend that breaks a rule, or one that leaves the
        square unmended when a single movement mends it (the rulebook's "a move"); only when
        none does may the player mend again."""
        action = mv.parse_mend(move, new["players"])
        effects, team, grid = rounds.team_effects(new), rounds.table_order(new), new["grid"]
        if action["kind"] == "swap":
            a, b = action["cells"]
            fault, movement = fx.swap_fault(grid, a, b, effects), ("swap", a, b)
            after = g.swap(grid, a, b)
        else:
            fault = fx.push_fault(grid, action["cell"], action["direction"], effects)
            movement = ("push", action["cell"], action["direction"])
            after = g.push(grid, action["cell"], action["direction"])
        base.require(fault is None, fault or "")
        moved = sorted({name for name, old in zip(after, grid) if name != old})
        by_player = rounds.by_player(new)
        owes = rt.owes_stroke(new["stroke_due"], actor, by_player)
        forgotten = rt.stroke_fault(owes, action["rituals"]) + rt.faults(
            effects, moved, action["rituals"], actor, team, new["players"], declared=True
        )
        base.require(not forgotten, "a mend is a move like any other: %(faults)s", faults=forgotten)
        mending = mv.mending_movements(grid, effects)
        base.require(
            not mending or movement in mending,
            "make a move that mends the square: this one leaves it to mend, and a "
            "single move mends it (legal-moves lists them)",
        )
        new["grid"] = after
        if by_player:
            # A mend is no turn: the stroke is owed by the player after the mender, who plays
            # the round's second turn (the mender plays the first).
            new["stroke_due"] = rt.stroke_after(
                new["stroke_due"], actor, rt.strokes_next(effects, moved), rounds.player_after(new, actor)
            )
        else:
            new["stroke_due"] = rt.strokes_next(effects, moved)
        record = {
            "seat": actor,
            **{k: v for k, v in action.items() if k != "kind"},
            "moved": moved,
            "grid": list(after),
            "mended": not rounds.mending(new),
        }
        record["hourglass"] = base.clone(new["hourglass"]) if rounds.maybe_start_hourglass(new, at) else None
        return base.Step(new, "SquareMended", record)

    def _ready(self, new: base.State, actor: int, move: base.Move, at: datetime) -> base.Step:
        mv.only_fields(move, ())
        new["ready"] = sorted({*new["ready"], actor})
        started = rounds.maybe_start_hourglass(new, at)
        return base.Step(
            new,
            "PlayerReady",
            {"seat": actor, "round": new["round"], "hourglass": base.clone(new["hourglass"]) if started else None},
        )

    def _end_round(self, state: base.State) -> dict[str, Any]:
        """When the hourglass runs out: score, return the tokens, draw effects, swap roles."""
        caught = ch.referee_catch(state) if state["mode"] == "coop" else None
        ch.close_window(state)
        points = scoring.round_points(state)
        for team, gained in enumerate(points):
            state["scores"][team] += gained
        state["photo_rounds"][state["photographers"]] += 1
        summary = {
            "round": state["round"],
            "photographers": state["photographers"],
            **base.clone(state["tally"]),
            "points": points,
            "scores": list(state["scores"]),
        }
        state["tokens"] = rounds.TOKENS  # tokens go back to the supply once counted
        summary["drawn"] = scoring.draw_effects(state)
        if caught:
            summary["caught"] = caught
        state["last_round"] = summary
        state["last"] = None
        if scoring.game_ends(state):
            state.update(phase="over", hourglass=None)
            summary["result"] = scoring.result(state)
            return summary
        if state["mode"] == "teams":
            state["photographers"] = 1 - state["photographers"]
        rounds.start_round(state)
        return summary

    # -- time, views and the end -------------------------------------------------------------------
    def deadlines(self, state: base.State) -> list[base.Deadline]:
        when = rounds.deadline(state)
        if when is None:
            return []
        return [base.Deadline(at=when, kind="hourglass", move={"type": mv.SYSTEM})]

    def view(self, state: base.State, viewer: int | None) -> dict[str, Any]:
        return views.view(
            state,
            viewer,
            sorted(self.active_players(state)),
            self.result(state),
            {s: sorted(self.move_types(state, s)) for s in range(state["players"])},
        )

    def standing(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        # each team's score (one team against the target in the cooperative game)
        return [{"seats": list(team), "score": view["scores"][i]} for i, team in enumerate(view["teams"])]

    def describe(self, event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
        return views.describe(event, viewer)

    def result(self, state: base.State) -> dict[str, Any] | None:
        return scoring.result(state)

    def forfeit(self, state: base.State, seat: int) -> base.State:
        new = super().forfeit(state, seat)
        if rounds.by_player(new):
            # Version 3: a stroke the seat owed ends with its turns (nobody else takes it on).
            new["stroke_due"] = rt.stroke_after(new["stroke_due"], seat, False, seat)
        return new

    def outcome(self, state: base.State) -> dict[str, Any] | None:
        out = self.forfeited(state)
        if out and state["mode"] == "coop" and rounds.by_player(state):
            return scoring.cooperative_outcome(state, out)
        return super().outcome(state)

    def teams(self, state: base.State) -> list[list[int]] | None:
        return [list(team) for team in state["teams"]]

    def sides(self, state: base.State) -> list[list[int]] | None:
        # Version 1 ranked seats (the losing team placed 3rd or 4th); version 2 places teams.
        return self.teams(state) if rounds.declared(state) else None
