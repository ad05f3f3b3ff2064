"""Tallying victory points and determining the winner."""

from __future__ import annotations

from typing import Any, Mapping

from games.engines.base import make_result

from .cards import colour_of
from .reels import blurred, shots

# "0 shots = -3 VP, 1 = 1, 2 = 3, 3 = 4, 4 = 7, 5 = 8, 6 = 10, 7+ shots = 11 VP". The rulebook's
# 3-player scoring example prints "Total: 24 VP" for lines that add up to 20 (8-1+1+5+10-3): a
# misprint; these rules score it 20 (tested as written, see docs/photograph.md).
REEL_POINTS = (-3, 1, 3, 4, 7, 8, 10, 11)
GOOD_SHOT_POINTS = 5  # "For each good shot card you have, you score 5 VP."
BLURRED_POINTS = -2  # "For each played card lying face-down, you lose 2 VP."
TIE_BREAK = "most good shot cards, then the longest photo reel; still tied: shared victory"


def reel_points(face_up: int) -> int:
    return REEL_POINTS[min(face_up, len(REEL_POINTS) - 1)]


def colour_score(face_up: int, blurred_shots: int, good_shot: bool) -> int:
    return reel_points(face_up) + BLURRED_POINTS * blurred_shots + (GOOD_SHOT_POINTS if good_shot else 0)


def missed_colour(state: Mapping[str, Any], seat: int) -> str | None:
    """Missed Shot variant: the colour of "the last card remaining in your hand"."""
    if not state["options"].get("missed_shot"):
        return None
    left = state["last_cards"][seat]
    return colour_of(left[-1]["card"]) if left else None


def breakdown(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """Per colour in play: face-up shots, blurred shots, good shot card, points."""
    missed = missed_colour(state, seat)
    colours = {}
    for colour in state["colours"]:
        reel = state["reels"][seat][colour]
        holds = state["good_shots"][colour]["holder"] == seat
        entry: dict[str, Any]
        if colour == missed:
            # "remove the missed-shot card and all cards of the matching color that you played ...
            # If you also have the good shot card of the matching color, do not count it either"
            entry = {"shots": 0, "blurred": 0, "good_shot": False, "missed": True}
        else:
            entry = {"shots": shots(reel), "blurred": blurred(reel), "good_shot": holds, "missed": False}
        entry["points"] = colour_score(entry["shots"], entry["blurred"], entry["good_shot"])
        colours[colour] = entry
    return {
        "colours": colours,
        "reels": sum(reel_points(e["shots"]) for e in colours.values()),
        "good_shots": sum(1 for e in colours.values() if e["good_shot"]),
        "blurred": sum(e["blurred"] for e in colours.values()),
        "longest_reel": max((e["shots"] for e in colours.values()), default=0),
        "missed_colour": missed,
        "total": sum(e["points"] for e in colours.values()),
    }


def result(state: Mapping[str, Any]) -> dict[str, Any]:
    seats = range(state["players"])
    details = {s: breakdown(state, s) for s in seats}
    scores = {s: details[s]["total"] for s in seats}
    # "In case of a tie, the tied player with the most good shot cards wins. If the tie persists,
    # the tied player with the longest photo reel (the most shots in a single reel) wins. If there
    # is still a tie, the tied players share the victory."
    keys = {s: (scores[s], details[s]["good_shots"], details[s]["longest_reel"]) for s in seats}
    return make_result(scores, keys, breakdown=details, tie_break=TIE_BREAK)


def standing(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The score so far of every seat, from a view: the reels' face-up and blurred shots (a
    blurred shot costs 2 VP whatever its number, which stays secret) and the good shot cards
    held. The Missed Shot variant's loss is only known at the end, from the last card in hand:
    once the game is over the result's scores stand."""
    if view.get("result"):
        return [{"seats": [s], "score": score} for s, score in enumerate(view["result"]["scores"])]
    out = []
    for seat in range(view["players"]):
        total = 0
        for colour in view["colours"]:
            reel = view["reels"][seat].get(colour, [])
            blurred_shots = sum(1 for c in reel if c.get("blurred"))
            holds = view["good_shots"].get(colour, {}).get("holder") == seat
            total += colour_score(len(reel) - blurred_shots, blurred_shots, holds)
        out.append({"seats": [seat], "score": total})
    return out
