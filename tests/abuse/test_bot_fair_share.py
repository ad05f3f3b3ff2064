"""The bots' fair share (docs/bots.md, "Fair share"): an account holds at most BOT_GAMES_PER_USER
games with bots at once, and the bots' worker serves the people they play for fairly, so one
account's burst of bot turns never stands in front of another account's bot."""

from __future__ import annotations

import time

import pytest

from games.models import Event, Game
from games.play import bot_queue
from tests.api.test_errors import error_of
from tests.bots.test_play import purge
from tests.worker import Worker, wait_for


def create(player, **body):
    return player.post("/api/v1/games/", {"kind": "pickpic", "options": {"target": 1}, **body})


@pytest.mark.django_db
def test_an_account_holds_at_most_bot_games_per_user_games_with_bots(alice, bob, settings):
    settings.BOT_GAMES_PER_USER = 2
    for _ in range(2):
        assert create(alice, bots=[1, 1]).status_code == 201
    before = Game.objects.count()
    refused = create(alice, bots=[1, 1])
    body = error_of(refused, 429, "too_many_bot_games")
    assert body["limit"] == 2 and int(refused["Retry-After"]) > 0
    # A seek bots would fill is a game with bots too; a game among people is not limited.
    error_of(create(alice, fill_with_bots={"level": 1, "after_seconds": 30}), 429, "too_many_bot_games")
    assert Game.objects.count() == before
    assert create(alice).status_code == 201
    # The limit is the account's: another person still plays the computer.
    assert create(bob, bots=[1, 1]).status_code == 201
    # A game over gives its place back.
    Game.objects.filter(pk=Game.objects.filter(creator=alice.user, status="active").first().pk).update(
        status="finished"
    )
    assert create(alice, bots=[1, 1]).status_code == 201


@pytest.mark.django_db
def test_the_least_served_owner_goes_first_whatever_was_queued_before():
    """The choice itself, on the real Redis: the heavy owner's backlog fell due first, yet the
    turn of an owner who has used no bot time lately is taken next."""
    now = time.time()
    heavy, light = 10**9 + 1, 10**9 + 2
    bot_queue.client().delete(
        bot_queue._turns_key(), bot_queue._used_key(), bot_queue._lane_key()
    )  # earlier tests' turns
    try:
        from datetime import datetime, timezone

        for n in range(40):
            bot_queue.put(bot_queue.Turn(f"g{n}", 1, 5, heavy), datetime.fromtimestamp(now - 60 + n, timezone.utc))
        bot_queue.put(bot_queue.Turn("mine", 1, 5, light), datetime.fromtimestamp(now - 1, timezone.utc))
        bot_queue.charge(heavy, 0.8)
        claim = bot_queue.take(now)
        assert claim.turn == bot_queue.Turn("mine", 1, 5, light)
        bot_queue.release(claim)
        # Then the heavy owner's, oldest first; none twice.
        taken = []
        for _ in range(41):
            taken.append(claim := bot_queue.take(now))
            if claim:
                bot_queue.release(claim)
        assert [c.turn.game_id for c in taken[:40]] == [f"g{n}" for n in range(40)] and taken[40] is None
    finally:
        bot_queue.client().delete(bot_queue._turns_key(), bot_queue._used_key(), bot_queue._lane_key())


def test_a_quick_bot_never_waits_behind_a_search():
    """One process at a time searches (level 3): while another holds the search lane, a process
    plays the quick turns, fairest first, and leaves the searches to the lane's holder."""
    from datetime import datetime, timezone

    now = time.time()
    heavy, light = 10**9 + 3, 10**9 + 4
    due = datetime.fromtimestamp(now - 5, timezone.utc)
    bot_queue.client().delete(bot_queue._turns_key(), bot_queue._used_key(), bot_queue._lane_key())
    try:
        bot_queue.put(bot_queue.Turn("search", 1, 5, light, 3), due)
        bot_queue.put(bot_queue.Turn("greedy", 1, 5, heavy, 2), due)
        bot_queue.charge(heavy, 30.0)
        searching = bot_queue.take(now)  # the fairest: the light owner's search, with the lane
        assert searching.turn.game_id == "search" and searching.lane
        bot_queue.put(bot_queue.Turn("search-2", 1, 5, light, 3), due)
        quick = bot_queue.take(now)  # another process meanwhile: not the search, the quick turn
        assert quick.turn.game_id == "greedy" and quick.lane is None
        assert bot_queue.take(now) is None  # only a search is left, and the lane is held
        bot_queue.release(searching)
        assert bot_queue.take(now).turn.game_id == "search-2"
    finally:
        bot_queue.client().delete(bot_queue._turns_key(), bot_queue._used_key(), bot_queue._lane_key())


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_one_accounts_burst_of_bot_turns_does_not_stand_before_anothers_bot(make_player, settings):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    settings.BOT_TABLE_DELAY_SECONDS = 0
    purge(settings.BOTS_QUEUE)
    heavy, light = make_player(), make_player()
    # Five Pick Pic tables of four searching bots: twenty turns at once, before the worker starts.
    burst = [create(heavy, bots=[3, 3, 3, 3]).json()["id"] for _ in range(settings.BOT_GAMES_PER_USER)]
    mine = create(light, bots=[2, 2]).json()["id"]
    worker = Worker(
        queues=["bots"], beat=False, BOT_MOVE_DELAY_SECONDS="0", BOT_TABLE_DELAY_SECONDS="0", BOT_THINK_SECONDS="0.3"
    ).start()
    try:
        assert wait_for(lambda: Game.objects.get(pk=mine).active_seats == [0], timeout=120), worker.output()[-3000:]
        moves = Event.objects.exclude(type="PlayerJoined").filter(actor__gte=1)
        last_mine = moves.filter(game_id=mine).order_by("-pk").first()
        before = moves.filter(game_id__in=burst, pk__lt=last_mine.pk).count()
        # Served fairly, the light account's two bots wait for a turn or two of the burst's, not
        # for all twenty.
        assert before <= 5, (before, worker.output()[-3000:])
    finally:
        worker.stop()
        purge(settings.BOTS_QUEUE)
        bot_queue.client().delete(bot_queue._turns_key(), bot_queue._used_key())


@pytest.mark.django_db
def test_a_wake_plays_the_due_turns_charges_their_owner_and_leaves_the_rest(
    alice, settings, queue, monkeypatch, caplog
):
    """One wake of the bots' worker, in this process: every due turn is played or found stale (a
    game gone is logged and passed over), its time charged to the game's creator; a turn not yet
    due waits; and a wake whose time is up hands what is left to the next one."""
    import logging
    import uuid
    from datetime import datetime, timedelta, timezone

    from games.play import bot_moves

    settings.BOT_THINK_SECONDS = 0.05
    game = create(alice, bots=[1, 1]).json()
    game_id, version, owner = game["id"], game["version"], alice.user.pk
    now = datetime.now(timezone.utc)
    bot_queue.client().delete(bot_queue._turns_key(), bot_queue._used_key())
    try:
        # Seat 1 moves first; seat 2's turn, queued at the same version, is stale once it has.
        bot_queue.put(bot_queue.Turn(game_id, 1, version, owner), now - timedelta(seconds=3))
        bot_queue.put(bot_queue.Turn(game_id, 2, version, owner), now - timedelta(seconds=2))
        bot_queue.put(bot_queue.Turn(game_id, 2, version + 1, owner), now + timedelta(hours=1))
        gone = bot_queue.Turn(str(uuid.uuid4()), 1, 1, owner)
        bot_queue.put(gone, now - timedelta(seconds=1))
        with caplog.at_level(logging.ERROR, logger="games.play.bot_moves"):
            assert bot_moves.play_due_turns() == 2  # the move and the game gone; not the stale turn
        logged = [r.getMessage() for r in caplog.records if r.name == "games.play.bot_moves"]
        assert logged == [f"bot turn {gone.member()} failed"]
        assert list(Event.objects.filter(game_id=game_id, seq__gt=version).values_list("actor", flat=True)) == [1]
        assert bot_queue.waiting() == 1  # the turn not yet due
        assert 0 < bot_queue.usage([owner])[owner] < 60  # the seconds this wake spent on them
        assert queue() == []  # nothing left over: no new wake
        # A wake with no time left plays nothing and sends the next wake at once.
        bot_queue.put(bot_queue.Turn(game_id, 1, version + 1, owner), now - timedelta(seconds=1))
        monkeypatch.setattr(bot_moves, "WAKE_SECONDS", 0)
        assert bot_moves.play_due_turns() == 0
        assert queue() == [("games.tasks.play_bot_turns", [], None)]
        assert bot_queue.waiting() == 2
    finally:
        bot_queue.client().delete(bot_queue._turns_key(), bot_queue._used_key())


@pytest.mark.django_db
def test_a_seek_whose_wait_ends_at_the_limit_stays_open_for_people(alice, settings):
    from games.play import bot_moves

    settings.BOT_GAMES_PER_USER = 1
    seek = create(alice, fill_with_bots={"level": 1, "after_seconds": 5}).json()["id"]
    assert create(alice, bots=[1, 1]).status_code == 201  # the seek seats no bot yet
    assert bot_moves.fill_seats(seek, 1) == "too many games with bots"
    assert Game.objects.get(pk=seek).status == Game.Status.OPEN
    assert not Game.objects.filter(pk=seek, seat_set__user__is_bot=True).exists()
