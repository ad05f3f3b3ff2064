"""Record a golden game: a whole game played through the real services, written as JSON.

    python -m tests.golden.record --kind pickpic --players 3 --seed golden-1 [--options '{...}']
        [--resign SEAT@EVENTS ...]

The game is played in one database transaction that is rolled back at the end, so nothing stays
in the database (`DATABASE_URL`, migrated). Moves are drawn from `legal_moves` by a chooser seeded
with the seed, so a recording is reproducible under the rules it was made with; `--resign 1@40`
has seat 1 resign once the log holds 40 events (a forfeit, for the rules that turn on it). The file
(tests/golden/<kind>/<players>p-<seed>.json unless --out) holds the event log exactly as the store
wrote it, the hash of the final state (`state_hash`) and the outcome; `test_golden.py` replays every
file through the store and the engines and must find the same hash and outcome forever. A change
that breaks a golden game is a new rules version (see docs/games.md, "Rules versions"), never an edited
golden file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from unittest import mock

HERE = Path(__file__).resolve().parent


def state_hash(state: Any) -> str:
    """sha256 of the state's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _event_json(event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "data": event.data,
        "created_at": event.created_at.isoformat(),
    }


class _Rollback(Exception):
    pass


def record(
    kind: str,
    players: int,
    seed: str,
    options: dict[str, Any] | None = None,
    max_moves: int = 5000,
    resign: dict[int, int] | None = None,
) -> dict[str, Any]:
    """`resign`: seat -> how many events the log holds when that seat resigns."""
    from django.db import transaction

    from accounts.models import User
    from games.community import social
    from games.play import deadlines, lobby, moves, store
    from games.play.kinds import get_engine
    from games.models import Event, Game

    recorded: dict[str, Any] = {}
    # A virtual clock: a second per move, and straight to an engine timer's deadline when nobody
    # has anything to do but wait (Photoshoot's hourglass), so recording never sleeps.
    clock = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    try:
        with transaction.atomic(), mock.patch("django.utils.timezone.now", lambda: clock[0]):
            users = [
                User.objects.create_user(f"golden-{seed}-{i}", f"g{i}@example.org", "x" * 12) for i in range(players)
            ]
            with mock.patch("games.play.lobby.secrets.token_hex", return_value=seed):
                # Unrated: a golden game pins the rules; ratings would add rating changes to
                # the recorded result that no replay of the rules gives back.
                game = lobby.create_game(users[0], kind, options or {}, players, rated=False)
            for user in users[1:]:
                lobby.join_game(game.pk, user)
            lobby.start_game(game.pk, users[0])
            chooser = random.Random(f"{kind}:{players}:{seed}")
            resigning = dict(resign or {})
            for _ in range(max_moves):
                game.refresh_from_db()
                if game.status != Game.Status.ACTIVE:
                    break
                leaving = sorted(seat for seat, after in resigning.items() if after <= game.version)
                if leaving:
                    social.resign(game.pk, users[leaving[0]])
                    del resigning[leaving[0]]
                    continue
                engine = get_engine(kind)
                state = store.state_at(game)
                clock[0] += timedelta(seconds=1)
                active = sorted(engine.active_players(state))
                if any(d.at <= clock[0] for d in engine.deadlines(state)):
                    deadlines.expire_due(game.pk)  # the timer fires before anyone moves again
                    continue
                if not active:
                    clock[0] = max(clock[0], min(d.at for d in engine.deadlines(state)))
                    deadlines.expire_due(game.pk)
                    continue
                seat = chooser.choice(active)
                move = chooser.choice(engine.legal_moves(state, seat))
                moves.submit_move(game.pk, users[seat], move, game.version)
            else:
                raise RuntimeError(f"no end after {max_moves} moves")
            game.refresh_from_db()
            final = store.replay_from_scratch(game)
            created = Event.objects.get(game=game, seq=1).data
            recorded = {
                "kind": kind,
                "players": players,
                "seed": seed,
                "rules_version": created.get("rules_version", 1),
                "options": game.options,
                "events": [_event_json(e) for e in store.events(game)],
                "state_hash": state_hash(final),
                "result": game.result,
            }
            raise _Rollback
    except _Rollback:
        pass
    return recorded


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--options", default="{}", help="the game's options, as JSON")
    parser.add_argument(
        "--resign",
        action="append",
        default=[],
        metavar="SEAT@EVENTS",
        help="seat SEAT resigns once the log holds EVENTS events (repeatable)",
    )
    parser.add_argument("--out", help="file to write (default tests/golden/<kind>/<players>p-<seed>.json)")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    resign = {int(seat): int(after) for seat, after in (r.split("@") for r in args.resign)}
    game = record(args.kind, args.players, args.seed, json.loads(args.options), resign=resign)
    out = Path(args.out) if args.out else HERE / args.kind / f"{args.players}p-{args.seed}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(game, indent=1, sort_keys=True) + "\n")
    print(
        f"{out}: {len(game['events'])} events, rules_version {game['rules_version']}, "
        f"state {game['state_hash'][:12]}, winners {game['result']['winners']}"
    )
    return out


if __name__ == "__main__":
    main()
