"""Tournaments of bots run to their end through the real services and a real Celery worker
(docs/tournaments.md): the organiser starts it, the server creates each round's games, the bots
play them on the bots' queue, each finishing write tells the worker after its commit, and the
worker records the places and opens the next round, until the final standings.

Every format for every kind, small: a Swiss of each kind (Photoshoot by teams), a round robin of
each (Pick Pic and Provence at tables of three, Photoshoot by teams), a knockout of each 2-player
game and of Pick Pic at tables (Photoshoot's teams have no knockout), and a ladder challenge of
each 2-player game (people's: bots do not climb ladders). One team Photoshoot game is played
to its natural end on a 5-second hourglass; the others are settled by staff after their first
photo round (a test's time for many whole games, and the staff's path).

The bots are registered as players here (a person registers through the API, a bot only fills
tables): level 1, no delay, a small budget. The large fields the tournaments are built for too (a
64-player Swiss of Pick Pic at four seats, a 32-player knockout of Photograph): 12 s and 21 s on a
quiet two-core machine."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations

import pytest

from django.contrib.auth.models import Permission

from accounts.models import User
from games.community import (
    ladders,
    social,
    tournament_lifecycle,
    tournament_registration,
    tournament_staff,
    tournament_standings,
)
from games.models import Challenge, Event, Game, Registration, Rung, Tournament, TournamentRound, TournamentTable
from games.play import store
from games.play.bots import bot_account
from tests.worker import Worker, purge_queue

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


@pytest.fixture(scope="module")
def worker(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        purge_queue()
        w = Worker(BOT_MOVE_DELAY_SECONDS="0", BOT_TABLE_DELAY_SECONDS="0", BOT_THINK_SECONDS="0.05").start()
    yield w
    w.stop()
    purge_queue()


def field_of_bots(t: Tournament, n: int, people: list[User] = ()) -> None:
    busy = {p.pk for p in people}
    for person in people:
        tournament_registration.register(t.pk, person)
    for _ in range(n - len(people)):
        bot = bot_account(1, busy)
        busy.add(bot.pk)
        Registration.objects.create(tournament=t, user=bot)


def run_to_the_end(t: Tournament, worker: Worker, timeout: float) -> Tournament:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t.refresh_from_db()
        if t.status != Tournament.Status.RUNNING:
            return t
        time.sleep(0.5)
    games = Game.objects.filter(tournament_table__round__tournament=t, status="active").count()
    pytest.fail(
        f"round {t.current_round} of {t.rounds} still running after {timeout} s ({games} games "
        f"in progress)\n{worker.output()[-3000:]}"
    )


def organiser() -> User:
    return User.objects.create_user(f"organiser{time.monotonic_ns()}", password="x")


def check_games_finished(t: Tournament) -> None:
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.exists() and set(games.values_list("status", flat=True)) == {"finished"}
    assert not TournamentRound.objects.filter(tournament=t, finished_at=None).exists()


def swiss_of_pickpic(worker, players: int, rounds: int, timeout: float) -> Tournament:
    boss = organiser()
    t = tournament_lifecycle.create(
        boss, "Pick Pic Swiss", "pickpic", "swiss", 4, rounds=rounds, options={"target": 3}, capacity=players
    )
    field_of_bots(t, players)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, timeout)
    assert t.status == "finished" and t.current_round == rounds
    check_games_finished(t)
    for rnd in TournamentRound.objects.filter(tournament=t):
        assert rnd.tables.count() == players // 4 and not rnd.byes
        assert all(len(table.players) == 4 and table.places is not None for table in rnd.tables.all())
    ranked = tournament_standings.standings(t)
    assert len(ranked) == players and [s.rank for s in ranked] == list(range(1, players + 1))
    return t


def knockout_of_photograph(worker, players: int, timeout: float) -> Tournament:
    boss = organiser()
    t = tournament_lifecycle.create(boss, "Photograph knockout", "photograph", "knockout", 2, capacity=players)
    field_of_bots(t, players)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, timeout)
    assert t.status == "finished" and t.current_round == t.rounds == (players - 1).bit_length()
    check_games_finished(t)
    rounds = list(TournamentRound.objects.filter(tournament=t).order_by("number"))
    assert [r.tables.count() for r in rounds][-1] == 1  # one final
    ranked = tournament_standings.standings(t)
    final = rounds[-1].tables.get()
    assert (
        ranked[0].registration.user_id == final.players[final.places.index(min(final.places))]
        or final.places[0] == final.places[1]
    )
    return t


def test_a_swiss_of_pickpic_at_four_seats(worker):
    swiss_of_pickpic(worker, players=8, rounds=2, timeout=240)


def test_a_knockout_of_photograph(worker):
    knockout_of_photograph(worker, players=6, timeout=240)


def test_a_round_robin_of_photograph(worker):
    boss = organiser()
    t = tournament_lifecycle.create(boss, "Photograph round robin", "photograph", "round_robin", 2, capacity=4)
    field_of_bots(t, 4)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 240)
    assert t.status == "finished" and t.rounds == 3
    check_games_finished(t)
    met = sorted(
        sorted(table.players) for rnd in TournamentRound.objects.filter(tournament=t) for table in rnd.tables.all()
    )
    ids = sorted(Registration.objects.filter(tournament=t).values_list("user_id", flat=True))
    assert met == sorted(sorted(pair) for pair in combinations(ids, 2))


def meetings(t: Tournament) -> Counter:
    """How often each two players sat at one table."""
    return Counter(
        frozenset(pair)
        for rnd in TournamentRound.objects.filter(tournament=t)
        for table in rnd.tables.all()
        for pair in combinations(table.players, 2)
    )


def test_a_swiss_of_provence_at_three_seats(worker):
    boss = organiser()
    t = tournament_lifecycle.create(boss, "Provence Swiss", "provence", "swiss", 3, rounds=2, capacity=6)
    field_of_bots(t, 6)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 240)
    assert t.status == "finished" and t.current_round == 2
    check_games_finished(t)
    for rnd in TournamentRound.objects.filter(tournament=t):
        assert [len(table.players) for table in rnd.tables.all()] == [3, 3] and not rnd.byes
    ranked = tournament_standings.standings(t)
    assert [s.rank for s in ranked] == list(range(1, 7))
    assert set(Registration.objects.filter(tournament=t).values_list("final_rank", flat=True)) == set(range(1, 7))


def test_a_round_robin_of_provence_at_three_seats(worker):
    """Five players of a 3-seat game: each round a table of three and a table of two, and over
    the rounds every two players meet, the most and least often differing by at most one."""
    boss = organiser()
    t = tournament_lifecycle.create(boss, "Provence round robin", "provence", "round_robin", 3, capacity=5)
    field_of_bots(t, 5)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 300)
    assert t.status == "finished" and t.current_round == t.rounds
    check_games_finished(t)
    for rnd in TournamentRound.objects.filter(tournament=t):
        assert sorted(len(table.players) for table in rnd.tables.all()) == [2, 3]
    met = meetings(t)
    assert len(met) == 10 and max(met.values()) - min(met.values()) <= 1
    assert [s.rank for s in tournament_standings.standings(t)] == list(range(1, 6))


def wait_for_a_photo_round(game: Game, worker: Worker, timeout: float) -> None:
    """Until the bots have readied, photographed and the server's hourglass has run out once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        timers = Event.objects.filter(game=game, type=store.TIMER_EXPIRED, data__timer="hourglass")
        if (
            timers.exists()
            and Event.objects.filter(game=game, actor__isnull=False).exclude(type__in=store.SERVER_TYPES).exists()
        ):
            return
        time.sleep(0.5)
    pytest.fail(f"no photo round of game {game.pk} played out in {timeout} s\n{worker.output()[-3000:]}")


def photoshoot_of_teams(worker, format: str, players: int, rounds: int | None) -> Tournament:
    """Team Photoshoot at four seats (seats 0 and 2 against 1 and 3) on a 5-second hourglass. A
    whole game, to 25 points, is many photo rounds (played out once, below). Here the bots play
    each game's first photo round on the server's timer, then staff settle it by the score (the
    team ahead first; level, both first), as a round's deadline would; the tournament moves on
    and ends as for any other kind."""
    boss = organiser()
    staff = User.objects.create_user(f"referee{time.monotonic_ns()}", password="x", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    staff = User.objects.get(pk=staff.pk)
    t = tournament_lifecycle.create(
        boss,
        "Photoshoot by teams",
        "photoshoot",
        format,
        4,
        rounds=rounds,
        options={"hourglass_seconds": 5},
        capacity=players,
    )
    field_of_bots(t, players)
    tournament_lifecycle.start(t.pk, boss)
    t.refresh_from_db()
    for number in range(1, t.rounds + 1):
        rnd = TournamentRound.objects.get(tournament=t, number=number)
        assert [len(table.players) for table in rnd.tables.all()] == [4] * (players // 4)
        for table in rnd.tables.select_related("game"):
            wait_for_a_photo_round(table.game, worker, 120)
            state = store.state_at(Game.objects.get(pk=table.game_id))
            team_place = [1 + (state["scores"][k] < state["scores"][1 - k]) for k in (0, 1)]
            places = [team_place[0 if seat in state["teams"][0] else 1] for seat in range(4)]
            tournament_staff.settle_game(t.pk, staff, table.game_id, places, "the round's time is up")
    t = run_to_the_end(t, worker, 60)
    # The bots' moves still queued for the settled games would find them over: drop them, and
    # let the ones in hand end, before the test's tables are emptied.
    purge_queue()
    time.sleep(2)
    assert t.status == "finished"
    check_games_finished(t)
    for table in TournamentTable.objects.filter(round__tournament=t):
        assert table.places[0] == table.places[2] and table.places[1] == table.places[3]
    ranked = tournament_standings.standings(t)
    assert [s.rank for s in ranked] == list(range(1, players + 1))
    # Each player scores their team's place: at a table of four, 5 points for each of the first
    # pair and 1 for the second; level, 3 for all. Twelve points a table.
    assert sum(s.points for s in ranked) == 12 * (players // 4) * t.rounds
    return t


def test_a_team_swiss_of_photoshoot_settled_by_staff_at_each_round(worker):
    t = photoshoot_of_teams(worker, "swiss", players=8, rounds=2)
    assert t.current_round == 2


def test_a_team_round_robin_of_photoshoot(worker):
    """Four players at four seats: one round, everyone at one table."""
    t = photoshoot_of_teams(worker, "round_robin", players=4, rounds=None)
    assert t.rounds == 1


@pytest.mark.long
@pytest.mark.timeout(1500)
def test_a_photoshoot_tournament_game_played_by_bots_to_its_natural_end(worker):
    """The same round robin, nobody settling: the bots photograph round after round on the
    server's 5-second hourglass until a team reaches 25 points and the rounds are even (the
    rulebook's end), and the tournament ends on that result."""
    boss = organiser()
    t = tournament_lifecycle.create(
        boss, "Photoshoot to the end", "photoshoot", "round_robin", 4, options={"hourglass_seconds": 5}, capacity=4
    )
    field_of_bots(t, 4)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 1400)
    assert t.status == "finished" and t.rounds == 1
    check_games_finished(t)
    table = TournamentTable.objects.get(round__tournament=t)
    game = Game.objects.get(pk=table.game_id)
    assert "settled" not in game.result  # played out, not settled by staff nor by a deadline
    state = store.state_at(game)
    assert max(state["scores"]) >= 25 and state["phase"] == "over"
    assert game.result["scores"] and game.result["places"] == table.places
    # Each team's members share its place; the team with more points is first.
    first, second = state["teams"]
    assert len({table.places[s] for s in first}) == 1 and len({table.places[s] for s in second}) == 1
    if state["scores"][0] != state["scores"][1]:
        ahead = first if state["scores"][0] > state["scores"][1] else second
        assert all(table.places[s] == 1 for s in ahead)
    assert sum(s.points for s in tournament_standings.standings(t)) == 12


def test_a_swiss_of_photograph(worker):
    boss = organiser()
    t = tournament_lifecycle.create(boss, "Photograph Swiss", "photograph", "swiss", 2, rounds=2, capacity=4)
    field_of_bots(t, 4)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 240)
    assert t.status == "finished" and t.current_round == 2
    check_games_finished(t)
    assert meetings(t).most_common(1)[0][1] == 1  # no rematch
    assert [s.rank for s in tournament_standings.standings(t)] == list(range(1, 5))


def test_a_knockout_of_provence(worker):
    knockout = tournament_lifecycle.create(organiser(), "Provence knockout", "provence", "knockout", 2, capacity=4)
    field_of_bots(knockout, 4)
    tournament_lifecycle.start(knockout.pk, knockout.organiser)
    t = run_to_the_end(knockout, worker, 240)
    assert t.status == "finished" and t.current_round == t.rounds == 2
    check_games_finished(t)
    assert [r.tables.count() for r in TournamentRound.objects.filter(tournament=t).order_by("number")] == [2, 1]


def test_a_knockout_of_pickpic_at_three_seats(worker):
    """Nine players: three tables of three, the winner of each through to a final table."""
    boss = organiser()
    t = tournament_lifecycle.create(
        boss, "Pick Pic knockout", "pickpic", "knockout", 3, through=1, options={"target": 3}, capacity=9
    )
    field_of_bots(t, 9)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 300)
    assert t.status == "finished" and t.current_round == t.rounds == 2
    check_games_finished(t)
    first, final = TournamentRound.objects.filter(tournament=t).order_by("number")
    assert first.tables.count() == 3 and final.tables.count() == 1
    winners = {table.players[table.places.index(min(table.places))] for table in first.tables.all()}
    assert set(final.tables.get().players) <= winners | set(first.byes)
    champion = final.tables.get()
    assert tournament_standings.standings(t)[0].registration.user_id in {
        p for p, place in zip(champion.players, champion.places) if place == min(champion.places)
    }


def test_a_round_robin_of_pickpic_at_three_seats(worker):
    """Four players of a game for three or more: one table of three a round, the fourth sitting
    out in turn, until every two have met."""
    boss = organiser()
    t = tournament_lifecycle.create(
        boss, "Pick Pic round robin", "pickpic", "round_robin", 3, options={"target": 3}, capacity=4
    )
    field_of_bots(t, 4)
    tournament_lifecycle.start(t.pk, boss)
    t = run_to_the_end(t, worker, 300)
    assert t.status == "finished" and t.current_round == t.rounds
    check_games_finished(t)
    rounds = list(TournamentRound.objects.filter(tournament=t))
    assert all(r.tables.count() == 1 and len(r.byes) == 1 for r in rounds)
    met = meetings(t)
    assert len(met) == 6 and max(met.values()) - min(met.values()) <= 1


def test_the_64_player_swiss_of_pickpic(worker):
    swiss_of_pickpic(worker, players=64, rounds=3, timeout=900)


def test_the_32_player_knockout_of_photograph(worker):
    knockout_of_photograph(worker, players=32, timeout=900)


@pytest.mark.parametrize("kind", ["photograph", "provence"])
def test_a_ladder_challenge_through_the_worker(worker, kind):
    """A ladder is people's (bots do not climb ladders): the third challenges the first, the
    game is created with the ladder's clock, the defender resigns, and the worker, told after the
    resignation's commit, moves the challenger to the top and the others down one."""
    ann, ben, cat = (
        User.objects.create_user(f"{name}{time.monotonic_ns()}", password="x") for name in ("ann", "ben", "cat")
    )
    for person in (ann, ben, cat):
        ladders.join(kind, person)
    made = ladders.accept(ladders.challenge(kind, cat, ann.username).pk, ann)
    assert made.game.status == "active" and made.game.options["ladder"] == kind
    social.resign(made.game_id, ann)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and Challenge.objects.get(pk=made.pk).status == "playing":
        time.sleep(0.3)
    assert Challenge.objects.get(pk=made.pk).status == "won", worker.output()[-2000:]
    order = list(
        Rung.objects.filter(ladder__kind=kind, user__in=[ann, ben, cat])
        .order_by("position")
        .values_list("user_id", flat=True)
    )
    assert order == [cat.pk, ann.pk, ben.pk]
