"""What a move costs the database, counted so it cannot creep back: two statements
for a move that notifies nobody, the same number however many players it notifies, one
read of the game row per request, and nothing whose cost grows with other games' or users' rows
(no search of pending deliveries for the email digest, no expiry transaction when nothing is due)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play import moves
from games.models import Game
from tests.conftest import start_game


def pickpic(make_player, players, options=None):
    seats = [make_player() for _ in range(players)]
    game_id = start_game(seats[0], seats[1:], kind="pickpic", options=options or {})
    return game_id, {p.user.pk: p for p in seats}


def give(game_id, seat_user, by_user):
    """The seat's first legal give, as a services call (what the view calls)."""
    game = Game.objects.get(pk=game_id)
    player = by_user[seat_user]
    move = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"][0]
    return player, move, game.version


def seat_users(game_id):
    game = Game.objects.get(pk=game_id)
    return {s.number: s.user_id for s in game.seat_set.all()}, game.active_seats


def statements(captured):
    """The statements a block ran. The test's own transaction turns a service's into a savepoint;
    in service it is a BEGIN/COMMIT, which is not a query: leave those out."""
    return [
        q["sql"]
        for q in captured.captured_queries
        if not re.match(r"\s*(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)", q["sql"])
    ]


def queries_of_move(game_id, by_user, seat):
    users, _ = seat_users(game_id)
    player, move, version = give(game_id, users[seat], by_user)
    with CaptureQueriesContext(connection) as captured:
        moves.submit_move(game_id, player.user, move, version)
    return statements(captured)


def table_reads(table):
    """How often this transaction has looked into `table` so far, by any scan (PostgreSQL's own
    count for the current transaction)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) FROM pg_stat_xact_user_tables"
            " WHERE relname = %s",
            [table],
        )
        return cursor.fetchone()[0]


@pytest.fixture
def warm(django_capture_on_commit_callbacks):
    """Run the after-commit work of the set-up (the state cache above all), as a real commit
    would: the measured move then finds its state in the cache, as in service."""
    return django_capture_on_commit_callbacks


@pytest.mark.parametrize(
    "options", [{"time_control": "none"}, {"time_control": "per_move", "move_seconds": 600}], ids=["no clock", "clock"]
)
def test_a_move_that_notifies_nobody_costs_two_statements(make_player, warm, options):
    with warm(execute=True):
        game_id, by_user = pickpic(make_player, 3, options)
    # Give phase: all three seats are active; seat 0 giving makes no seat newly active.
    sql = queries_of_move(game_id, by_user, 0)
    # The game (its seats, their vacations and whether the mover has a turn notice to read, with
    # it); then the event with the game's new version, in one statement. The creator started the
    # game and has no notice to mark read.
    assert len(sql) == 2, "\n".join(sql)
    game = Game.objects.get(pk=game_id)
    assert game.version == game.events.count()  # the event and the game's version, together


def test_a_move_costs_the_same_queries_however_many_players_it_notifies(make_player, warm):
    counts = {}
    for players in (3, 5):
        with warm(execute=True):
            game_id, by_user = pickpic(make_player, players)
            for seat in range(players - 1):
                users, _ = seat_users(game_id)
                player, move, version = give(game_id, users[seat], by_user)
                moves.submit_move(game_id, player.user, move, version)
        # The last give starts the ranking: every other seat is told it is their turn.
        sql = queries_of_move(game_id, by_user, players - 1)
        counts[players] = len(sql)
        notified = Game.objects.get(pk=game_id).active_seats
        assert len(notified) == players
    assert counts[3] == counts[5], counts
    # The game; the event with the game row; the recipients; the turn notices the givers read a
    # moment ago, opened again (they collapse: docs/time-and-notifications.md); the new notices
    # with their deliveries.
    assert counts[5] == 5, counts


def test_a_move_request_costs_its_caller_s_token_and_the_move_s_two_statements(make_player, warm):
    with warm(execute=True):
        game_id, by_user = pickpic(make_player, 3, {"time_control": "per_move", "move_seconds": 600})
    users, _ = seat_users(game_id)
    player, move, version = give(game_id, users[0], by_user)
    with CaptureQueriesContext(connection) as captured:
        response = player.move(game_id, move, version)
    assert response.status_code == 201, response.content
    # The token; the game; the event with the game row. No separate expiry transaction (nothing
    # was due) and no second read of the game for the answer.
    sql = statements(captured)
    assert len(sql) == 3, "\n".join(sql)


def test_the_email_digest_slot_is_not_searched_among_pending_deliveries(make_player, warm):
    from games.models import Delivery, Notification

    with warm(execute=True):
        game_id, by_user = pickpic(make_player, 3)
        for seat in range(2):
            users, _ = seat_users(game_id)
            player, move, version = give(game_id, users[seat], by_user)
            moves.submit_move(game_id, player.user, move, version)
    # A backlog of emails waiting for the players the last give notifies.
    notices = Notification.objects.filter(game_id=game_id)
    Delivery.objects.bulk_create(
        Delivery(notification=notice, channel="email", next_attempt_at=notice.created_at)
        for notice in notices
        for _ in range(20)
    )
    pending = Delivery.objects.filter(channel="email", status="pending")
    emails = pending.count()
    looked = table_reads("games_delivery")
    sql = queries_of_move(game_id, by_user, 2)
    assert table_reads("games_delivery") == looked  # the move never looked at the backlog
    assert len(sql) == 5, "\n".join(sql)  # as for any notifying move (above)
    assert pending.count() == emails + 1  # the creator's new turn notice queued its email


def test_a_game_s_page_reads_the_game_and_its_players_in_one_statement(make_player, warm):
    with warm(execute=True):
        game_id, by_user = pickpic(make_player, 3)
    player = next(iter(by_user.values()))
    with CaptureQueriesContext(connection) as captured:
        response = player.get(f"/api/v1/games/{game_id}/")
    assert response.status_code == 200
    assert [p["username"] for p in response.json()["players"]] == [
        by_user[user_id].user.username for _, user_id in sorted(seat_users(game_id)[0].items())
    ]
    # The caller's token, then the game with its seats and their players (its state is cached).
    assert len(statements(captured)) == 2, "\n".join(statements(captured))


def test_a_move_reads_the_mover_s_turn_notice_in_its_own_write(make_player, warm):
    from games.models import Notification

    with warm(execute=True):
        game_id, by_user = pickpic(make_player, 3)
    users, _ = seat_users(game_id)
    unread = Notification.objects.filter(user_id=users[1], game_id=game_id, type="your_turn", read_at=None)
    assert unread.count() == 1  # told at the start: the creator's start made seat 1 active
    sql = queries_of_move(game_id, by_user, 1)
    # Still two statements: the notice is marked read by a part of the move's write.
    assert len(sql) == 2, "\n".join(sql)
    assert unread.count() == 0


# ---------------------------------------------------------------------------------------------
# How a move finds its rows
# ---------------------------------------------------------------------------------------------
def test_every_statement_of_a_move_finds_its_rows_by_an_index(make_player, warm):
    """A move's cost must not grow with other games' rows: each statement of its requests (the
    legal moves, then the move) reaches the rows it reads or writes through an index, never by
    scanning a table (asked of PostgreSQL's planner with sequential scans priced out, so a tiny
    test table does not tip the choice)."""
    with warm(execute=True):
        game_id, by_user = pickpic(make_player, 3, {"time_control": "per_move", "move_seconds": 600})
        for seat in range(2):
            users, _ = seat_users(game_id)
            player, move, version = give(game_id, users[seat], by_user)
            moves.submit_move(game_id, player.user, move, version)
    player = by_user[seat_users(game_id)[0][2]]  # the last give: notices, deliveries, clocks
    with CaptureQueriesContext(connection) as captured:
        listed = player.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        assert player.move(game_id, listed["moves"][0], listed["version"]).status_code == 201
    sql = statements(captured)
    assert len(sql) >= 7, "\n".join(sql)  # both requests were seen: the move alone is five
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        for statement in sql:
            cursor.execute("EXPLAIN " + statement)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            scanned = re.findall(r"Seq Scan on (\w+)", plan)
            assert scanned == [], f"{scanned} scanned by:\n{statement}\n{plan}"


@pytest.mark.django_db
def test_a_join_code_still_names_one_game(make_player):
    from django.db import IntegrityError, transaction

    alice = make_player()
    first, second = (
        Game.objects.create(kind="pickpic", seats=3, creator=alice.user, seed_hash="0" * 64) for _ in range(2)
    )
    # Games without a join link are any number.
    assert Game.objects.filter(pk__in=[first.pk, second.pk], join_code__isnull=True).count() == 2
    Game.objects.filter(pk=first.pk).update(join_code="the-code")
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=second.pk).update(join_code="the-code")
    assert Game.objects.get(join_code="the-code").pk == first.pk
