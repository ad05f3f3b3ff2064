"""`make bots-strength`: how strong the bots are, and what a level-3 move costs.

Plays seeded bot-only matches straight on the engines (no server), seats alternated so each level
plays every seat equally, and prints win rates with 95% Wilson intervals:
  Photograph and Walking in Provence, 2 players: level 3 against level 1 and against level 2;
  Pick Pic, 3 players: the mean place of a level-3 bot and of a level-1 bot, each against two
  level-2 bots;
  Photoshoot cooperative (2 players): the share of games a team of level-3 bots, and one of
  level-1 bots, ends with 25 points or more.
Then, per game, the CPU time of each level-3 move (p50, p99, max), and the peak memory one
level-3 move allocates: every MEMORY_EVERY-th level-3 decision (default 10) is replayed after the
matches under tracemalloc, which slows Python several-fold, so the matches themselves (and their
CPU figures) run without it.
`ONLY=kind,...` plays only those games. `GAMES=n` sets the games per pairing (the issue's figure is 200; the default is small enough for
a busy machine), `BUDGET=s` the seconds of CPU a level-3 move may think (default 1.0).
"""
from __future__ import annotations

import math
import os
import statistics
import sys
import time
import tracemalloc

from games import bots
from games.bots import Budget, arena

GAMES = int(os.environ.get("GAMES", "20"))
ONLY = set(filter(None, os.environ.get("ONLY", "").split(",")))  # e.g. ONLY=pickpic,photoshoot
SECONDS = float(os.environ.get("BUDGET", "1.0"))
BUDGET = Budget(iterations=10_000, seconds=SECONDS * 0.8)
MEMORY_EVERY = int(os.environ.get("MEMORY_EVERY", "10"))
costs: dict[str, list[float]] = {}
replays: list[tuple[str, dict]] = []  # level-3 decisions to replay under tracemalloc


def timed(decide):
    def wrapped(kind, level, **kw):
        if level != 3:
            return decide(kind, level, **kw)
        started = time.process_time()
        move = decide(kind, level, **kw)
        costs.setdefault(kind, []).append(time.process_time() - started)
        if MEMORY_EVERY and (len(costs[kind]) - 1) % MEMORY_EVERY == 0:
            replays.append((kind, kw))
        return move
    return wrapped


def peak_memory() -> dict[str, int]:
    """The most memory one replayed level-3 decision allocated at once, per game."""
    peaks: dict[str, int] = {}
    for kind, kw in replays:
        tracemalloc.start()
        bots.decide(kind, 3, **kw)
        peaks[kind] = max(peaks.get(kind, 0), tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return peaks


BOT = timed(bots.decide)


def wilson(wins: float, n: int) -> tuple[float, float]:
    if not n:
        return 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def duel(kind: str, strong: int, weak: int) -> None:
    wins = 0.0
    for i in range(GAMES):
        levels = [strong, weak] if i % 2 == 0 else [weak, strong]
        out = arena.play(kind, levels, f"{kind}-{strong}v{weak}-{i}", budget=BUDGET, bot=BOT)
        me = levels.index(strong)
        if me in out["winners"]:
            wins += 1 / len(out["winners"])  # a shared victory counts its share
    low, high = wilson(wins, GAMES)
    print(f"{kind:11} L{strong} vs L{weak}: L{strong} wins {wins / GAMES:6.1%} "
          f"(95% CI {low:.1%}-{high:.1%}, {GAMES} games)", flush=True)


def pickpic_places() -> None:
    for level in (3, 1):
        places = []
        for i in range(GAMES):
            levels = [2, 2, 2]
            levels[i % 3] = level
            out = arena.play("pickpic", levels, f"pickpic-{level}-{i}", budget=BUDGET, bot=BOT)
            places.append(out["places"][i % 3])
        mean = statistics.mean(places)
        half = 1.96 * statistics.stdev(places) / math.sqrt(len(places)) if len(places) > 1 else 0
        print(f"pickpic     L{level} among two L2: mean place {mean:.2f} "
              f"(95% CI {mean - half:.2f}-{mean + half:.2f}, {GAMES} games)", flush=True)


def photoshoot_coop() -> None:
    for level in (3, 1):
        reached = 0
        for i in range(GAMES):
            out = arena.play("photoshoot", [level, level], f"coop-{level}-{i}", budget=BUDGET,
                             tick=3.0, bot=BOT)
            reached += out["scores"][0] >= 25
        low, high = wilson(reached, GAMES)
        print(f"photoshoot  coop team of L{level}: 25+ points in {reached / GAMES:6.1%} "
              f"(95% CI {low:.1%}-{high:.1%}, {GAMES} games)", flush=True)


def main() -> None:
    print(f"bots-strength: {GAMES} games per pairing, level 3 thinks up to "
          f"{BUDGET.seconds:.2f} s CPU per move", flush=True)
    for kind in ("photograph", "provence"):
        if not ONLY or kind in ONLY:
            duel(kind, 3, 2)
            duel(kind, 3, 1)
    if not ONLY or "pickpic" in ONLY:
        pickpic_places()
    if not ONLY or "photoshoot" in ONLY:
        photoshoot_coop()
    for kind, spent in costs.items():
        ordered = sorted(spent)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        print(f"{kind:11} level-3 move CPU: p50 {statistics.median(ordered) * 1000:.0f} ms, "
              f"p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms over {len(ordered)} moves",
              flush=True)
    for kind, peak in peak_memory().items():
        replayed = sum(k == kind for k, _ in replays)
        print(f"{kind:11} level-3 move peak memory allocated: {peak / 2**20:.1f} MiB "
              f"(most of {replayed} moves replayed under tracemalloc)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
