"""Game options: each engine's own schema plus the clock options every kind shares.

Options are validated once, at create, and stored with every default filled in, so the game's
behaviour never depends on a default that changes later.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from jsonschema import Draft202012Validator

from games.engines.base import Engine
from games.errors import Invalid

DAY = 86400

CLOCK_SCHEMA: dict[str, dict[str, Any]] = {
    "time_control": {
        "type": "string",
        "enum": ["none", "per_move", "bank"],
        "default": "per_move",
        "description": "per_move (the default for new games: move_seconds, 3 days, for every "
        "move); bank: a bank of time that grows by an increment per move, up to a "
        "cap (correspondence style); none: no clock (a silent seat may then be "
        "claimed forfeited after VANISHED_AFTER_DAYS, docs/social.md)",
    },
    "move_seconds": {
        "type": "integer",
        "minimum": 1,
        "maximum": 60 * DAY,
        "default": 3 * DAY,
        "description": "per_move: time for each move",
    },
    "bank_initial_seconds": {"type": "integer", "minimum": 1, "maximum": 120 * DAY, "default": 7 * DAY},
    "bank_increment_seconds": {"type": "integer", "minimum": 0, "maximum": 60 * DAY, "default": DAY},
    "bank_max_seconds": {"type": "integer", "minimum": 1, "maximum": 365 * DAY, "default": 14 * DAY},
    "timeout_policy": {
        "type": "string",
        "enum": ["auto_move", "forfeit"],
        "default": "auto_move",
        "description": "auto_move: the server plays a legal move for the seat; forfeit: the seat is out",
    },
    "reminder_fraction": {
        "type": "number",
        "minimum": 0,
        "maximum": 0.9,
        "default": 0.2,
        "description": "remind a seat when this fraction of its time is left (0: never)",
    },
}


# Set by the server, never by a client (validate refuses it): the computer players seated at
# create, so every write's commit knows without a query whether a bot may have to move.
BOTS_SCHEMA: dict[str, dict[str, Any]] = {
    "bots": {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 3},
        "description": "set by the server: user id -> level of each computer player seated "
        "(name bots with `bots` at create; docs/bots.md)",
    },
    "tournament": {
        "type": "string",
        "format": "uuid",
        "description": "set by the server: the tournament this game is a table of (docs/tournaments.md)",
    },
    "ladder": {
        "type": "string",
        "description": "set by the server: the kind whose ladder this game is a challenge of (docs/tournaments.md)",
    },
}


def schema_for(engine: Engine) -> dict[str, Any]:
    own = engine.options_schema()
    return {
        "type": "object",
        "properties": {**own.get("properties", {}), **CLOCK_SCHEMA, **BOTS_SCHEMA},
        "required": own.get("required", []),
        "additionalProperties": False,
    }


def _normalised(schema: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """Whole floats where the schema wants an integer become ints (JSON Schema calls 10.0 an
    integer, but an engine checking `type(x) is int` would refuse it at every start); any other
    float stays as it is, for the schema to refuse."""
    properties = schema["properties"]
    out = {}
    for name, value in options.items():
        wants_int = properties.get(name, {}).get("type") == "integer"
        if wants_int and isinstance(value, float) and value.is_integer():
            value = int(value)
        out[name] = value
    return out


def _check_playable(engine: Engine, options: dict[str, Any]) -> None:
    """Set the game up once, with a throwaway seed, for every player count it may start with, so
    options the engine refuses are refused now rather than at every `start`."""
    own = engine_options(engine, options)
    for players in range(engine.min_players, engine.max_players + 1):
        try:
            engine.setup(players, own, "options-check")
        except (ValueError, TypeError, KeyError, IndexError, AssertionError) as error:
            # The options are the only input here: whatever the engine refused them with is the
            # client's 400, never a 500 at create nor at every start later.
            raise Invalid(gettext("options: %(error)s") % {"error": error}) from None


def validate(engine: Engine, options: Any) -> dict[str, Any]:
    """The options with every default filled in; Invalid names each problem."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Invalid(gettext("options must be an object"))
    if "bots" in options:
        raise Invalid(gettext("options.bots is set by the server: name computer players with `bots`"))
    if "tournament" in options or "ladder" in options:
        raise Invalid(gettext("options.tournament and options.ladder are set by the server"))
    schema = schema_for(engine)
    options = _normalised(schema, options)
    errors = sorted(Draft202012Validator(schema).iter_errors(options), key=lambda e: list(e.path))
    if errors:
        raise Invalid("; ".join(f"options{''.join(f'.{p}' for p in e.path)}: {e.message}" for e in errors[:5]))
    filled = {name: prop["default"] for name, prop in schema["properties"].items() if "default" in prop}
    filled.update(options)
    if filled["time_control"] == "bank" and filled["bank_max_seconds"] < filled["bank_initial_seconds"]:
        raise Invalid(gettext("options.bank_max_seconds must be at least bank_initial_seconds"))
    _check_playable(engine, filled)
    return filled


def engine_options(engine: Engine, options: dict[str, Any]) -> dict[str, Any]:
    """The engine's own options (normalised again: a game created before normalisation may hold
    `10.0` and must still start)."""
    own = engine.options_schema().get("properties", {})
    return _normalised({"properties": own}, {k: v for k, v in options.items() if k in own})
