"""Every game against the computer at every level, over the API (docs/bots.md, "Playing against
the computer"): a person creates the game with `bots`, plays their side through the API, and a
real Celery worker makes the bots' moves through the same use case as the person's.

Photograph, Walking in Provence and Pick Pic (to the rulebook's 20 points) are played to their
end: a whole game is a few dozen moves, seconds at the worker's budget. Photoshoot's end is out
of a test's reach (5 rounds cooperative, teams to 25 points), so its bots are watched on the real
hourglass (5 seconds) for one round, cooperative, or two, teams (one for each team to
photograph): they get ready, take their turns within it, and the round ends on the server's timer.

The bots do not wait before they move, and a level-3 move thinks 0.1 s of CPU, not the site's
0.8 s: a bot's moves go through the same rules at any budget."""

from __future__ import annotations

import itertools
import json
import random
import time
from dataclasses import dataclass

import pytest

from games.models import Event, Game
from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]
# Long enough for two bots of a team to each take a turn while the machine runs the rest of the
# suite beside them (a level-3 bot on a loaded two-core box has taken over 5 s to be scheduled).
HOURGLASS = 8
THINK = "0.1"


@pytest.fixture(scope="module")
def worker(django_db_setup, django_db_blocker):
    """One worker for the module, on every queue, with beat: the bots' moves, and the timers
    Photoshoot's hourglass runs on."""
    with django_db_blocker.unblock():
        purge_queue()
        w = Worker(BOT_MOVE_DELAY_SECONDS="0", BOT_TABLE_DELAY_SECONDS="0", BOT_THINK_SECONDS=THINK).start()
    yield w
    w.stop()
    purge_queue()


@dataclass
class Table:
    """The module's worker, seen from one test: its log from where the test began."""

    worker: Worker
    mark: int

    def log(self) -> str:
        return self.worker.output()[self.mark :]

    def errors(self, game_id: str) -> list[str]:
        """What the worker logged as an error about the game (a task's arguments name it)."""
        found = []
        for line in self.log().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("level") in ("ERROR", "CRITICAL") and game_id in line:
                found.append(record.get("message", line))
        return found


@pytest.fixture
def table(worker, settings):
    # The web process sends a bot its task after its own commits: it must not wait either.
    settings.BOT_MOVE_DELAY_SECONDS = 0
    settings.BOT_TABLE_DELAY_SECONDS = 0
    yield Table(worker, len(worker.output()))
    # A Photoshoot game never ends here: its bots and hourglass would play on into the next
    # test. A cancelled game leaves them nothing to do.
    Game.objects.filter(status=Game.Status.ACTIVE).update(status=Game.Status.CANCELLED)
    purge_queue()


def ok(response, *statuses):
    """Any answer is below 500; `statuses` narrows it."""
    assert response.status_code < 500, response.content
    if statuses:
        assert response.status_code in statuses, response.content
    return response.json()


def create(person, kind, levels, options=None):
    """A game against bots of `levels`, created over the API: it starts at once, the bots seated
    after the person."""
    game = ok(person.post("/api/v1/games/", {"kind": kind, "bots": levels, "options": options or {}}), 201)
    assert game["status"] == "active"
    assert [p["bot"] for p in game["players"]] == [None, *levels]
    return game["id"]


def bot_moves(game_id):
    """The bots' events in the store, with the version each bot decided on (its key names it)."""
    bots = [int(uid) for uid in Game.objects.get(pk=game_id).options["bots"]]
    return [
        (e, int(e.idempotency_key.rsplit(":", 1)[1]))
        for e in Event.objects.filter(game_id=game_id, user_id__in=bots).exclude(type="PlayerJoined").order_by("seq")
    ]


def assert_played_by_the_rules(person, game_id, table):
    """The log a player reads runs 1, 2, 3… with no gap; each bot move is the one event after the
    version its bot read, made by the bot seated there, under its idempotency key; no seat's
    clock played for it; no task about the game failed."""
    seqs, after = [], 0
    while True:
        page = ok(person.get(f"/api/v1/games/{game_id}/events/", after=after), 200)
        if not page["events"]:
            break
        seqs += [e["seq"] for e in page["events"]]
        assert not [e for e in page["events"] if e.get("auto") and e["actor"] is not None]
        after = seqs[-1]
    assert seqs == list(range(1, page["version"] + 1))
    seated = {p["seat"]: p["user"] for p in person.game(game_id)["players"]}
    moves = bot_moves(game_id)
    assert moves
    for event, version in moves:
        assert event.seq == version + 1
        assert event.idempotency_key == f"bot:{game_id}:{event.actor}:{version}"
        assert seated[event.actor] == event.user_id
    assert not table.errors(game_id), table.errors(game_id)


def your_move(person, game_id, table):
    """Waits until the person has a move or the game is over; the legal moves, or None."""

    def ready():
        game = ok(person.get(f"/api/v1/games/{game_id}/"), 200)
        return game["status"] != "active" or game["your_turn"]

    assert wait_for(ready, timeout=60, every=0.05), table.log()[-3000:]
    response = person.get(f"/api/v1/games/{game_id}/legal-moves/")
    if response.status_code == 409:  # the bot's move ended the game meanwhile
        assert ok(response)["code"] == "game_not_active"
        return None
    legal = ok(response, 200)
    return legal if legal["moves"] else your_move(person, game_id, table)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("kind, bots", [("photograph", 1), ("provence", 1), ("pickpic", 2)])
def test_a_person_plays_a_whole_game_against_the_computer_over_the_api(alice, table, kind, bots, level):
    game_id = create(alice, kind, [level] * bots)
    rng = random.Random(f"{kind}-{level}")
    played = 0
    while (legal := your_move(alice, game_id, table)) is not None:
        response = alice.move(game_id, rng.choice(legal["moves"]), legal["version"])
        if response.status_code == 409:  # a bot moved meanwhile (both act at once): read again
            assert ok(response)["code"] == "version_conflict", response.content
            continue
        assert ok(response, 201)["version"] > legal["version"]
        played += 1
    game = alice.game(game_id)
    assert game["status"] == "finished" and game["result"], game
    assert played >= 1
    assert_played_by_the_rules(alice, game_id, table)


def rounds_over(game_id):
    return Event.objects.filter(game_id=game_id, type="HourglassRanOut").count()


def play_photoshoot(person, game_id, rounds, table):
    """The person gets ready, mends if asked, and otherwise passes (on turn as a photographer, or
    letting the latest action stand as the Control team) until `rounds` rounds have ended."""

    def acted():
        if rounds_over(game_id) >= rounds:
            return True
        legal = ok(person.get(f"/api/v1/games/{game_id}/legal-moves/"), 200)
        if not legal["moves"]:
            return False
        by_type = {m["type"]: m for m in reversed(legal["moves"])}
        move = next((by_type[t] for t in ("ready", "mend", "pass") if t in by_type), legal["moves"][0])
        response = person.move(game_id, move, legal["version"])
        if response.status_code != 201:  # a bot or the hourglass came first: read again
            assert ok(response, 409)["code"] in ("version_conflict", "not_your_turn", "unavailable_move"), (
                response.content
            )
        return False

    deadline = time.monotonic() + rounds * (HOURGLASS + 40)
    while not acted():
        assert time.monotonic() < deadline, table.log()[-3000:]
        time.sleep(0.05)


def round_moves(game_id, number):
    """The events of round `number`: from its ready step to its hourglass running out."""
    ends = list(
        Event.objects.filter(game_id=game_id, type="HourglassRanOut").order_by("seq").values_list("seq", flat=True)
    )
    start = ends[number - 2] if number > 1 else 0
    return list(
        Event.objects.filter(game_id=game_id, seq__gt=start, seq__lte=ends[number - 1])
        .exclude(type__in=["PlayerJoined", "GameStarted"])
        .order_by("seq")
    )


def assert_bots_played_the_round(events, ready, photographers):
    """Seats `ready` posted `ready`; seats `photographers` took a turn in the round; every move a
    bot made came within the hourglass of the move before it."""
    by_seat = {}
    for event in events:
        by_seat.setdefault(event.actor, []).append(event.type)
    assert all("PlayerReady" in by_seat.get(seat, []) for seat in ready), by_seat
    assert all(set(by_seat.get(seat, [])) - {"PlayerReady"} for seat in photographers), by_seat
    for before, event in itertools.pairwise(events):
        if event.idempotency_key and event.idempotency_key.startswith("bot:"):
            assert (event.created_at - before.created_at).total_seconds() < HOURGLASS, (before, event)
    assert events[-1].type == "HourglassRanOut"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_cooperative_photoshoot_bot_plays_its_turns_within_the_hourglass(alice, table, level):
    game_id = create(alice, "photoshoot", [level], {"hourglass_seconds": HOURGLASS})
    play_photoshoot(alice, game_id, 1, table)
    assert_bots_played_the_round(round_moves(game_id, 1), ready=[1], photographers=[1])
    state = alice.game(game_id)["state"]
    assert state["last_round"]["round"] == 1 and state["round"] == 2
    assert_played_by_the_rules(alice, game_id, table)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_photoshoot_bots_fill_both_teams_and_play_a_round_each_within_the_hourglass(alice, table, level):
    game_id = create(alice, "photoshoot", [level] * 3, {"hourglass_seconds": HOURGLASS})
    assert alice.game(game_id)["state"]["teams"] == [[0, 2], [1, 3]]
    play_photoshoot(alice, game_id, 2, table)
    # Round 1: alice's team photographs, with the bot at seat 2; a Control bot gets ready.
    first = round_moves(game_id, 1)
    assert_bots_played_the_round(first, ready=[2], photographers=[2])
    assert {e.actor for e in first if e.type == "PlayerReady"} & {1, 3}
    # Round 2: the bots at seats 1 and 3 photograph.
    assert_bots_played_the_round(round_moves(game_id, 2), ready=[1, 3], photographers=[1, 3])
    assert_played_by_the_rules(alice, game_id, table)
