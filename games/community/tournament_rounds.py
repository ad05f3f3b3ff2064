"""A tournament's rounds (docs/tournaments.md): each paired from the standings, the history and the
tournament's seed (games.tournaments.pairing), its games ordinary games created, seated and started
by the server at once (lobby.create_table); when the last of them ends, the places are recorded and
the next round opens, or the tournament is over. Called with the tournament's row locked."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_noop

from games.community import tournament_lookup, tournament_standings
from games.models import Game, Registration, Tournament, TournamentRound, TournamentTable
from games.notifications import notify
from games.play import lobby
from games.play.kinds import get_engine
from games.tournaments import pairing, standings as st


def _knockout_round(
    tournament: Tournament, number: int, playing: list[str], seeded: list[str]
) -> tuple[pairing.Round, list[list[str]] | None]:
    """The knockout's next round: 2-player, the bracket's slots (a slot whose player left is
    empty, and its opponent walks over); at tables, the players through, dealt again."""
    still = set(playing)
    if tournament.table_size == 2:
        if number == 1:
            slots = [list(s) for s in pairing.knockout_slots(seeded)]
        else:
            last = TournamentRound.objects.get(tournament=tournament, number=number - 1)
            winners = _slot_winners(tournament, last, seeded)
            slots = [[p for p in winners[k : k + 2] if p is not None] for k in range(0, len(winners), 2)]
        slots = [[p for p in slot if p in still] for slot in slots]
        tables = tuple(tuple(slot) for slot in slots if len(slot) == 2)
        return pairing.Round(tables, tuple(slot[0] for slot in slots if len(slot) == 1)), slots
    if number == 1:
        entrants = [p for p in seeded if p in still]
    else:
        last = TournamentRound.objects.get(tournament=tournament, number=number - 1)
        through = [tournament_standings.pid(u) for u in last.byes]
        for table in last.tables.all():
            played = st.Table(number - 1, tuple(map(tournament_standings.pid, table.players)), tuple(table.places))
            through += pairing.knockout_through(played, tournament.through, seeded)
        entrants = sorted((p for p in through if p in still), key=seeded.index)
    engine = get_engine(tournament.kind)
    return pairing.knockout_tables(entrants, tournament.table_size, smallest=engine.min_players), None


def _slot_winners(tournament: Tournament, rnd: TournamentRound, seeded: list[str]) -> list[str | None]:
    """Who came out of each slot of a 2-player knockout round, in bracket order (None: nobody)."""
    results = {tuple(map(tournament_standings.pid, t.players)): t for t in rnd.tables.all()}
    winners: list[str | None] = []
    for slot in rnd.bracket or []:
        slot = [tournament_standings.pid(p) for p in slot]
        if len(slot) == 1:
            winners.append(slot[0])
        elif len(slot) == 2:
            table = results[tuple(slot)] if tuple(slot) in results else results[tuple(reversed(slot))]
            played = st.Table(rnd.number, tuple(map(tournament_standings.pid, table.players)), tuple(table.places))
            winners.append(pairing.knockout_through(played, 1, seeded)[0])
        else:
            winners.append(None)
    return winners


def _plan_round(tournament: Tournament, number: int, field: list[Registration]) -> tuple[pairing.Round, Any]:
    playing = [tournament_standings.pid(r.user_id) for r in tournament_standings.playing(field)]
    seeded = [tournament_standings.pid(r.user_id) for r in field]
    size = tournament.table_size
    if tournament.format == Tournament.Format.SWISS:
        events = tournament_standings.history(tournament)
        if size == 2:
            return pairing.swiss_pairs(playing, events, tournament.seed, tournament_standings.scoring(tournament)), None
        return pairing.swiss_tables(
            playing, events, tournament.seed, size, tournament_standings.scoring(tournament)
        ), None
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = tournament.plan[number - 1]
        still = set(playing)
        least = get_engine(tournament.kind).min_players
        tables, byes = (
            [],
            [tournament_standings.pid(p) for p in planned["byes"] if tournament_standings.pid(p) in still],
        )
        for table in planned["tables"]:
            kept = tuple(tournament_standings.pid(p) for p in table if tournament_standings.pid(p) in still)
            if len(kept) >= max(2, least):
                tables.append(kept)
            else:  # the others left: who is still here waits this round out
                byes += kept
        return pairing.Round(tuple(tables), tuple(byes)), None
    return _knockout_round(tournament, number, playing, seeded)


def open_round(tournament: Tournament, number: int) -> TournamentRound | None:
    """Pair round `number` and create its games at once, every clock running; notify each player
    of their game. A round that cannot be paired (too few players left) ends the tournament."""
    field = tournament_standings.field_of(tournament)
    try:
        planned, bracket = _plan_round(tournament, number, field)
    except pairing.PairingError:
        finish(tournament)
        return None
    if not planned.tables:
        finish(tournament)
        return None
    now = timezone.now()
    rnd = TournamentRound.objects.create(
        tournament=tournament,
        number=number,
        started_at=now,
        byes=[int(p) for p in planned.byes],
        bracket=[[int(p) for p in slot] for slot in bracket] if bracket else None,
    )
    users = {r.user_id: r.user for r in field}
    engine = get_engine(tournament.kind)
    outbox = notify.Outbox()
    for index, seats in enumerate(planned.tables, start=1):
        players = [users[int(p)] for p in seats]
        bots = {str(u.pk): u.bot_level for u in players if u.is_bot}
        rated = tournament.rated and (not bots or settings.BOTS_RATED)
        server = {"tournament": str(tournament.pk), **({"bots": bots} if bots else {})}
        game = lobby.create_table(tournament.organiser, tournament.kind, tournament.options, players, rated, server)
        TournamentTable.objects.create(round=rnd, number=index, game=game, players=[u.pk for u in players])
        tournament_lookup.notice(
            outbox,
            [u.pk for u in players if not u.is_bot],
            tournament,
            "round",
            notify.Said(
                gettext_noop("Round %(round)s of %(name)s: your game of %(title)s has begun"),
                round=number,
                name=tournament.name,
                title=engine.title,
            ),
            game,
            round=number,
            table=index,
        )
    byes = [int(p) for p in planned.byes if not users[int(p)].is_bot]
    tournament_lookup.notice(
        outbox,
        byes,
        tournament,
        "bye",
        notify.Said(gettext_noop("Round %(round)s of %(name)s: you have a bye"), round=number, name=tournament.name),
        round=number,
    )
    outbox.flush()
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    return rnd


def _places(game: Game) -> list[int] | None:
    result = game.result or {}
    if game.status == Game.Status.FINISHED and isinstance(result.get("places"), list):
        return list(result["places"])
    if game.status in (Game.Status.ABORTED, Game.Status.CANCELLED):
        return [1] * game.seats  # counts as a draw for everyone at the table
    return None


def _record(tournament: Tournament) -> TournamentRound | None:
    """Write the places of the current round's games that are over; the round if it is over."""
    rnd = TournamentRound.objects.filter(tournament=tournament, number=tournament.current_round).first()
    if rnd is None or rnd.finished_at is not None:
        return rnd
    over = True
    for table in rnd.tables.select_related("game"):
        if table.places is None:
            places = _places(table.game)
            if places is None:
                over = False
                continue
            table.places = places
            table.save(update_fields=["places"])
    if over:
        rnd.finished_at = timezone.now()
        rnd.save(update_fields=["finished_at"])
    return rnd


def advance(tournament: Tournament) -> None:
    """With the tournament's row locked: record what is over; open the next round or finish."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    rnd = _record(tournament)
    if rnd is None or rnd.finished_at is None or tournament.paused:
        return
    if tournament.current_round >= (tournament.rounds or 0):
        finish(tournament)
        return
    open_round(tournament, tournament.current_round + 1)


def finish(tournament: Tournament) -> None:
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    outbox = notify.Outbox()
    ranked = tournament_standings.standings(tournament)
    for row in ranked:
        row.registration.final_rank = row.rank
    Registration.objects.bulk_update([row.registration for row in ranked], ["final_rank"])
    for row in ranked:
        if not row.registration.user.is_bot:
            tournament_lookup.notice(
                outbox,
                [row.registration.user_id],
                tournament,
                "over",
                notify.Said(
                    gettext_noop("%(name)s is over: your place is %(rank)s of %(count)s"),
                    name=tournament.name,
                    rank=row.rank,
                    count=len(ranked),
                ),
                rank=row.rank,
            )
    outbox.flush()
