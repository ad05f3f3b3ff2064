"""Setup, teams, the ready step and the hourglass (functions mutate the state: call on a clone).

State (plain JSON):
  players, options {level, family, hourglass_seconds, teams}, _seed, mode ("teams" | "coop"),
  teams [[seats of team 0], [seats of team 1]] (coop: one team), photographers (team index),
  photo_rounds (per team), round, phase ("ready" | "round" | "over"), ready (seats),
  grid (9 names, reading order), objective (card id), objective_pile (hidden order),
  objective_discard, piles {"blue", "orange"} (hidden order), effects (per team, card ids),
  drawn (per team, thresholds passed), scores (per team), tokens (the supply, 10), tally (this
  round: validated, photographer_tokens, control_tokens), turn (per team: index of the next
  member), hourglass {start, deadline} (ISO) | None, actions (this round), last (the latest
  action, see challenges.py), stroke_due (versions 1-2: whether the next action must stroke Max;
  version 3: the seat that must, or null), last_round (the summary of the round before).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Mapping

from .. import base
from . import effects as fx
from . import objectives as obj
from . import scoring
from .characters import NAMES

TOKENS = 10  # Components: "10 Camera tokens"
COOP_ROUNDS = 5
DEFAULT_HOURGLASS = 90  # "a 1 minute 30 second hourglass"


def team_of_seats(layout: str, players: int) -> list[int]:
    """The team (0 or 1) of each seat. "Divide into 2 teams as equally as possible": sizes differ
    by at most one. `alternate`: every other seat around the table (0, 2, 4 against 1, 3, 5);
    `halves`: the first seats against the last (0, 1, 2 against 3, 4, 5; with 5, 0-2 against
    3-4). Players choose their team by the seat they take (join order)."""
    if layout == "halves":
        first = (players + 1) // 2
        return [0 if seat < first else 1 for seat in range(players)]
    return [seat % 2 for seat in range(players)]


def new_state(players: int, options: Mapping[str, Any], seed: str) -> base.State:
    coop = players <= 3
    teams_of = [0] * players if coop else team_of_seats(options["teams"], players)
    teams = [[s for s in range(players) if teams_of[s] == t] for t in range(1 if coop else 2)]
    # Setup: "Randomly place the 9 Character tiles ... in a 3 by 3 square", "Shuffle the blue
    # Effect cards and form a face-down pile. Do the same with the orange", objectives face down.
    grid = list(NAMES)
    base.rng(seed, "grid").shuffle(grid)
    pile = list(range(obj.COUNT))
    base.rng(seed, "objectives").shuffle(pile)
    piles = {"blue": sorted(fx.BLUE), "orange": sorted(fx.ORANGE)}
    for colour in piles:
        base.rng(seed, "effects", colour).shuffle(piles[colour])
    state: base.State = {
        "players": players,
        "options": dict(options),
        "_seed": seed,
        "mode": "coop" if coop else "teams",
        "teams": teams,
        "photographers": 0,
        "photo_rounds": [0] * len(teams),
        "round": 0,
        "phase": "ready",
        "ready": [],
        "grid": grid,
        "objective": pile.pop(),
        "objective_pile": pile,
        "objective_discard": [],
        "piles": piles,
        "effects": [[] for _ in teams],
        "drawn": [[] for _ in teams],
        "scores": [0] * len(teams),
        "tokens": TOKENS,
        "tally": {},
        "turn": [0] * len(teams),
        "hourglass": None,
        "actions": 0,
        "last": None,
        "stroke_due": False,
        "last_round": None,
    }
    # Levels 2-5 place an Effect card "near 0": drawn at the start of the game.
    scoring.draw_effects(state)
    start_round(state)
    return state


def start_round(state: base.State) -> None:
    state["round"] += 1
    state.update(
        phase="ready",
        ready=[],
        hourglass=None,
        actions=0,
        last=None,
        stroke_due=None if version(state) >= 3 else False,
        tally={"validated": 0, "photographer_tokens": 0, "control_tokens": 0},
    )


def version(state: base.State) -> int:
    """The rules version the state was set up under (docs/photoshoot.md, "Rules versions"):
    version 2 records itself in the state; a state without it is version 1."""
    return state.get("rules_version", 1)


def by_player(state: base.State) -> bool:
    """Rules version 3: "the player after them" is the next seat that actually plays (forfeited
    seats skipped), Max's stroke is owed by that player and not by whoever acts next, and a
    forfeit never wins a cooperative game."""
    return version(state) >= 3


def declared(state: base.State) -> bool:
    """Rules version 2: the teammates' rituals are declared with the action (no owed moves), a
    mend is one movement with its rituals, seats may pass, results place teams."""
    return version(state) >= 2


def photographers(state: base.State) -> list[int]:
    return state["teams"][state["photographers"]]


def table_order(state: base.State) -> list[int]:
    """The photographers in turn order as the rituals see it: from rules version 3 without the
    forfeited seats (they no longer play, so nobody is "after" anyone through them)."""
    team = photographers(state)
    if not by_player(state):
        return team
    out = set(state.get("_forfeited", []))
    return [s for s in team if s not in out]


def player_after(state: base.State, seat: int) -> int:
    """Rules version 3: the photographer who plays after `seat` (the next seat in turn order
    still in the game; `seat` itself when it plays alone)."""
    order = [s for s in table_order(state) if s != seat]
    team = photographers(state)
    if not order or seat not in team:
        return seat
    start = team.index(seat)
    return min(order, key=lambda s: (team.index(s) - start) % len(team))


def control(state: base.State) -> list[int]:
    if state["mode"] == "coop":
        return []
    return state["teams"][1 - state["photographers"]]


def team_effects(state: base.State) -> list[str]:
    return state["effects"][state["photographers"]]


def current_photographer(state: base.State) -> int:
    """Whose turn it is. Rules version 2 skips a forfeited seat: its teammates play on (the
    server would only pass for it, one pass after another); when the whole team is out, nobody
    acts until the hourglass runs out."""
    team = photographers(state)
    start = state["turn"][state["photographers"]] % len(team)
    if declared(state):
        out = set(state.get("_forfeited", []))
        for offset in range(len(team)):
            seat = team[(start + offset) % len(team)]
            if seat not in out:
                return seat
    return team[start]


def pass_turn(state: base.State) -> None:
    index, team = state["photographers"], photographers(state)
    if declared(state):
        state["turn"][index] = (team.index(current_photographer(state)) + 1) % len(team)
        return
    state["turn"][index] = (state["turn"][index] + 1) % len(team)


# -- the ready step -----------------------------------------------------------------------------
def mending(state: base.State) -> bool:
    return state["phase"] == "ready" and fx.needs_mending(state["grid"], team_effects(state))


def awaiting_ready(state: base.State) -> list[int]:
    """Who must still post `ready`: every photographer, and one control-team member (any one; a
    forfeited seat never holds the round up)."""
    if state["phase"] != "ready":
        return []
    out = set(state.get("_forfeited", []))
    waiting = [s for s in photographers(state) if s not in state["ready"]]
    controllers = [s for s in control(state) if s not in out]
    if controllers and not set(controllers) & set(state["ready"]):
        waiting += controllers
    return sorted(waiting)


def maybe_start_hourglass(state: base.State, at: datetime) -> bool:
    """The Control team "turns it over at the start of each round": here, the moment the last
    player is ready and the square is mended."""
    if awaiting_ready(state) or mending(state):
        return False
    seconds = state["options"]["hourglass_seconds"]
    state["phase"] = "round"
    state["hourglass"] = {"start": at.isoformat(), "deadline": (at + timedelta(seconds=seconds)).isoformat()}
    return True


def deadline(state: base.State) -> datetime | None:
    if state["phase"] != "round" or not state["hourglass"]:
        return None
    return datetime.fromisoformat(state["hourglass"]["deadline"])


def reveal_objective(state: base.State) -> int:
    """Reveal a new Photo Objective; an empty pile is refilled with the validated cards,
    shuffled (the rulebook's 50 cards could run out in a long game)."""
    if not state["objective_pile"]:
        refill = sorted(state["objective_discard"])
        base.rng(state["_seed"], "refill", state["round"], state["actions"]).shuffle(refill)
        state["objective_pile"], state["objective_discard"] = refill, []
    state["objective_discard"].append(state["objective"])
    state["objective"] = state["objective_pile"].pop()
    return state["objective"]
