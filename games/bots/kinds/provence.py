"""Walking in Provence's bot kit. Hidden from a seat: the deck, the others' hands, the cards they
passed, and the choices they made this phase before it resolves. The landscapes, photos, goals
and markers are public. The kit deals the unseen scene cards to the others and the deck, and lets
each seat that has already chosen make any choice it could have made."""

from __future__ import annotations

import random

from games.engines.provence import cards, layout, photos, scoring

from . import Kit, margin

SCENE = "scene"


class ProvenceKit(Kit):
    search_cap = 24
    # Level 3 keeps its best-judged move unless the search finds another better by more than
    # this many standard errors: a few dozen play-outs are noisy, the judgement is not.
    keep_first = 1.0

    def determinize(self, me, rng: random.Random) -> dict:
        v, seat = me.view, me.seat
        players = v["players"]
        you = v.get("you") or {}
        hand = [c["id"] for c in you.get("hand", [])]
        placed = {p["card"] for land in v["landscapes"] for p in land["cards"]}
        mine = set(hand) | ({you["passed"]} if you.get("passed") else set())
        pool = [c for c in cards.scene_ids(players) if c not in placed and c not in mine]
        rng.shuffle(pool)
        hands = []
        for s in range(players):
            if s == seat:
                hands.append(list(hand))
            else:
                hands.append([pool.pop() for _ in range(min(v["hand_sizes"][s], len(pool)))])
        passing = [None] * players
        if you.get("passed") is not None:
            passing = [pool.pop() if s != seat and pool else None for s in range(players)]
            passing[seat] = you["passed"]
        state = {
            "players": players,
            "round": v["round"],
            "phase": v["phase"],
            "deck": pool[: v["deck"]],
            "hands": hands,
            "passing": passing,
            "pending": [None] * players,
            "landscapes": [
                {
                    "cards": [dict(p) for p in land["cards"]],
                    "photographer": list(land["photographer"]),
                    "drone": list(land["drone"]),
                }
                for land in v["landscapes"]
            ],
            "photos": [{"card": p["card"], "markers": [list(m) for m in p["markers"]]} for p in v["photos"]],
            "goals": [dict(g) for g in v["goals"]],
            "markers": list(v["markers"]),
        }
        # Those who already chose this phase: any choice they could have made.
        for s, done in enumerate(v["submitted"]):
            if done and s != seat:
                state = me.engine.apply(
                    state, s, self.policy(me, state, s, me.engine.legal_moves(state, s), rng), _at()
                )
        return state

    def evaluate(self, me, state: dict) -> float:
        scores, keys, _ = scoring.final(state)
        return margin(scores, me.seat)

    def horizon(self, me) -> int:
        # To the end of the next round (its photos taken): 4 moves a round with 2 players.
        return (4 if me.view["phase"] == SCENE else 3) * me.view["players"] - 1

    # -- level 3 ------------------------------------------------------------------------------
    def shortlist(self, me, rng: random.Random, width: int) -> list[dict]:
        """Every legal move judged on the public table (a placement changes only this seat's
        landscape, a walk only which photos its tokens frame), best first. Level 2 judges a
        random few on imagined games; level 3 starts its search from the best of them all."""
        ranked = sorted(((-v, i) for i, v in enumerate(judge(me.view, me.seat, me.legal))))
        # Play-outs here cost milliseconds each (a placement lists hundreds of moves): the
        # budget affords a few dozen, enough to compare a few moves only.
        return [me.legal[i] for _, i in ranked[: min(width, SEARCH_WIDTH)]]

    def playout(self, me, state: dict, seat: int, moves: list[dict], rng: random.Random) -> dict:
        """The imagined players play like level 2, cheaply: the best of a few of their moves by
        the same judgement (a walk may always stay), now and then one at random."""
        if len(moves) == 1 or rng.random() < PLAYOUT_EPSILON:
            return rng.choice(moves)
        sample = rng.sample(moves, min(PLAYOUT_SAMPLE, len(moves)))
        if state["phase"] != SCENE and moves[0] not in sample:
            sample.append(moves[0])  # {"type": "walk"}: the tokens stay
        values = judge(state, seat, sample, goals=False)
        return sample[max(range(len(sample)), key=values.__getitem__)]


SEARCH_WIDTH = 3
PLAYOUT_SAMPLE = 6
PLAYOUT_EPSILON = 0.1


def judge(table: dict, seat: int, moves: list[dict], goals: bool = True) -> list[float]:
    """How good each of `seat`'s moves is on `table` (a state or a view: both show the
    landscapes, photos and goals the same way), once played: the seat's score margin with its
    landscape as the move leaves it, counting every photo its tokens then frame as taken at
    its next spot (photos are taken at the end of the round, wherever the tokens stand).
    Without `goals`, only the seat's own scene and photos count (cheaper, for play-outs)."""
    lands = table["landscapes"]
    land = lands[seat]
    grid = layout.visible(land)
    held = photos.points(table["photos"], seat)
    open_photos = [
        (p["card"], cards.PHOTO[p["card"]]["spots"][_next_spot(p)])
        for p in table["photos"]
        if seat not in photos.holders(p)
    ]
    others: list[tuple[int, dict]] = []
    if goals:
        for s, other in enumerate(lands):
            if s != seat:
                g = layout.visible(other)
                others.append(
                    (
                        sum(scoring.scene_breakdown(g).values()) + photos.points(table["photos"], s),
                        {goal["goal"]: scoring.goal_value(g, goal["goal"]) for goal in table["goals"]},
                    )
                )

    def framed(grid_, land_) -> int:
        return sum(points for card, points in open_photos if photos.completed(grid_, land_, card))

    def worth(grid_, framed_points: int) -> float:
        mine = sum(scoring.scene_breakdown(grid_).values()) + held + framed_points
        if not goals:
            return mine
        totals = [base for base, _ in others]
        for goal in table["goals"]:
            values = [scoring.goal_value(grid_, goal["goal"])] + [v[goal["goal"]] for _, v in others]
            prize = scoring.goal_points(values)
            mine += prize[0]
            totals = [t + p for t, p in zip(totals, prize[1:])]
        return mine - max(totals, default=0)

    frames = _frame_cells(land)
    here = framed(grid, land)
    out = []
    for move in moves:
        if move["type"] == "place":
            after = dict(grid)
            cells = set()
            for (dx, dy), terrain, attr in cards.oriented(move["card"], move["rotation"]):
                cell = (move["x"] + dx, move["y"] + dy)
                if not move.get("under") or cell not in grid:
                    after[cell] = (terrain, attr, move["card"])
                    cells.add(cell)
            # Only a square inside a frame can change what the tokens frame.
            out.append(worth(after, framed(after, land) if cells & frames else here))
        else:
            moved = {**land, **{t: move[t] for t in ("photographer", "drone") if t in move}}
            out.append(worth(grid, framed(grid, moved)))
    return out


def _next_spot(photo: dict) -> int:
    spots = photo["markers"]
    return next((i for i, spot in enumerate(spots[:-1]) if not spot), len(spots) - 1)


def _frame_cells(land: dict) -> set:
    cells = set(photos.drone_frame(tuple(land["drone"])))
    for frame in photos.photographer_frames(tuple(land["photographer"])).values():
        cells.update(frame)
    return cells


def _at():
    from games.bots.search import AT

    return AT


KIT = ProvenceKit()
