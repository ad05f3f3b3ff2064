"""Pick Pic's bot kit. A bot's taste is `pickpic_taste.FIT`: how well a picture fits a table card,
from the words and the photograph every card shows.

Level 2 gives each player the cards that fit that player's table card best, and ranks its stack
from the best fit down, so that the card nobody chose for it (the random one, likely the worst
fit) comes last.

Level 3 reasons about who chose what. A card in its stack is a gift only if a giver preferred to
hand it over rather than keep it for the other players it gives to: a card that fits my table a
little but another player's table far better is an unlikely gift, and a likely random card.
`random_odds` weighs every way the stack could have come about (which card is the random one,
which giver gave which cards) by how likely a typical player (one who gives the fits it sees,
not always the best) would have made those gifts, and level 3 ranks the likeliest random card
last. It gives the cards that should beat a random card in each receiver's eyes
(`give_value`), then searches from both.

Hidden from a seat: the deck, the others' hands and gifts, which card of its own stack was
random, and the others' rankings until the evaluation. The kit deals the unseen cards at random;
it draws the random card of its own stack (and who gave the rest) from `random_odds`.
"""

from __future__ import annotations

import itertools
import math
import random
from functools import lru_cache

from games.engines.pickpic import cards, moves

from . import Kit, margin
from .pickpic_taste import FIT, PERCENTILE

# How sharply a typical giver prefers a better fit: a split worth 0.1 more fit (a fair gap, see
# `pickpic_taste`) is e^3, about 20 times, likelier. Infinite would be a giver who never errs.
SHARPNESS = 30.0
# Unknown hands a giver's choice is averaged over (the rest of its hand is hidden).
HANDS = 24
# The bonus of the top card of a stack, as a share of a gift's point, weighed by the chance that a
# gift tops a stack of fitting cards (about its percentile to the fourth).
TOP = 1.0


def fit(card: int, table: int | None) -> float:
    if table is None:
        return 0.0
    return 1.0 if card == table else FIT[card][table]


def best_give(table: list[int], legal: list[dict], rng: random.Random) -> dict:
    def value(move: dict) -> float:
        return sum(fit(c, table[int(r)]) for r, given in move["gifts"].items() for c in given)

    best = max(value(m) for m in legal)
    return rng.choice([m for m in legal if value(m) >= best - 1e-12])


def best_rank(table_card: int, stack: list[int], rng: random.Random) -> dict:
    noise = {c: rng.random() for c in stack}  # equal fits: any order
    return {"type": "rank", "order": sorted(stack, key=lambda c: (-fit(c, table_card), noise[c]))}


def give_value(table: list[int], move: dict) -> float:
    """The points a split should earn its giver: each gift scores if its receiver ranks it above
    a random card, about as often as it fits better than a card drawn at random (its percentile),
    and twice on top of the stack."""
    total = 0.0
    for r, given in move["gifts"].items():
        for c in given:
            p = PERCENTILE[table[int(r)]][c] if c != table[int(r)] else 1.0
            total += p + TOP * p**4
    return total


def _splits(hand: tuple[int, ...], receivers: tuple[int, ...], per: int):
    if not receivers:
        yield ()
        return
    for chosen in itertools.combinations(hand, per):
        rest = tuple(c for c in hand if c not in chosen)
        for tail in _splits(rest, receivers[1:], per):
            yield (chosen, *tail)


@lru_cache(maxsize=256)
def _odds(
    players: int, seat: int, table: tuple[int, ...], stack: tuple[int, ...], seen: frozenset[int]
) -> tuple[tuple[float, ...], tuple]:
    """(P(random) per card of `stack`, [(weight, random card, {giver: cards})...]): every way the
    stack could have been given, weighed. A pure function of what the seat sees (its hidden-hand
    draws come from a generator seeded by those), so a decision is the same whenever it is asked."""
    per = moves.per_seat(players)
    givers = tuple(moves.others(players, seat))
    draw = random.Random(f"pickpic-odds:{players}:{seat}:{table}:{sorted(stack)}")
    unseen = [c for c in cards.CARD_IDS if c not in seen]
    like: dict[tuple[int, frozenset], float] = {}
    for g in givers:
        receivers = tuple(moves.others(players, g))
        mine = receivers.index(seat)
        kept = [draw.sample(unseen, moves.hand_size(players) - per) for _ in range(HANDS)]
        for gift in itertools.combinations(sorted(stack), per):
            total = 0.0
            for rest in kept:
                weights = []
                for split in _splits(tuple(gift) + tuple(rest), receivers, per):
                    value = sum(fit(c, table[r]) for r, part in zip(receivers, split) for c in part)
                    weights.append((value, set(split[mine]) == set(gift)))
                top = max(v for v, _ in weights)
                z = sum(math.exp(SHARPNESS * (v - top)) for v, _ in weights)
                chosen = sum(math.exp(SHARPNESS * (v - top)) for v, mine_ in weights if mine_)
                total += chosen / z
            like[(g, frozenset(gift))] = total / HANDS
    ways = []
    for random_card in stack:
        rest = tuple(c for c in stack if c != random_card)
        for split in _splits(rest, givers, per):
            weight = 1.0
            for g, part in zip(givers, split):
                weight *= like[(g, frozenset(part))]
            ways.append((weight, random_card, {g: list(part) for g, part in zip(givers, split)}))
    total = sum(w for w, _, _ in ways) or 1.0
    odds = tuple(sum(w for w, r, _ in ways if r == c) / total for c in stack)
    return odds, tuple(ways)


def random_odds(view: dict, seat: int) -> dict[int, float]:
    """card -> the chance it is the random card of the seat's stack (rank phase)."""
    stack = view["you"]["stack"]
    odds, _ = _odds(*_odds_key(view, seat))
    return dict(zip(stack, odds))


def _odds_key(view: dict, seat: int):
    you = view["you"]
    seen = set(view["table"]) | set(you["stack"])
    for given in (you.get("gifts") or {}).values():
        seen |= set(given)
    return view["players"], seat, tuple(view["table"]), tuple(you["stack"]), frozenset(seen)


def odds_rank(view: dict, seat: int) -> list[int]:
    """The stack from the likeliest gift down to the likeliest random card (the fit breaks ties)."""
    odds = random_odds(view, seat)
    table_card = view["table"][seat]
    return sorted(view["you"]["stack"], key=lambda c: (odds[c], -fit(c, table_card), c))


class PickPicKit(Kit):
    search_cap = 120
    # The play-outs see one imagined round each; a judged move stands unless one beats it clearly.
    keep_first = 2.0

    def decide(self, me, level: int, rng: random.Random, budget):
        if level == 2:
            return self.policy(me, None, me.seat, me.legal, rng)
        return NotImplemented

    def policy(self, me, state, seat, legal, rng):
        """Level 2, and every imagined player in a playout (from the imagined state's table)."""
        table = state["table"] if state is not None else me.view["table"]
        if legal[0]["type"] == "give":
            return best_give(table, legal, rng)
        stack = state["stacks"][seat] if state is not None else me.view["you"]["stack"]
        return best_rank(table[seat], stack, rng)

    def shortlist(self, me, rng: random.Random, width: int) -> list[dict]:
        """Level 3's candidates, best judged first: the splits by `give_value`; the rankings with
        each of the likeliest random cards last, the rest by their odds."""
        v = me.view
        if me.legal[0]["type"] == "give":
            ranked = sorted(me.legal, key=lambda m: -give_value(v["table"], m))
            return ranked[:width]
        order = odds_rank(v, me.seat)
        out = [order]
        for last in reversed(order[:-1]):
            if len(out) >= width:
                break
            out.append([c for c in order if c != last] + [last])
        # A ranking whose top card is another of the likely gifts changes who gets the top bonus.
        if len(out) < width and len(order) > 2:
            out.append([order[1], order[0], *order[2:]])
        return [{"type": "rank", "order": o} for o in out[:width]]

    def determinize(self, me, rng: random.Random) -> dict:
        v, seat = me.view, me.seat
        n, per = v["players"], v["cards_per_gift"]
        you = v.get("you") or {}
        table = list(v["table"])
        my_hand, my_gifts, my_stack = you.get("hand", []), you.get("gifts"), you.get("stack", [])
        known = set(table) | set(my_hand) | set(my_stack)
        for given in (my_gifts or {}).values():
            known |= set(given)
        pool = [c for c in cards.CARD_IDS if c not in known]
        rng.shuffle(pool)
        hands = [[] for _ in range(n)]
        gifts: list = [None] * n
        random_cards: list = [None] * n
        stacks: list = [None] * n
        rankings: list = [None] * n
        if v["phase"] == "give":
            for s in range(n):
                hands[s] = list(my_hand) if s == seat else [pool.pop() for _ in range(moves.hand_size(n))]
            gifts[seat] = my_gifts
        elif v["phase"] == "rank":
            # My random card and who gave me what, drawn as likely as `_odds` weighs them.
            _, ways = _odds(*_odds_key(v, seat))
            _, mine_random, to_me = rng.choices(ways, [w for w, _, _ in ways] if any(w for w, _, _ in ways) else None)[
                0
            ]
            for s in range(n):
                if s == seat:
                    gifts[s] = {k: list(g) for k, g in my_gifts.items()}
                    continue
                gifts[s] = {
                    str(r): (list(to_me[s]) if r == seat else [pool.pop() for _ in range(per)])
                    for r in range(n)
                    if r != s
                }
            random_cards = [mine_random if s == seat else pool.pop() for s in range(n)]
            for s in range(n):
                received = [c for g in gifts if g for c in g.get(str(s), [])]
                stacks[s] = list(my_stack) if s == seat else rng.sample(received + [random_cards[s]], len(received) + 1)
        deck = pool[: v["deck_size"]]
        discard = pool[v["deck_size"] : v["deck_size"] + v["discard_size"]]
        state = {
            "players": n,
            "options": {"target": v["target"], "comments": v["comments"]},
            "_seed": f"imagined:{rng.random()}",
            "round": v["round"],
            "phase": v["phase"],
            "deck": deck,
            "discard": discard,
            "reshuffles": 0,
            "scores": list(v["scores"]),
            "tally": [{"as_giver": 0, "top_card": 0, "as_ranker": 0, "random_last": 0} for _ in range(n)],
            "last_round": None,
            "table": table,
            "hands": hands,
            "gifts": gifts,
            "random": random_cards,
            "stacks": stacks,
            "rankings": rankings,
        }
        for s, done in enumerate(v["done"]):
            if done and s != seat and v["phase"] in ("give", "rank"):
                legal = me.engine.legal_moves(state, s)
                state = me.engine.apply(state, s, self.policy(me, state, s, legal, rng), _at())
        return state

    def evaluate(self, me, state: dict) -> float:
        return margin(state["scores"], me.seat)

    def horizon(self, me) -> int:
        return 2 * me.view["players"]  # to the end of this round's evaluation


def _at():
    from games.bots.search import AT

    return AT


KIT = PickPicKit()
