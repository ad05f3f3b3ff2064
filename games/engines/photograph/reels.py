"""Photo reels: the rules for playing shot cards, blurred shots and good shot cards.

A reel is a list of {"card": "blue-7", "blurred": bool}, oldest first. A blurred card's number
plays no part in the rules: only face-up cards fix the order and the next step.
"""

from __future__ import annotations

from typing import Any

from .cards import colour_of, number_of

ASCENDING, DESCENDING = "ascending", "descending"
MAX_STEP = 3  # "may not differ from the number of the previous shot in that reel by more than 3"


def good_shot_threshold(players: int) -> int:
    """ "Be the first to play 4 face-up shots (2 or 3 players) / 3 face-up shots (4 players)"."""
    return 3 if players == 4 else 4


def face_up_numbers(reel: list[dict[str, Any]]) -> list[int]:
    return [number_of(e["card"]) for e in reel if not e["blurred"]]


def shots(reel) -> int:
    return len(face_up_numbers(reel))


def blurred(reel) -> int:
    return sum(1 for e in reel if e["blurred"])


def order(reel) -> str | None:
    """ "This order is fixed the moment the 2nd card is played into that photo reel"; a blurred 2nd
    card leaves it open "until a non-blurred shot is added": so the first two face-up cards fix it."""
    numbers = face_up_numbers(reel)
    if len(numbers) < 2:
        return None
    return ASCENDING if numbers[1] > numbers[0] else DESCENDING


def finished(reel) -> bool:
    """ "As soon as a photo reel with ascending order reaches shot No. 12, or a photo reel with
    descending order reaches shot No. 1, only blurred shots can be added to it from then on."""
    numbers = face_up_numbers(reel)
    return (order(reel) == ASCENDING and numbers[-1] == 12) or (order(reel) == DESCENDING and numbers[-1] == 1)


def can_play(reel, card: str) -> bool:
    """May `card` go face up at the end of `reel` (a reel of its colour)?"""
    numbers = face_up_numbers(reel)
    if not numbers:
        return True
    if finished(reel):
        return False
    number, last = number_of(card), numbers[-1]
    direction = order(reel)
    if number == last:
        return False
    if direction == ASCENDING and number < last:
        return False
    if direction == DESCENDING and number > last:
        return False
    # "when playing the next shot to the right of a blurred shot, the order still applies, but
    # the restriction limiting the next shot to within 3 of the previous shot does not apply"
    if reel[-1]["blurred"]:
        return True
    return abs(number - last) <= MAX_STEP


def play(state: dict[str, Any], seat: int, card: str, claims: bool) -> dict[str, Any]:
    """Add `card` to `seat`'s reel of its colour, face up if legal, else blurred; claim the good
    shot card if `claims` (never while resolving the sunset card or the end of the game).
    Returns the fact for the log."""
    colour = colour_of(card)
    reel = state["reels"][seat][colour]
    is_blurred = not can_play(reel, card)
    reel.append({"card": card, "blurred": is_blurred})
    claimed = None
    good = state["good_shots"][colour]
    if (
        claims
        and not is_blurred
        and good["holder"] is None
        and not good["void"]
        and shots(reel) >= good_shot_threshold(state["players"])
    ):
        good["holder"] = seat
        claimed = colour
    return {"seat": seat, "card": card, "blurred": is_blurred, "good_shot": claimed}


def void_unclaimable(state: dict[str, Any]) -> list[str]:
    """After sunset (or end) plays: "if some player's condition for a good shot card is met during
    resolution of the sunset card, nobody receives it, since no one will any longer be the first"."""
    threshold = good_shot_threshold(state["players"])
    voided = []
    # In alphabetical order, never the dict's: a state read back from PostgreSQL
    # (jsonb reorders keys) must give the same record as one kept in memory.
    for colour in sorted(state["good_shots"]):
        good = state["good_shots"][colour]
        if (
            good["holder"] is None
            and not good["void"]
            and any(shots(reels[colour]) >= threshold for reels in state["reels"])
        ):
            good["void"] = True
            voided.append(colour)
    return voided
