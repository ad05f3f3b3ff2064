"""The tournaments a user stream carries (docs/tournaments.md, "Following a tournament live"): the
ones its user plays in (registered, not withdrawn) or organises, and those it was asked to follow
(games.api.follows) that its user may see, while they are open or running.
Each change of one (a player in or out, the start, a game over, places recorded, a new round, a
pause, the end) is a `tournament` message with what a client needs to know that its page changed;
the page itself is read with GET /tournaments/{id}/ (a conditional GET: one read per change)."""

from __future__ import annotations

from django.db.models import Count, Q

from games.api.streams.loop import sse
from games.community import tournament_lookup
from games.models import Game, Registration, Tournament, TournamentTable
from games.realtime import channels

OPEN = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


class TournamentNews:
    """Part of a user stream (games.api.streams.user.UserReader): reads its user's tournaments
    when one of their channels (or the user's own, which a registration or a new tournament of
    theirs wakes) was heard, and says each that changed since it was last said."""

    def __init__(self, user):
        self.user = user
        self.said: dict[str, dict] = {}  # tournament id -> what was last said of it
        self.asked: set[str] = set()  # followed on request, as the stream's Redis hash lists them
        self.anew = False  # asked for another set since the last read: read them now

    def follow(self, asked) -> None:
        """The tournaments followed on request now. One no longer asked for is dropped without a
        word (one of the user's own is said again at the next read)."""
        asked = set(asked)
        if asked != self.asked:
            for gone in self.asked - asked:
                self.said.pop(gone, None)
            self.asked, self.anew = asked, True

    def channels(self) -> list[str]:
        return [channels.tournament_channel(t) for t in self.said]

    def read_now(self, heard: bool = True) -> list[str]:
        """What changed; `heard`: news on their channels (else only whether the user's tournaments
        are still the same ones is asked, one query)."""
        self.anew = False
        theirs = Q(organiser=self.user) | Q(registrations__user=self.user, registrations__withdrawn_at=None)
        if self.asked:
            # A private one only while its user may see it, as its page (404 else).
            theirs |= Q(pk__in=self.asked) & tournament_lookup.seen_by(self.user)
        mine = {
            str(pk) for pk in Tournament.objects.filter(status__in=OPEN).filter(theirs).values_list("pk", flat=True)
        }
        if not heard and mine == set(self.said):
            return []
        ids = mine | set(self.said)
        if not ids:
            return []
        registered = dict(
            Registration.objects.filter(tournament__in=ids, withdrawn_at=None)
            .values("tournament")
            .annotate(n=Count("pk"))
            .values_list("tournament", "n")
        )
        games = {
            row["round__tournament"]: row
            for row in TournamentTable.objects.filter(round__tournament__in=ids)
            .values("round__tournament")
            .annotate(
                n=Count("pk"),
                over=Count("pk", filter=~Q(game__status=Game.Status.ACTIVE)),
                placed=Count("pk", filter=Q(places__isnull=False)),
            )
        }
        chunks = []
        for t in Tournament.objects.filter(pk__in=ids).order_by("created_at"):
            key, counts = str(t.pk), games.get(t.pk, {})
            now = {
                "tournament": key,
                "status": t.status,
                "paused": t.paused,
                "current_round": t.current_round,
                "registered": registered.get(t.pk, 0),
                "games": counts.get("n", 0),
                "games_over": counts.get("over", 0),
                "results": counts.get("placed", 0),
            }
            if self.said.get(key) != now:
                chunks.append(sse(now, event="tournament"))
            if key in mine:
                self.said[key] = now
            else:
                self.said.pop(key, None)  # over, or left: said once, no longer followed
        return chunks
