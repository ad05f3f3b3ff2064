"""Every game replayed from its events alone, checked against what the database keeps beside them.

The events are the truth; a game's row (version, status, whose turn, result) and its snapshots are
derived from them. After a restore (docs/operations.md, "Backups"), `manage.py verify_games`
replays every game from its first event, without snapshots or the state cache, and reports each
game whose row or snapshots disagree: a restore that lost or reordered rows shows up here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Q

from config import jsoncodec
from games.models import Event, Game, Snapshot
from games.play import store
from games.play.kinds import engine_of
from games.play.projection import rebuild_projection

ROW = ("version", "status", "active_seats", "result")


@dataclass(frozen=True)
class Disagreement:
    game_id: str
    what: str  # a column of the game's row, or "snapshot N"
    kept: object
    replayed: object


def _plain(value):
    """As JSON gives it back (tuples are lists, keys are strings): the form a snapshot is kept in."""
    return jsoncodec.loads(jsoncodec.dumps(value))


def verify_game(game: Game) -> list[Disagreement]:
    """Where this game's row and snapshots differ from a replay of its events."""
    found = []
    rebuilt = rebuild_projection(game)
    for column in ROW:
        kept, replayed = _plain(getattr(game, column)), _plain(rebuilt[column])
        if kept != replayed:
            found.append(Disagreement(str(game.pk), column, kept, replayed))
    snapshots = dict(Snapshot.objects.filter(game=game).values_list("version", "state"))
    if snapshots:
        engine, state = engine_of(game), None
        for event in Event.objects.filter(game=game, seq__lte=max(snapshots)).order_by("seq"):
            state = store.evolve(engine, state, event, game)
            if event.seq in snapshots and _plain(snapshots[event.seq]) != _plain(state):
                found.append(Disagreement(str(game.pk), f"snapshot {event.seq}", "(its state)", "(another state)"))
    return found


def verify_games(batch: int = 200) -> Iterator[tuple[Game, list[Disagreement]]]:
    """Each game (oldest first) with what disagrees in it (an empty list: all is well)."""
    # Page by (created_at, id), not a server-side cursor: a cursor held across the checks' own
    # queries is session state, which a pooler in transaction mode does not keep.
    after = Q()
    while page := list(Game.objects.filter(after).order_by("created_at", "id")[:batch]):
        for game in page:
            yield game, verify_game(game)
        last = page[-1]
        after = Q(created_at__gt=last.created_at) | Q(created_at=last.created_at, id__gt=last.id)
