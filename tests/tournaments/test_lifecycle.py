"""A tournament's life through its use cases (games.community.tournament_*), on the tiny Duel: create,
register, start, each round's games created at once with their clocks, the next round when the last
game ends, withdrawals, the final standings, the notices. The games end by resignation here (the
worker's part is tests/tournaments/test_end_to_end.py): what the worker is told after a finishing
commit, `games_finished`, is called as the worker would."""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone
from jsonschema import Draft202012Validator

from accounts.models import User
from games.community import (
    social,
    tournament_lifecycle,
    tournament_registration,
    tournament_staff,
    tournament_standings,
)
from games.errors import AlreadyJoined, Forbidden, TournamentClosed, WrongPlayerCount
from games.models import Game, Notification, Registration, Tournament, TournamentRound, TournamentTable
from games.play import store
from games.play.kinds import get_engine
from games.play.options import schema_for
from games.tournaments import pairing

pytestmark = pytest.mark.django_db


def users(n: int, prefix: str = "p") -> list[User]:
    return [User.objects.create_user(f"{prefix}{i}", password="x") for i in range(n)]


@pytest.fixture
def organiser():
    return User.objects.create_user("organiser", password="x")


def make(organiser, format="swiss", kind="duel", table_size=2, **more) -> Tournament:
    if format == "swiss":
        more.setdefault("rounds", 3)
    return tournament_lifecycle.create(organiser, "Spring cup", kind, format, table_size, **more)


def play_round(t: Tournament, loser=lambda table: table.players[-1]) -> TournamentRound:
    """Every game of the current round ends by `loser(table)` resigning (by default the last
    seat); then the worker's part."""
    t.refresh_from_db()
    rnd = TournamentRound.objects.get(tournament=t, number=t.current_round)
    ids = []
    for table in rnd.tables.select_related("game"):
        if table.game.status == "active":
            social.resign(table.game_id, User.objects.get(pk=loser(table)))
        ids.append(str(table.game_id))
    tournament_lifecycle.games_finished(ids)
    t.refresh_from_db()
    return rnd


def rounds_of(t: Tournament) -> list[list[tuple[int, ...]]]:
    return [
        [tuple(table.players) for table in rnd.tables.order_by("number")]
        for rnd in TournamentRound.objects.filter(tournament=t).order_by("number")
    ]


def test_a_swiss_of_five_runs_to_its_end_with_one_bye_each_and_no_rematch(organiser):
    players = users(5)
    t = make(organiser)
    assert len(t.seed) == 64 and t.seed_hash == store.seed_hash(t.seed)
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    t.refresh_from_db()
    assert t.status == "running" and t.current_round == 1
    first = TournamentRound.objects.get(tournament=t, number=1)
    games = Game.objects.filter(tournament_table__round=first)
    # Every game of the round at once, started, its clocks running.
    assert games.count() == 2 and all(g.status == "active" and g.clocks for g in games)
    assert all(g.options["tournament"] == str(t.pk) for g in games)
    # The game's options are as its kind's schema in the document says (the server's keys too).
    schema = schema_for(get_engine("duel"))
    for g in games:
        Draft202012Validator(schema).validate(g.options)
    for _ in range(3):
        play_round(t)
    assert t.status == "finished" and t.current_round == 3
    byes = [u for rnd in TournamentRound.objects.filter(tournament=t) for u in rnd.byes]
    assert len(byes) == 3 and len(set(byes)) == 3  # one a round, nobody twice
    met = [frozenset(table) for tables in rounds_of(t) for table in tables]
    assert len(met) == len(set(met))  # five players, three rounds: no rematch is needed
    standings = tournament_standings.standings(t)
    assert [s.rank for s in standings] == [1, 2, 3, 4, 5]
    assert [s.points for s in standings] == sorted((s.points for s in standings), reverse=True)
    # Each player heard of their registration, each round's game or bye, and the end.
    for u in players:
        events = list(Notification.objects.filter(user=u, type="tournament").values_list("data__event", flat=True))
        assert events.count("registered") == 1 and events.count("over") == 1
        assert events.count("round") + events.count("bye") == 3


def test_the_pairings_are_a_function_of_the_history_and_the_seed(organiser):
    """Anyone holding the players in their order, the rounds played and the revealed seed gets
    the same next round as the server did."""
    players = users(8)
    t = make(organiser, rounds=3)
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    play_round(t, loser=lambda table: max(table.players))
    t.refresh_from_db()
    field = [str(r.user_id) for r in Registration.objects.filter(tournament=t).order_by("number")]
    history = [e for e in tournament_standings.history(t) if e.round == 1]
    again = pairing.swiss_pairs(field, history, t.seed, tournament_standings.scoring(t))
    served = rounds_of(t)[1]
    assert sorted(frozenset(map(int, table)) for table in again.tables) == sorted(frozenset(x) for x in served)


def test_a_knockout_gives_its_byes_to_the_top_seeds_and_crowns_the_last_one_standing(organiser):
    players = users(6)
    t = make(organiser, format="knockout")
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    t.refresh_from_db()
    assert t.rounds == 3
    seeded = list(Registration.objects.filter(tournament=t).order_by("number").values_list("user_id", flat=True))
    first = TournamentRound.objects.get(tournament=t, number=1)
    assert sorted(first.byes) == sorted(seeded[:2])
    # The better seed wins every game.
    by_seed = {u: i for i, u in enumerate(seeded)}
    while t.status == "running":
        play_round(t, loser=lambda table: max(table.players, key=by_seed.get))
    standings = tournament_standings.standings(t)
    assert standings[0].registration.user_id == seeded[0]
    assert standings[1].registration.user_id == seeded[1]  # seeds 1 and 2 meet only in the final
    assert [s.round_reached for s in standings][:2] == [3, 3]


def test_a_round_robin_pairs_everyone_once(organiser):
    players = users(5)
    t = make(organiser, format="round_robin")
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    t.refresh_from_db()
    assert t.rounds == 5  # five players: five rounds, one bye each
    while t.status == "running":
        play_round(t)
    met = [frozenset(table) for tables in rounds_of(t) for table in tables]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations([u.pk for u in players], 2)), key=sorted
    )


def test_withdrawing_resigns_the_game_in_progress_and_pairs_the_player_no_more(organiser):
    players = users(4)
    t = make(organiser, rounds=2)
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    leaver = players[0]
    table = TournamentTable.objects.get(round__tournament=t, players__contains=[leaver.pk])
    tournament_registration.withdraw(t.pk, leaver)
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished"
    assert game.result["places"][table.players.index(leaver.pk)] == 2
    play_round(t)
    second = rounds_of(t)[1]
    assert all(leaver.pk not in table for table in second)
    assert TournamentRound.objects.get(tournament=t, number=2).byes  # three left: one has a bye
    assert leaver.pk in [s.registration.user_id for s in tournament_standings.standings(t)]


def test_registration_is_refused_twice_when_full_and_after_the_start(organiser):
    a, b, c = users(3)
    t = make(organiser, capacity=2)
    tournament_registration.register(t.pk, a)
    with pytest.raises(AlreadyJoined):
        tournament_registration.register(t.pk, a)
    tournament_registration.register(t.pk, b)
    with pytest.raises(TournamentClosed):
        tournament_registration.register(t.pk, c)
    knockout = make(organiser, format="knockout")
    for u in (a, b):
        tournament_registration.register(knockout.pk, u)
    tournament_lifecycle.start(knockout.pk, organiser)
    with pytest.raises(TournamentClosed):  # a knockout's bracket is fixed at the start
        tournament_registration.register(knockout.pk, c)


def test_a_running_swiss_takes_late_players_into_its_next_round(organiser):
    a, b, c, late = users(4)
    t = make(organiser, rounds=2)
    for u in (a, b, c):
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    tournament_registration.register(t.pk, late)
    play_round(t)
    second = rounds_of(t)[1]
    seated = {p for table in second for p in table} | set(TournamentRound.objects.get(tournament=t, number=2).byes)
    assert late.pk in seated


def test_only_the_organiser_starts_and_not_without_players(organiser):
    (a,) = users(1)
    t = make(organiser)
    tournament_registration.register(t.pk, a)
    with pytest.raises(Forbidden):
        tournament_lifecycle.start(t.pk, a)
    with pytest.raises(WrongPlayerCount):
        tournament_lifecycle.start(t.pk, organiser)
    t.refresh_from_db()
    assert t.status == "registering" and not TournamentRound.objects.filter(tournament=t).exists()


def test_the_beat_starts_a_tournament_at_its_time_and_cancels_one_too_small(organiser):
    players = users(3)
    soon = timezone.now() + timedelta(minutes=5)
    full = make(organiser, starts_at=soon)
    small = make(organiser, starts_at=soon)
    for u in players:
        tournament_registration.register(full.pk, u)
    tournament_registration.register(small.pk, players[0])
    Tournament.objects.filter(pk__in=[full.pk, small.pk]).update(starts_at=timezone.now() - timedelta(seconds=1))
    counts = tournament_lifecycle.due()
    full.refresh_from_db()
    small.refresh_from_db()
    assert counts["started"] == 2
    assert full.status == "running" and full.current_round == 1
    assert small.status == "cancelled"
    assert Notification.objects.filter(user=players[0], type="tournament", data__event="cancelled").exists()


def test_the_beat_advances_a_round_whose_last_message_was_lost(organiser):
    players = users(4)
    t = make(organiser, rounds=2)
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    for table in TournamentTable.objects.filter(round__tournament=t):
        social.resign(table.game_id, User.objects.get(pk=table.players[1]))
    # No games_finished: the worker never heard. The beat finds the round over.
    assert tournament_lifecycle.due()["advanced"] == 1
    t.refresh_from_db()
    assert t.current_round == 2


def test_bots_fill_the_last_table_and_a_cooperative_game_has_no_tournament(organiser):
    players = users(5)
    t = tournament_lifecycle.create(
        organiser, "Pick Pic night", "pickpic", "swiss", 4, rounds=1, bots_fill=True, bot_level=1, options={"target": 3}
    )
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    bots = Registration.objects.filter(tournament=t, user__is_bot=True)
    assert bots.count() == 3  # eight players: two full tables
    games = Game.objects.filter(tournament_table__round__tournament=t)
    assert games.count() == 2 and all(g.seats == 4 for g in games)
    assert sum(len(g.options.get("bots", {})) for g in games) == 3
    from games.errors import Invalid

    with pytest.raises(Invalid):
        tournament_lifecycle.create(organiser, "Together", "photoshoot", "swiss", 3, rounds=1)


def test_a_tournament_game_cannot_be_aborted(organiser):
    a, b = users(2)
    t = make(organiser, rounds=1)
    for u in (a, b):
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    table = TournamentTable.objects.get(round__tournament=t)
    with pytest.raises(Forbidden):
        social.vote_abort(table.game_id, a)


def test_staff_pause_holds_the_next_round_and_unpausing_opens_it(organiser):
    from django.contrib.auth.models import Permission

    staff = User.objects.create_user("staff", password="x", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_tournament"))
    staff = User.objects.get(pk=staff.pk)
    players = users(4)
    t = make(organiser, rounds=2)
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    tournament_staff.set_paused(t.pk, staff, True)
    play_round(t)
    assert t.current_round == 1
    tournament_staff.set_paused(t.pk, staff, False)
    t.refresh_from_db()
    assert t.current_round == 2
    with pytest.raises(Forbidden):
        tournament_staff.set_paused(t.pk, players[0], True)
    removed = tournament_staff.remove_player(t.pk, staff, players[0].pk)
    assert removed.removed and removed.withdrawn_at is not None


def test_a_knockout_at_tables_sends_the_top_places_through_until_one_table_is_left(organiser):
    players = users(9)
    t = tournament_lifecycle.create(
        organiser, "Pick Pic knockout", "pickpic", "knockout", 3, through=1, options={"target": 3}
    )
    for u in players:
        tournament_registration.register(t.pk, u)
    tournament_lifecycle.start(t.pk, organiser)
    t.refresh_from_db()
    assert t.rounds == 2
    seeded = list(Registration.objects.filter(tournament=t).order_by("number").values_list("user_id", flat=True))
    first = rounds_of(t)[0]
    # Dealt in a snake: every table as strong as another (seeds 1, 6, 7 / 2, 5, 8 / 3, 4, 9).
    assert sorted(sorted(seeded.index(p) for p in table) for table in first) == [[0, 5, 6], [1, 4, 7], [2, 3, 8]]
    while t.status == "running":
        rnd = TournamentRound.objects.get(tournament=t, number=t.current_round)
        for table in rnd.tables.all():
            for loser in sorted(table.players, key=seeded.index)[1:]:  # the best seed is left
                game = Game.objects.get(pk=table.game_id)
                if game.status == "active":
                    social.resign(table.game_id, User.objects.get(pk=loser))
        tournament_lifecycle.games_finished([str(table.game_id) for table in rnd.tables.all()])
        t.refresh_from_db()
    final = rounds_of(t)[1]
    assert len(final) == 1 and sorted(final[0]) == sorted(seeded[:3])
    assert tournament_standings.standings(t)[0].registration.user_id == seeded[0]
