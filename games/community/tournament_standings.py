"""A tournament's standings (docs/tournaments.md, "Scores and tie-breaks"): its players in their
initial order (by rating at the start, then by lot), the rounds as the pure core
(games.tournaments) reads them, and the published order of the standings."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from games.models import Registration, Tournament, TournamentRound, TournamentTable
from games.tournaments import standings as st


def scoring(tournament: Tournament) -> st.Scoring:
    bye = None if tournament.bye_points is None else Fraction(tournament.bye_points).limit_denominator(2)
    if tournament.table_size == 2:
        return st.Scoring.two_player(1 if bye is None else bye)
    return st.Scoring.by_table(tournament.table_size, bye)


def pid(user_id: int) -> str:
    return str(user_id)


def history(tournament: Tournament) -> list[st.Event]:
    """The rounds as the pure core reads them: each table (places once over) and each bye."""
    events: list[st.Event] = []
    for number, byes in TournamentRound.objects.filter(tournament=tournament).values_list("number", "byes"):
        events += [st.Bye(number, pid(u)) for u in byes]
    for number, players, places in (
        TournamentTable.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number")
        .values_list("round__number", "players", "places")
    ):
        events.append(st.Table(number, tuple(map(pid, players)), tuple(places) if places else None))
    return events


def field_of(tournament: Tournament) -> list[Registration]:
    """Every player who took part, in the initial order."""
    return list(
        Registration.objects.filter(tournament=tournament, number__isnull=False)
        .select_related("user")
        .order_by("number")
    )


def playing(registrations: list[Registration]) -> list[Registration]:
    """Those still in: not withdrawn or removed, the account still open (a vanished player
    forfeits what is left)."""
    return [r for r in registrations if r.withdrawn_at is None and r.user.is_active]


@dataclass(frozen=True)
class Standing:
    rank: int
    registration: Registration
    points: Fraction | None
    tiebreaks: dict[str, Fraction]
    round_reached: int | None = None


def standings(tournament: Tournament) -> list[Standing]:
    """The standings now (final once the tournament is over), in the published order
    (docs/tournaments.md): Swiss and round robin by points and tie-breaks; a knockout by how far
    each player went, then the place at their last table, then the seed."""
    field = field_of(tournament)
    if not field:
        return []
    by_id = {pid(r.user_id): r for r in field}
    events = history(tournament)
    if tournament.format == Tournament.Format.KNOCKOUT:
        reached: dict[str, tuple[int, int]] = {p: (0, 0) for p in by_id}
        for event in events:
            if isinstance(event, st.Bye):
                reached[event.player] = (event.round, 1)
            elif event.places is not None:
                for p, place in zip(event.players, event.places):
                    reached[p] = (event.round, place)
            else:
                for p in event.players:
                    reached[p] = (event.round, 0)
        ranked = sorted(by_id, key=lambda p: (-reached[p][0], reached[p][1], by_id[p].number))
        return [Standing(i + 1, by_id[p], None, {}, reached[p][0]) for i, p in enumerate(ranked)]
    rows = st.standings(
        list(by_id), events, scoring(tournament), tournament.seed, two_player=tournament.table_size == 2
    )
    return [Standing(row.rank, by_id[row.player], row.points, row.tiebreaks) for row in rows]
