"""Photographer actions, the teammates' rituals, and the Control team's challenges.

The latest action is kept as `state["last"]`:
  number, seat, kind, cells | cell+direction, rituals, moved (characters), objective (revealed
  by a "Photo!"), status ("open": challengeable; "closed": the next action came; "challenged"),
  owed {"wave": [seats], "answer": [seats]} (public),
  faults (why it breaks the rules, [] if it does not) and before (what an undo restores):
  both are SECRET until a challenge. Views never show them; records never contain them.

"If there is an error, the action is cancelled and the Control team gains 1 Camera token. If there
is no error, the action is validated and the Photographer team gains 1 Camera token." Only the
latest action can be challenged: "If an error was not noticed by the Control team and the
Photographer team has already made one or more further swaps, the error is not taken into
account". In the cooperative variant the server is the referee and catches every error itself.
"""

from __future__ import annotations

from typing import Any

from .. import base
from . import effects as fx
from . import grid as g
from . import objectives as obj
from . import rituals as rt
from . import rounds

UNDONE_KEYS = ("grid", "objective", "objective_pile", "objective_discard", "stroke_due")

# Every fault's message, as the Refusals of this package write it: a record keeps a fault as its
# English text, and the descriptions find its message again (base.read_back) for the server to say
# it in the reader's language. tests/engines/photoshoot checks that no Refusal of theirs is missing.
FAULTS = (
    '"Photo!" when not all characters are correctly placed',
    "Jo does not swap: he pushes his row or column",
    "Chloé swaps only diagonally, or with her girlfriends",
    "only two adjacent characters (not diagonally) or two girlfriends may swap",
    "only Jo pushes, and only with his Effect card",
    "Jo must always push a character: he cannot push into empty space",
    "no movement may leave Arthur and Max side by side",
    "James and Olivia must always remain side by side",
    '%(character)s moved without "%(phrase)s"',
    "Edgar moved without a smile",
    "Olivia moved without applause",
    "Olivia moved without slapping the hand of the player after",
    "Alice's tile left the table",
    "Alice moved without shaking a neighbour awake",
    "Pam moved without a Mexican wave",
    "the team did not answer Edgar",
    "Max was moved and this player did not stroke his tile before playing",
    "seats %(seats)s did not join the Mexican wave",
    "seats %(seats)s did not answer Edgar",
)


def read_faults(faults: list[str]) -> list[str]:
    """Recorded faults as the Refusals that wrote them (their text where none did)."""
    return [base.read_back(text, FAULTS) for text in faults]


def take_token(state: base.State, who: str) -> bool:
    """A Camera token from the supply of 10 to `who` ("photographer" | "control"). When the
    supply is empty no token is won: the rulebook has 10, returned after each round's scoring."""
    if state["tokens"] <= 0:
        return False
    state["tokens"] -= 1
    state["tally"][f"{who}_tokens"] += 1
    return True


def perform(state: base.State, actor: int, action: dict[str, Any]) -> dict[str, Any]:
    """Apply a swap, push or "Photo!" as its player made it, errors included; returns the public
    record. The state keeps the secret verdict in `last`."""
    effects = rounds.team_effects(state)
    team = rounds.table_order(state)
    grid = state["grid"]
    before = {key: base.clone(state[key]) for key in UNDONE_KEYS}
    before["validated"] = state["tally"]["validated"]
    by_player = rounds.by_player(state)
    owes = rt.owes_stroke(state["stroke_due"], actor, by_player)
    faults: list[str] = rt.stroke_fault(owes, action["rituals"])
    public: dict[str, Any] = {"kind": action["kind"]}
    if action["kind"] == "photo":
        moved: list[str] = []
        if not obj.matches(grid, state["objective"]):
            faults.append(base.Refusal('"Photo!" when not all characters are correctly placed'))
        public["validated"] = state["objective"]
        state["tally"]["validated"] += 1
        public["objective"] = obj.public(rounds.reveal_objective(state))
    else:
        if action["kind"] == "swap":
            a, b = action["cells"]
            fault = fx.swap_fault(grid, a, b, effects)
            after = g.swap(grid, a, b)
            public["cells"] = [a, b]
        else:
            fault = fx.push_fault(grid, action["cell"], action["direction"], effects)
            after = g.push(grid, action["cell"], action["direction"])
            public.update(cell=action["cell"], direction=action["direction"])
        moved = sorted({name for name, old in zip(after, grid) if name != old})
        faults += [f for f in (fault, fx.placement_fault(after, effects)) if f]
        state["grid"] = after
    declared = rounds.declared(state)
    faults += rt.faults(effects, moved, action["rituals"], actor, team, state["players"], declared)
    if by_player:
        state["stroke_due"] = rt.stroke_after(
            state["stroke_due"], actor, rt.strokes_next(effects, moved), rounds.player_after(state, actor)
        )
    else:
        state["stroke_due"] = rt.strokes_next(effects, moved)
    state["actions"] += 1
    public.update(moved=moved, rituals=action["rituals"], grid=list(state["grid"]))
    state["last"] = {
        "number": state["actions"],
        "seat": actor,
        **base.clone(public),
        "status": "open",
        "owed": rt.owed(effects, moved, actor, team, declared),
        "faults": faults,
        "before": before,
    }
    if declared:
        state["last"]["passed"] = []  # control seats that let this action stand
    rounds.pass_turn(state)
    return {"action": state["actions"], "seat": actor, **public}


def close_window(state: base.State) -> None:
    last = state["last"]
    if last and last["status"] == "open":
        last["status"] = "closed"
        last["owed"] = {"wave": [], "answer": []}


def verdict(state: base.State) -> list[str]:
    """Why the latest action is an error, judged now (teammates may have waved since)."""
    last = state["last"]
    return list(last["faults"]) + rt.team_faults(last["owed"])


def undo(state: base.State) -> None:
    """Cancel the latest action: the square, the objective and the piles as they were. A card a
    false "Photo!" revealed goes back into the pile at a random place, so its order stays unknown."""
    last = state["last"]
    before = last["before"]
    for key in UNDONE_KEYS:
        state[key] = base.clone(before[key])
    state["tally"]["validated"] = before["validated"]
    if rounds.by_player(state):
        # Rules version 3: the cancelled action spent its player's turn, and a stroke that
        # player owed ends with it (it never passes to the teammate who plays next).
        state["stroke_due"] = rt.stroke_after(state["stroke_due"], last["seat"], False, last["seat"])
    if last["kind"] == "photo":
        revealed = last["objective"]["id"]
        pile = state["objective_pile"]
        if revealed in pile:
            pile.remove(revealed)
            where = base.rng(state["_seed"], "return", state["round"], last["number"]).randrange(len(pile) + 1)
            pile.insert(where, revealed)


def challenge(state: base.State, actor: int, number: int) -> dict[str, Any]:
    last = state["last"]
    base.require(last is not None, "no action to challenge yet this round")
    base.require(
        last["number"] == number and last["status"] == "open",
        "action %(number)s can no longer be challenged: only the latest action can, until the next "
        "one (latest: %(latest)s)",
        number=number,
        latest=last["number"],
    )
    faults = verdict(state)
    record: dict[str, Any] = {"action": number, "challenger": actor, "error": bool(faults), "faults": faults}
    if faults:
        undo(state)
        record["token"] = "control" if take_token(state, "control") else None
    else:
        record["token"] = "photographer" if take_token(state, "photographer") else None
    last["status"] = "challenged"
    last["owed"] = {"wave": [], "answer": []}
    record["grid"] = list(state["grid"])
    record["objective"] = obj.public(state["objective"])
    return record


def join(state: base.State, actor: int, kind: str) -> dict[str, Any]:
    """A teammate's `wave` (Pam) or `answer` (Edgar) for the latest action."""
    last = state["last"]
    base.require(
        last is not None and actor in last["owed"].get(kind, []),
        "seat %(actor)s owes no %(kind)s now",
        actor=actor,
        kind=kind,
    )
    last["owed"][kind] = [s for s in last["owed"][kind] if s != actor]
    return {"action": last["number"], "seat": actor, kind: True}


def pass_move(state: base.State, actor: int) -> dict[str, Any]:
    """Rules version 2: a seat with something to do may let it go. The photographer whose turn it
    is passes the turn to the next teammate (nothing moves: no action to challenge, the latest
    one stays challengeable); a control seat lets the latest action stand (it may no longer
    challenge it; its teammates still may). What the server plays for a timed-out seat."""
    last = state["last"]
    if rounds.current_photographer(state) == actor:
        if rounds.by_player(state):
            # Rules version 3: a stroke this player owed ends with the turn it let go.
            state["stroke_due"] = rt.stroke_after(state["stroke_due"], actor, False, actor)
        rounds.pass_turn(state)
        return {"seat": actor, "passed": "turn", "turn": rounds.current_photographer(state)}
    last["passed"] = sorted({*last["passed"], actor})
    return {"seat": actor, "passed": "challenge", "action": last["number"]}


def owes(state: base.State, seat: int) -> list[str]:
    last = state["last"]
    if not last or last["status"] != "open":
        return []
    return [kind for kind in ("wave", "answer") if seat in last["owed"][kind]]


# -- the cooperative referee ---------------------------------------------------------------------
def referee_catch(state: base.State) -> dict[str, Any] | None:
    """Cooperative Variant: "If the error is confirmed, the players draw a Camera token, which
    counts as a negative point". The server confirms every error of the latest action (once its
    teammates' part is due) and cancels it."""
    last = state["last"]
    if not last or last["status"] != "open":
        return None
    faults = verdict(state)
    last["status"] = "challenged" if faults else "closed"
    last["owed"] = {"wave": [], "answer": []}
    if not faults:
        return None
    undo(state)
    return {
        "action": last["number"],
        "error": True,
        "faults": faults,
        "token": "drawn" if take_token(state, "control") else None,
        "grid": list(state["grid"]),
        "objective": obj.public(state["objective"]),
    }


def coop_action(state: base.State, actor: int, action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The referee judges an action as soon as it is made: the part its player controls at once,
    the teammates' wave or answer when the next action comes (or the hourglass runs out)."""
    earlier = referee_catch(state)
    if earlier:
        # The previous action is cancelled; this one was decided on a square that no longer
        # stands, so it is not played: the same player acts again on the restored square.
        return "ErrorCaught", {**earlier, "refused": action["kind"], "seat": actor}
    record = perform(state, actor, action)
    last = state["last"]
    caught = referee_catch(state) if last["faults"] else None  # a fault of an open action: caught
    if caught is not None:
        return "ErrorCaught", {**record, **caught}
    if not any(last["owed"].values()):
        last["status"] = "closed"
    return EVENT[action["kind"]], record


EVENT = {"swap": "CharactersSwapped", "push": "RowPushed", "photo": "PhotoCalled"}
