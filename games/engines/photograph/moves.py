"""The turn: take (choose a subject), wind (then the photographs and the layout check happen by
themselves), and the simultaneous winds of the sunset and of the end of the game."""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalMove, clone, require, rng

from . import layout, reels
from .cards import HAND_SIZE, build_deck, choose_colours, deal_order, face_up_at

TAKE, WIND, SUNSET, END, OVER = "take", "wind", "sunset", "end", "over"
SIMULTANEOUS = (SUNSET, END)
# "all players play the 2 leftmost cards in their hand" (sunset and end of game)
SIMULTANEOUS_PLAYS = 2


def setup(players: int, options: dict[str, Any], seed: str) -> dict[str, Any]:
    colours, removed = choose_colours(players, seed)
    first = rng(seed, "first player").randrange(players)
    state: dict[str, Any] = {
        "players": players,
        "options": {"missed_shot": bool(options.get("missed_shot", False))},
        "colours": colours,
        "removed_colours": removed,
        "first": first,
        "turn": first,
        "turns": 0,
        "phase": TAKE,
        "taken": 0,
        "deck": build_deck(colours, seed),
        "sunset": "deck",
        "deal_queue": [],
        "layout": layout.empty_layout(players),
        "hands": [[] for _ in range(players)],
        "reels": [{c: [] for c in colours} for _ in range(players)],
        "good_shots": {c: {"holder": None, "void": False} for c in colours},
        "out": [],
        "winds": [None] * players,
        "last_cards": [[] for _ in range(players)],
    }
    for row, column in deal_order(players):
        state["layout"][row][column] = {"card": state["deck"].pop(0), "up": face_up_at(column)}
    # "Starting with the first player, all players in turn take 1 card at a time from the deck"
    for _ in range(HAND_SIZE):
        for offset in range(players):
            card = state["deck"].pop(0)
            # The sunset card lies in the second pile from the bottom: never reached at setup.
            assert card != "sunset"
            state["hands"][(first + offset) % players].append({"card": card, "public": False})
    return state


# ----------------------------------------------------------------------------------------------
# Validation of a client's move: every problem is an IllegalMove.
# ----------------------------------------------------------------------------------------------
def _keys(move: dict[str, Any], keys: set[str]) -> None:
    extra, missing = set(move) - keys, keys - set(move)
    require(not missing, "missing: %(missing)s", missing=sorted(missing))
    require(not extra, "unknown keys: %(extra)s", extra=sorted(extra))


def _int(move: dict[str, Any], key: str) -> int:
    value = move[key]
    require(isinstance(value, int) and not isinstance(value, bool), '"%(key)s" must be an integer', key=key)
    return value


def _wind_positions(move: dict[str, Any], hand_size: int) -> tuple[int, int]:
    _keys(move, {"type", "from", "to"})
    source, target = _int(move, "from"), _int(move, "to")
    # "Choose any card in your hand (except the rightmost one) and move it one or more positions
    # to the right (it may move as far as the rightmost position)."
    require(
        0 <= source < hand_size - 1,
        '"from" must be a position 0..%(value)s (not the rightmost card)',
        value=hand_size - 2,
    )
    require(
        source < target <= hand_size - 1,
        '"to" must be %(value)s..%(value2)s: one or more positions to the right',
        value=source + 1,
        value2=hand_size - 1,
    )
    return source, target


def wind_hand(hand: list, source: int, target: int) -> None:
    hand.insert(target, hand.pop(source))


def legal_takes(state: dict[str, Any]) -> list[dict[str, Any]]:
    moves = []
    for row in range(len(state["layout"])):
        available = len(layout.row_columns(state["layout"], row))
        for side in layout.SIDES:
            for how_many in range(1, min(layout.MAX_TAKE, available) + 1):
                moves.append({"type": "take", "row": row, "side": side, "count": how_many})
    return moves


def legal_winds(hand_size: int) -> list[dict[str, Any]]:
    return [{"type": "wind", "from": s, "to": t} for s in range(hand_size - 1) for t in range(s + 1, hand_size)]


# ----------------------------------------------------------------------------------------------
# Moves
# ----------------------------------------------------------------------------------------------
def take(state: dict[str, Any], seat: int, move: dict[str, Any]) -> tuple[dict, str, dict]:
    """Step 1: "take between 1 and 3 cards ... starting with the card in either the leftmost or the
    rightmost column and moving along a row toward the middle ... the last card taken ends up
    rightmost". Face-down cards taken are seen by the taker before winding."""
    _keys(move, {"type", "row", "side", "count"})
    row, how_many = _int(move, "row"), _int(move, "count")
    require(0 <= row < len(state["layout"]), '"row" must be 0..%(value)s', value=len(state["layout"]) - 1)
    require(move["side"] in layout.SIDES, '"side" must be "left" or "right"')
    require(1 <= how_many <= layout.MAX_TAKE, '"count" must be 1, 2 or 3')
    available = len(layout.row_columns(state["layout"], row))
    require(how_many <= available, "row %(row)s has only %(available)s card(s)", row=row, available=available)
    new = clone(state)
    taken = layout.take(new["layout"], row, move["side"], how_many)
    for _, place in taken:
        new["hands"][seat].append({"card": place["card"], "public": place["up"]})
    new["phase"], new["taken"] = WIND, how_many
    record = {
        "stage": "turn",
        "seat": seat,
        "row": row,
        "side": move["side"],
        "cards": [{"pos": pos, "card": p["card"], "face_up": p["up"]} for pos, p in taken],
    }
    return new, "SubjectChosen", record


def wind(state: dict[str, Any], seat: int, move: dict[str, Any]) -> tuple[dict, str, dict]:
    if state["phase"] in SIMULTANEOUS:
        return _simultaneous_wind(state, seat, move)
    source, target = _wind_positions(move, len(state["hands"][seat]))
    new = clone(state)
    wind_hand(new["hands"][seat], source, target)
    # Step 3: "you must play exactly as many shot cards as you took in step 1", leftmost first.
    played = [reels.play(new, seat, new["hands"][seat].pop(0)["card"], claims=True) for _ in range(new["taken"])]
    new["taken"] = 0
    record: dict[str, Any] = {
        "stage": "turn",
        "seat": seat,
        "wind": {"from": source, "to": target},
        "played": played,
        "check": {"refilled": False},
    }
    _after_check(new, layout.check(new, record["check"]), record)
    return new, "FilmWound", record


def _simultaneous_wind(state, seat, move) -> tuple[dict, str, dict]:
    source, target = _wind_positions(move, len(state["hands"][seat]))
    new = clone(state)
    new["winds"][seat] = [source, target]
    record: dict[str, Any] = {"stage": state["phase"], "seat": seat, "resolved": False}
    if all(w is not None for w in new["winds"]):
        _resolve_simultaneous(new, record)
    return new, "FilmWound", record


def _resolve_simultaneous(state, record) -> None:
    """Everyone has wound: "all players play the 2 leftmost cards in their hand, in order"; no good
    shot card can be claimed. The winds were secret until now and are published here."""
    stage = state["phase"]
    record["resolved"] = True
    record["winds"] = [{"seat": s, "from": w[0], "to": w[1]} for s, w in enumerate(state["winds"])]
    played = []
    for seat, (source, target) in enumerate(state["winds"]):
        hand = state["hands"][seat]
        wind_hand(hand, source, target)
        for _ in range(min(SIMULTANEOUS_PLAYS, len(hand))):
            played.append(reels.play(state, seat, hand.pop(0)["card"], claims=False))
    state["winds"] = [None] * state["players"]
    record["played"] = played
    record["voided"] = reels.void_unclaimable(state)
    if stage == SUNSET:
        # "Finally, return the sunset card to the box, then continue resolving step 4"
        state["sunset"] = "box"
        record["check"] = {"refilled": True, "resumed": True}
        _after_check(state, layout.resume(state, record["check"]), record)
    else:
        # "Each player removes the one remaining card left in their hand from the game."
        record["left"] = []
        for seat, hand in enumerate(state["hands"]):
            state["last_cards"][seat] = [dict(entry) for entry in hand]
            record["left"] += [{"seat": seat, "card": e["card"], "public": e["public"]} for e in hand]
            hand.clear()
        state["phase"] = OVER
        record["next"] = {"phase": OVER}


def _after_check(state, outcome: str, record) -> None:
    if outcome == layout.SUNSET_PAUSE:
        state["phase"] = SUNSET
    elif outcome == layout.GAME_END:
        state["phase"] = END
    else:
        # "After step 4, your turn ends and play passes to the player on your left."
        state["turns"] += 1
        state["turn"] = (state["turn"] + 1) % state["players"]
        state["phase"] = TAKE
    record["next"] = {"phase": state["phase"], "turn": state["turn"]}


def dispatch(state, seat, move) -> tuple[dict, str, dict]:
    handlers = {TAKE: {"take": take}, WIND: {"wind": wind}, SUNSET: {"wind": wind}, END: {"wind": wind}}
    handler = handlers.get(state["phase"], {}).get(move.get("type"))
    if handler is None:
        raise IllegalMove(
            "'%(value)s' is not a move of the %(phase)s phase", value=move.get("type"), phase=state["phase"]
        )
    return handler(state, seat, move)
