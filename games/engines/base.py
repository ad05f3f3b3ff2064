"""The engine protocol: what every game's rules look like to the server.

Engines are pure: no Django, no I/O, no clock. State is plain JSON data (dicts, lists, str, int,
bool, None) so it can be snapshotted, hashed and compared; an engine never mutates its input.

The server runs every move through `Engine.play`, which checks, in order (as boardgame.io does):
game over -> inactive seat -> unavailable move type -> the engine's own legality (`step`). Each
check has its own error code, so a client can tell "the game ended" from "not now" from "not that".
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Mapping, Sequence, TypeVar

State = dict[str, Any]
Move = dict[str, Any]

# Top-level state keys owned by the server, not by any engine. Engines keep them as they are
# (they copy the state they are given) and never show them in a view.
RESERVED_KEYS = ("_seed", "_forfeited")
# An engine that draws randomness after setup keeps the seed as state["_seed"] (see `rng`); views
# and descriptions must never contain it (the server publishes it only when the game is over).


# ---------------------------------------------------------------------------------------------
# Errors: one type per pipeline stage, each with a stable code the API maps to HTTP.
# ---------------------------------------------------------------------------------------------
class Refusal(str):
    """Why a move is refused, in English, carrying what a translation needs: `template` (the
    message id, with %(name)s placeholders) and `args`. It is the English text itself, so the
    engines, the bots and the tests read it as any string; the server renders `template` in the
    reader's language (games.errors.in_words), the engines knowing no language but English.
    An argument that is a list of refusals reads as them joined by "; "."""

    template: str
    args: dict[str, Any]

    def __new__(cls, template: str, **args: Any) -> Refusal:
        text = template % {name: joined(value) for name, value in args.items()} if args else template
        self = super().__new__(cls, text)
        self.template, self.args = template, args
        return self

    def __reduce__(self):
        return str, (str(self),)  # a copy (of a state, a record) is plain text


def read_back(text: str, templates: Sequence[str]) -> str:
    """The Refusal of one of `templates` that wrote `text`, its arguments read back, or `text`
    itself when none did. A record is kept as it was written (the golden games hold it), so a
    refusal stored in one is its English text: this finds its message again, so that a
    description can be said in the reader's language. An argument that looks like JSON (a list
    of seats) is read as JSON."""
    if isinstance(text, Refusal) or not isinstance(text, str):
        return text
    for template in templates:
        names = re.findall(r"%\((\w+)\)s", template)
        if not names:
            if text == template:
                return Refusal(template)
            continue
        pattern = "".join(
            f"(?P<{part}>.+?)" if i % 2 else re.escape(part)
            for i, part in enumerate(re.split(r"%\((\w+)\)s", template))
        )
        found = re.fullmatch(pattern, text, re.DOTALL)
        if found:
            return Refusal(template, **{name: _json_or_text(found[name]) for name in names})
    return text


def _json_or_text(text: str) -> Any:
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, list) else text


def joined(value: Any) -> Any:
    """A list of refusals as one text; any other value as it is."""
    if isinstance(value, list) and value and all(isinstance(item, Refusal) for item in value):
        return "; ".join(value)
    return value


class EngineError(Exception):
    code = "engine_error"

    def __init__(self, detail: str, code: str | None = None, **args: Any):
        # With arguments, `detail` is a template (see Refusal): IllegalMove("%(card)s is not in
        # your hand", card=card). Marked for translation by the call itself (the `makemessages`
        # command of games lists these names as gettext keywords).
        detail = Refusal(detail, **args) if args else detail
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code


class GameOver(EngineError):
    code = "game_over"


class NotYourTurn(EngineError):
    code = "not_your_turn"


class UnavailableMove(EngineError):
    """The move type exists in this game but cannot be made in the current phase."""

    code = "unavailable_move"


class IllegalMove(EngineError):
    """The move is of an available type but breaks a rule (or is malformed)."""

    code = "illegal_move"


class UnknownRulesVersion(EngineError):
    """A game was created under rules this server no longer (or does not yet) play."""

    code = "rules_version_unavailable"


# ---------------------------------------------------------------------------------------------
# Value objects
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """What one accepted move did.

    `event_type` names what happened in the past tense (`CardsGiven`, `FilmWound`): it becomes the
    event's type in the log. `record` holds the facts the move caused (cards revealed, played,
    points scored) so the log can be read and audited without replaying; replay never reads it.
    `describe` decides who may see which part of it.
    """

    state: State
    event_type: str
    record: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Deadline:
    """A timer the state wants: at `at`, the server applies `move` as the system (actor None)."""

    at: datetime
    kind: str
    move: Move
    seat: int | None = None


# ---------------------------------------------------------------------------------------------
# Helpers engines share
# ---------------------------------------------------------------------------------------------
def rng(seed: str, *label: Any) -> random.Random:
    """A deterministic random stream for one purpose (`rng(seed, "reshuffle", 3)`).

    Deriving a fresh stream per purpose, instead of keeping a Random object in the state, keeps the
    state plain JSON and makes every draw reproducible from the seed and the label alone.
    """
    material = ":".join([seed, *map(str, label)]).encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


def places(keys: Mapping[int, Any], sides: Sequence[Sequence[int]] | None = None) -> dict[int, int]:
    """Competition ranking ("1224") of sides by a sort key, larger is better; equal keys share.

    The one rule of every game's `places`: a seat's place is 1 + the number of *sides* that
    finished strictly ahead of its side. A side is a seat of its own, or a team (`sides`, whose
    seats share one key) in a team game: every seat of a team gets its team's place, so two teams
    place 1 and 2 ([1, 2, 1, 2, 1]), never by the number of seats ahead."""
    groups = [list(side) for side in sides] if sides is not None else [[seat] for seat in keys]
    groups = [side for side in groups if side]
    ranked = sorted(groups, key=lambda side: keys[side[0]], reverse=True)
    result: dict[int, int] = {}
    for index, side in enumerate(ranked):
        key = keys[side[0]]
        place = index + 1 if not index or key != keys[ranked[index - 1][0]] else result[ranked[index - 1][0]]
        for seat in side:
            result[seat] = place
    return result


def make_result(
    scores: Mapping[int, int],
    keys: Mapping[int, Any] | None = None,
    breakdown: Mapping[int, Any] | None = None,
    tie_break: str | None = None,
    sides: Sequence[Sequence[int]] | None = None,
    lost: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The shape every engine's `result` returns.

    `keys` are the full sort keys (score first, then the rulebook's tie-breaks); by default the
    score alone. Sides (seats, or the teams in `sides`) that tie on the whole key share the place
    and, at place 1, the victory. `lost`: a cooperative game its team lost has no winners (its
    seats still share place 1: nobody finished ahead of them).
    """
    keys = dict(keys) if keys is not None else {s: (v,) for s, v in scores.items()}
    seat_places = places(keys, sides)
    seats = sorted(scores)
    return {
        "scores": [scores[s] for s in seats],
        "places": [seat_places[s] for s in seats],
        "winners": [] if lost else [s for s in seats if seat_places[s] == 1],
        "breakdown": [breakdown[s] for s in seats] if breakdown is not None else None,
        "tie_break": tie_break,
        **extra,
    }


# ---------------------------------------------------------------------------------------------
# Schema pieces engines share (JSON Schema 2020-12, plain data)
# ---------------------------------------------------------------------------------------------
SEAT_SCHEMA: dict[str, Any] = {"type": "integer", "minimum": 0}
SEATS_SCHEMA: dict[str, Any] = {"type": "array", "items": SEAT_SCHEMA}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def result_schema(breakdown: dict[str, Any] | None = None) -> dict[str, Any]:
    """The shape `make_result` returns (one list entry per seat), `breakdown` items as given."""
    ints = {"type": "array", "items": {"type": "integer"}}
    return {
        "type": "object",
        "required": ["scores", "places", "winners", "breakdown", "tie_break"],
        "properties": {
            "scores": ints,
            "places": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "description": "a seat's place is 1 + the number of sides (seats, or "
                "teams in a team game) strictly ahead of its side: "
                "equal results share a place (1, 1, 3)",
            },
            "winners": {
                **SEATS_SCHEMA,
                "description": "the seats placed first; none in a cooperative game its team lost",
            },
            "breakdown": nullable(
                {
                    "type": "array",
                    "items": breakdown
                    or {
                        "type": "object",
                        "additionalProperties": True,
                        "description": "the kind's own figures for the seat",
                    },
                }
            ),
            "tie_break": nullable({"type": "string"}),
            "forfeited": {**SEATS_SCHEMA, "description": "seats out by forfeit, ranked last"},
            "settled": {
                "type": "object",
                "required": ["by", "reason"],
                "properties": {"by": nullable({"type": "string"}), "reason": {"type": "string"}},
                "description": "a tournament game ended with these places by staff (`by`: who, "
                "`reason`: why) or by its round's deadline (`by` null); "
                "`scores` is then empty: docs/tournaments.md",
            },
            "rating_changes": {
                "type": "array",
                "description": "a rated game: each rated seat's rating before and after it (docs/accounts.md)",
                "items": {
                    "type": "object",
                    "required": ["seat", "before", "after", "delta"],
                    "properties": {
                        "seat": SEAT_SCHEMA,
                        "before": {"type": "number"},
                        "after": {"type": "number"},
                        "delta": {"type": "number"},
                    },
                },
            },
        },
    }


def event_schema(fields: dict[str, Any], types: list[str] | None = None) -> dict[str, Any]:
    """A `describe`d log entry: seq, type, actor, plus the kind's own `fields` (each optional:
    which appear depends on the event type and on who is looking)."""
    return {
        "type": "object",
        "required": ["seq", "type", "actor"],
        "properties": {
            "seq": {"type": "integer", "minimum": 1},
            "type": {"type": "string", **({"enum": types} if types else {})},
            "actor": nullable(SEAT_SCHEMA),
            **fields,
        },
    }


def require(condition: bool, detail: str, error: type[EngineError] = IllegalMove, **args: Any) -> None:
    if not condition:
        raise error(detail, **args)


# ---------------------------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------------------------
class Engine:
    """Base class of every game. Subclasses implement the abstract members; the pipeline is here.

    Seats are 0..n-1. `viewer` None is a spectator. `actor` None is the system (timers, admin).
    """

    kind: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # The rules a new game is created under. A game records the version it was created under (in
    # GameCreated) and is replayed and played by that version forever: a change that alters play
    # (a deal, a draw, a score) is a new version, and the old behaviour stays reachable through
    # `at_version` for as long as games of it may exist. A visibility-only change (what `view` and
    # `describe` show) keeps the version: it applies to old games too, and replays are unchanged.
    rules_version: int = 1
    # Every version this engine can still replay (README, "Rules versions", says what changed).
    rules_versions: ClassVar[tuple[int, ...]] = (1,)

    # -- rules versions -------------------------------------------------------------------------
    def at_version(self, version: int) -> "Engine":
        """This game's engine under rules `version`; UnknownRulesVersion if it is not kept.

        The default keeps only the current version; an engine with older versions overrides
        `_with_version` and lists them in `rules_versions`."""
        if type(version) is int and version == self.rules_version:
            return self
        if type(version) is not int or version not in self.rules_versions:
            raise UnknownRulesVersion(
                "%(kind)s rules version %(version)r is not played by this server (it plays %(value)s)",
                kind=self.kind,
                version=version,
                value=", ".join(map(str, self.rules_versions or (self.rules_version,))),
            )
        return self._with_version(version)

    def _with_version(self, version: int) -> "Engine":
        engine = copy.copy(self)
        engine.rules_version = version
        return engine

    # -- identity and options -----------------------------------------------------------------
    def options_schema(self) -> dict[str, Any]:
        """JSON Schema (an object) of the options, every property with a default."""
        return {"type": "object", "properties": {}, "additionalProperties": False}

    def move_schema(self) -> dict[str, Any]:
        """JSON Schema of a move (usually a oneOf over move types), for the OpenAPI document."""
        return {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}}}

    def view_schema(self) -> dict[str, Any]:
        """JSON Schema of `view` (what a seat or spectator sees), for the OpenAPI document.

        The default promises only an object; every product game gives a precise one."""
        return {
            "type": "object",
            "additionalProperties": True,
            "description": f"the {self.kind} game as the caller may see it",
        }

    def event_schema(self) -> dict[str, Any]:
        """JSON Schema of one `describe`d log entry, for the OpenAPI document."""
        return event_schema({})

    # -- the rules ----------------------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any], seed: str) -> State:
        raise NotImplementedError

    def active_players(self, state: State) -> set[int]:
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        raise NotImplementedError

    def auto_move(self, state: State, seat: int, rng: random.Random) -> Move:
        """The move the server makes for a seat whose time ran out, drawn with `rng` only (the
        server seeds it from the game's seed and the event number, so it is reproducible).

        The default lists every legal move and picks one; override when one legal move can be
        found without listing them all (the sweeper expires many games at once)."""
        return rng.choice(self.legal_moves(state, seat))

    def move_types(self, state: State, seat: int | None) -> set[str]:
        """Move types available to `seat` now. Override when legal_moves is costly to list."""
        if seat is None:
            return set()
        return {m["type"] for m in self.legal_moves(state, seat)}

    def step(self, state: State, actor: int | None, move: Move, at: datetime) -> Step:
        """Validate `move` in full and apply it. Called only after the pipeline checks passed.

        Must not mutate `state`; raises IllegalMove for anything wrong with the move."""
        raise NotImplementedError

    def view(self, state: State, viewer: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def describe(self, event: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
        """One log entry as `viewer` may see it.

        `event` has `seq`, `type`, `actor` and `data` = {"move": ..., "record": ...}, and
        `fresh` = True while no later action has happened (the answer's moment: the live channel,
        the log read before anyone acts again). What the table shows only for a moment (a
        blurred shot's face, say) may be described only when `fresh`; a missing `fresh` is False.
        The default shows nothing but the type and actor: engines override it to show what is
        public.
        """
        return {"seq": event["seq"], "type": event["type"], "actor": event["actor"]}

    def standing(self, view: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """Each side's score so far, as the rulebook counts it, from `view` alone (what one
        viewer may see, so it can tell no secret): [{"seats": [...], "score": n}, ...], one entry
        per side. None: the game keeps no running score."""
        return None

    def replay_view(self, state: State, viewer: int | None) -> dict[str, Any]:
        """The view of a past state, as a replay shows it once the game has moved on: without
        what was shown only for a moment. Default: the view itself."""
        return self.view(state, viewer)

    def reveals(self, event: Mapping[str, Any]) -> bool:
        """Whether this log entry showed someone hidden information (cards dealt face up or seen,
        gifts, an evaluation): the server refuses to roll a game back to before such an event,
        since the replayed phase's secrets were already seen.

        Cautious by default: an event whose record holds any fact beyond `round` reveals.
        Engines whose records say more than that without revealing anything override this."""
        record = (event.get("data") or {}).get("record") or {}
        return bool(set(record) - {"round"})

    def deadlines(self, state: State) -> list[Deadline]:
        return []

    def catalogue(self) -> list[dict[str, Any]] | None:
        """The game's cards, for clients to draw them: each with an `id` and an `image` path
        relative to the server's card image base URL. None: the game publishes no catalogue."""
        return None

    def result(self, state: State) -> dict[str, Any] | None:
        raise NotImplementedError

    def teams(self, state: State) -> list[list[int]] | None:
        """The seats that win or lose together (ratings rate them as one side); None: each seat
        plays for itself. A single team is a cooperative game, which no rating can rank."""
        return None

    def sides(self, state: State) -> list[list[int]] | None:
        """The sides the result's `places` rank (docs/games.md, "Results"): the teams of a team
        game, whose seats share their team's place; None when each seat is a side of its own.
        Default: `teams`."""
        return self.teams(state)

    # -- forfeits (concrete): the same for every game -------------------------------------------
    # A forfeited seat stays in the game so the others can play on (the server plays its turns
    # for it: see games.play.clocks); it ranks below every seat still in. When one seat is left, the
    # game ends and that seat wins whatever the score.
    def forfeited(self, state: State) -> list[int]:
        return list(state.get("_forfeited", []))

    def forfeit(self, state: State, seat: int) -> State:
        new = clone(state)
        new["_forfeited"] = sorted({*self.forfeited(state), seat})
        return new

    def outcome(self, state: State) -> dict[str, Any] | None:
        """`result`, adjusted for forfeits. The server uses this, never `result` directly."""
        out = self.forfeited(state)
        if not out:
            return self.result(state)
        remaining = [s for s in range(state["players"]) if s not in out]
        base = self.result(state)
        if base is None and len(remaining) > 1:
            return None
        scores = dict(enumerate(base["scores"])) if base else {s: 0 for s in range(state["players"])}
        keys = {s: (s not in out, -(base["places"][s]) if base else 0) for s in scores}
        # A team keeps its place for the teammates who played on; a forfeited seat leaves its
        # team to be a side of its own, ranked last (as ratings rate it).
        sides = self.sides(state)
        if sides is not None:
            sides = [[s for s in side if s not in out] for side in sides] + [[s] for s in out]
        return make_result(
            scores,
            keys,
            breakdown=dict(enumerate(base["breakdown"])) if base and base.get("breakdown") else None,
            tie_break="forfeit",
            sides=sides,
            lost=base is not None and not base["winners"],
            forfeited=out,
        )

    # -- the pipeline (concrete) ----------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return self.outcome(state) is not None

    def play(self, state: State, actor: int | None, move: Any, at: datetime) -> Step:
        if self.is_over(state):
            raise GameOver("the game is over")
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove('a move is an object with a string "type"')
        if actor is not None:
            if actor not in self.active_players(state):
                raise NotYourTurn("seat %(actor)s has nothing to do now", actor=actor)
            available = self.move_types(state, actor)
            if move["type"] not in available:
                raise UnavailableMove(
                    "'%(type)s' is not available now; available: %(available)s",
                    type=move["type"],
                    available=sorted(available),
                )
        return self.step(state, actor, move, at)

    def apply(self, state: State, actor: int | None, move: Any, at: datetime) -> State:
        return self.play(state, actor, move, at).state


_PLAIN = (str, int, float, bool, type(None))


JSONish = TypeVar("JSONish")


def clone(state: JSONish) -> JSONish:
    """A deep copy to change freely (a state, or any part of one): engines never mutate the state
    they were given.

    States are JSON (dicts, lists and scalars; they are cached and snapshotted as JSON), which
    this copies several times faster than copy.deepcopy, whose memo and dispatch dominated the
    sweeper's profile; anything else still goes through deepcopy."""
    return _copied(state)


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _PLAIN else _copied(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _PLAIN else _copied(item) for item in value]
    if kind in _PLAIN:
        return value
    return copy.deepcopy(value)
