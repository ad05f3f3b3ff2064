"""Pick Pic's bot kit. A bot's taste is the cards' tags: a picture suits a table card as much as
they share tags. It gives each player the cards that suit that player's table card best, and
ranks its stack from the best suited down, so that the card nobody chose for it (the random one,
likely the least suited) comes last.

Hidden from a seat: the deck, the others' hands and gifts, which card of its own stack was
random, and the others' rankings until the evaluation. The kit deals the unseen cards at random;
it guesses the random card of its own stack the way a player would, the less suited the likelier.
"""
from __future__ import annotations

import random

from games.engines.pickpic import cards, moves

from . import Kit, margin

_TAGS = {c["id"]: set(c["tags"]) | set(c["title"].lower().split()) for c in cards.CATALOGUE}


def suits(card: int, table: int | None) -> int:
    return len(_TAGS[card] & _TAGS[table]) if table is not None else 0


def best_give(table: list[int], legal: list[dict], rng: random.Random) -> dict:
    def value(move: dict) -> int:
        return sum(suits(c, table[int(r)]) for r, given in move["gifts"].items() for c in given)
    best = max(value(m) for m in legal)
    return rng.choice([m for m in legal if value(m) == best])


def best_rank(table_card: int, stack: list[int], rng: random.Random) -> dict:
    noise = {c: rng.random() for c in stack}  # equal suits: any order
    return {"type": "rank", "order": sorted(stack, key=lambda c: (-suits(c, table_card), noise[c]))}


class PickPicKit(Kit):
    search_cap = 120

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
            # My random card: the less it suits my table card, the likelier.
            weights = [1.0 / (1 + suits(c, table[seat])) ** 2 for c in my_stack]
            mine_random = rng.choices(my_stack, weights)[0]
            to_me = [c for c in my_stack if c != mine_random]
            rng.shuffle(to_me)
            for s in range(n):
                if s == seat:
                    gifts[s] = {k: list(g) for k, g in my_gifts.items()}
                    continue
                gifts[s] = {str(r): (to_me[:per] if r == seat else [pool.pop() for _ in range(per)])
                            for r in range(n) if r != s}
                to_me = to_me[per:] if str(seat) in gifts[s] else to_me
            random_cards = [mine_random if s == seat else pool.pop() for s in range(n)]
            for s in range(n):
                received = [c for g in gifts if g for c in g.get(str(s), [])]
                stacks[s] = list(my_stack) if s == seat else rng.sample(
                    received + [random_cards[s]], len(received) + 1)
        deck = pool[: v["deck_size"]]
        discard = pool[v["deck_size"]: v["deck_size"] + v["discard_size"]]
        state = {
            "players": n, "options": {"target": v["target"], "comments": v["comments"]},
            "_seed": f"imagined:{rng.random()}", "round": v["round"], "phase": v["phase"],
            "deck": deck, "discard": discard, "reshuffles": 0, "scores": list(v["scores"]),
            "tally": [{"as_giver": 0, "top_card": 0, "as_ranker": 0, "random_last": 0}
                      for _ in range(n)],
            "last_round": None, "table": table, "hands": hands, "gifts": gifts,
            "random": random_cards, "stacks": stacks, "rankings": rankings,
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
