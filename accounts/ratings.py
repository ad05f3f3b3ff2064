"""Ratings per kind: openskill's Plackett-Luce model, updated in the transaction that finishes a
rated game (games.play.turns.Turn.prepare calls `rate_finished`).

Who is rated as what (docs/accounts.md, "Ratings"):
- each seat is a side of its own, ranked by the result's `places` (equal places: a tie);
- Photoshoot's teams are sides of several seats; a cooperative game (one team) is not rated;
- a forfeited seat (resigned, timed out under `forfeit`) is ranked last, as the result already
  places it, and a forfeited teammate leaves its team to be a side of its own, ranked last, so
  the teammates who played on are rated by their team's result;
- an aborted game (`"aborted": true` in the result), an unrated game, or one with fewer than two
  sides changes nothing.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from accounts.models import Rating, RatingChange

MODEL = PlackettLuce()


def shown(mu: float, sigma: float) -> float:
    """The rating shown and ranked on: a conservative estimate, 0 for a newcomer."""
    return round(mu - 3 * sigma, 2)


def sides(result: dict[str, Any], teams: list[list[int]] | None) -> list[tuple[list[int], int]] | None:
    """(seats, place) per side, or None when the game cannot be rated."""
    places = result.get("places") or []
    if result.get("aborted") or len(places) < 2:
        return None
    out = set(result.get("forfeited") or [])
    groups = teams if teams is not None else [[seat] for seat in range(len(places))]
    if len(groups) < 2:
        return None  # cooperative: everybody on one side
    found: list[tuple[list[int], int]] = []
    for group in groups:
        staying = [seat for seat in group if seat not in out]
        if staying:
            found.append((staying, min(places[seat] for seat in staying)))
        found += [([seat], places[seat]) for seat in group if seat in out]
    return found if len(found) >= 2 else None


def rate_finished(
    game, result: dict[str, Any], teams: list[list[int]] | None, users: dict[int, int], at
) -> list[dict[str, Any]] | None:
    """Rate a game that finishes now; the changes per seat, or None if it is not rated.

    Four queries whatever the number of players: insert the missing ratings, read and lock them
    all (in user order, so two games finishing at once for the same players cannot deadlock),
    one bulk update, one bulk insert of the history."""
    if not game.rated:
        return None
    found = sides(result, teams)
    if found is None or any(seat not in users for seats, _ in found for seat in seats):
        return None
    user_ids = sorted({users[seat] for seats, _ in found for seat in seats})
    fresh = MODEL.rating()
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=uid,
                kind=game.kind,
                mu=fresh.mu,
                sigma=fresh.sigma,
                rating=shown(fresh.mu, fresh.sigma),
                updated_at=at,
            )
            for uid in user_ids
        ],
        ignore_conflicts=True,
    )
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(kind=game.kind, user_id__in=user_ids).order_by("user_id")
    }
    before = {seat: (rows[users[seat]].mu, rows[users[seat]].sigma) for seats, _ in found for seat in seats}
    rated = MODEL.rate(
        [[MODEL.rating(mu=before[s][0], sigma=before[s][1]) for s in seats] for seats, _ in found],
        ranks=[place for _, place in found],
    )
    changes, history = [], []
    for (seats, place), new_side in zip(found, rated):
        for seat, new in zip(seats, new_side):
            row = rows[users[seat]]
            old_rating = shown(row.mu, row.sigma)
            row.mu, row.sigma, row.rating = new.mu, new.sigma, shown(new.mu, new.sigma)
            row.games += 1
            row.updated_at = at
            history.append(
                RatingChange(
                    user_id=row.user_id,
                    game=game,
                    kind=game.kind,
                    seat=seat,
                    place=place,
                    mu_before=before[seat][0],
                    sigma_before=before[seat][1],
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    rating_before=old_rating,
                    rating_after=row.rating,
                    at=at,
                )
            )
            changes.append(
                {"seat": seat, "before": old_rating, "after": row.rating, "delta": round(row.rating - old_rating, 2)}
            )
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "rating", "games", "updated_at"])
    RatingChange.objects.bulk_create(history)
    return sorted(changes, key=lambda change: change["seat"])
