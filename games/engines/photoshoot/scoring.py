"""End of Round and Scoring, Adding Effects, End of Game, and the result.

Photographer team: 2 points per Photo Objective validated, 1 per Camera token; Control team: 1 per
Camera token. Cooperative Variant: 2 per Photo Objective, -1 per Camera token.
"""

from __future__ import annotations

from typing import Any

from .. import base
from . import effects as fx

TARGET = 25  # "until one team reaches 25 points"


def draw_effects(state: base.State) -> list[dict[str, Any]]:
    """Draw for every team whose score has reached a threshold it has not drawn for yet.

    "Effect cards are not drawn during a round, but at the end of the round, when a team has
    passed the 5 or 15 point threshold", "An effect only applies to the team that drew the
    Effect card", and "A team may pass the 5 or 15 point threshold during the other team's
    turn. It will then draw an Effect card before starting its Photographer round": every team
    is checked at the end of every round. The photographer team of the round draws first."""
    table = fx.schedule(state["options"]["level"], state["options"]["family"])
    order = [state["photographers"], *[t for t in range(len(state["teams"])) if t != state["photographers"]]]
    drawn = []
    for team in order:
        for threshold in sorted(table):
            if state["scores"][team] >= threshold and threshold not in state["drawn"][team]:
                state["drawn"][team].append(threshold)
                for colour in table[threshold]:
                    if state["piles"][colour]:  # 10 blue and 4 orange: enough for every level
                        card = state["piles"][colour].pop()
                        state["effects"][team].append(card)
                        drawn.append({"team": team, "threshold": threshold, "card": fx.CARDS[card]})
    return drawn


def cooperative_outcome(state: base.State, out: list[int]) -> dict[str, Any] | None:
    """Rules version 3, a cooperative game with forfeits: "If the team has not reached 25
    points, it loses the game", whoever left. The seats still in play on (one alone if need
    be) and win or lose as the team; a forfeited seat leaves the team and is placed after it.
    When every seat has left, the game ends at once, lost. The result keeps its `cooperative`
    entry, its `teams` and its `team_scores`."""
    remaining = [s for s in range(state["players"]) if s not in out]
    full = result(state, abandoned=not remaining)
    if full is None:
        return None
    keys = {s: (s not in out,) for s in range(state["players"])}
    sides = [remaining] + [[s] for s in out]
    extra = {k: v for k, v in full.items() if k not in ("scores", "places", "winners", "breakdown", "tie_break")}
    breakdown = dict(enumerate(full["breakdown"]))
    return base.make_result(
        dict(enumerate(full["scores"])),
        keys,
        breakdown=breakdown,
        tie_break="forfeit",
        sides=sides,
        lost=not full["cooperative"]["won"],
        forfeited=list(out),
        **extra,
    )


def round_points(state: base.State) -> list[int]:
    tally = state["tally"]
    points = [0] * len(state["teams"])
    if state["mode"] == "coop":
        points[0] = 2 * tally["validated"] - tally["control_tokens"]
        return points
    points[state["photographers"]] = 2 * tally["validated"] + tally["photographer_tokens"]
    points[1 - state["photographers"]] = tally["control_tokens"]
    return points


def game_ends(state: base.State) -> bool:
    if state["mode"] == "coop":
        return state["round"] >= 5  # "The game is played over 5 rounds"
    # "When a team reaches at least 25 points, it triggers the end of the game. The game continues
    # until both teams have played the same number of Photographer rounds."
    rounds = state["photo_rounds"]
    return max(state["scores"]) >= TARGET and rounds[0] == rounds[1]


def result(state: base.State, abandoned: bool = False) -> dict[str, Any] | None:
    """The result once the game is over (`abandoned`, rules version 3: a cooperative game every
    seat has left, which ends at once and is lost)."""
    if state["phase"] != "over" and not abandoned:
        return None
    team_of = {seat: t for t, seats in enumerate(state["teams"]) for seat in seats}
    scores = {seat: state["scores"][team_of[seat]] for seat in range(state["players"])}
    breakdown = {seat: {"team": team_of[seat], "team_score": scores[seat]} for seat in scores}
    extra: dict[str, Any] = {"teams": base.clone(state["teams"]), "team_scores": list(state["scores"])}
    won = state["scores"][0] >= TARGET and not abandoned
    if state["mode"] == "coop":
        # One team: every seat shares the result; whether the team won is said apart.
        extra["cooperative"] = {"target": TARGET, "won": won}
    keys = {s: (v,) for s, v in scores.items()}
    if state.get("rules_version", 1) < 2:
        # Version 1 (kept for its games): seats ranked one by one, a lost cooperative game
        # naming every seat a winner.
        return base.make_result(scores, keys, breakdown=breakdown, **extra)
    # "The team with the most points wins"; equal points: a shared result (the rulebook's
    # rematch is left to the players). Places rank the teams, every seat gets its team's place;
    # "If the team has not reached 25 points, it loses the game": no winners.
    lost = state["mode"] == "coop" and not won
    if state.get("rules_version", 1) >= 3 and state["mode"] == "teams" and state["scores"][0] == state["scores"][1]:
        # "If both teams have the same number of points, a new game must be played to break the
        # tie!": the teams share the result, and it says that the rulebook asks for a rematch.
        extra["rematch"] = True
    return base.make_result(scores, keys, breakdown=breakdown, sides=state["teams"], lost=lost, **extra)
