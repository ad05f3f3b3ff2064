"""`make bots-strength`: how strong the bots are, and what a level-3 move costs (docs/bots.md,
"Strength and cost").

Plays seeded bot-only matches straight on the engines (no server), seats alternated so each level
plays every seat equally, and prints win rates with 95% Wilson intervals. The pairings, each by
the name `PAIRING=` takes (game i of a pairing is played on the seed "<name>-<i>"):
  photograph-3v2, photograph-3v1, provence-3v2, provence-3v1: 2 players, level 3 against level 2
    and against level 1 (a shared victory counts its share);
  pickpic-3, pickpic-1: 3 players, the mean place of a level-3 bot and of a level-1 bot, each
    against two level-2 bots;
  pickpic-table: 3 players, a level 3, a level 2 and a level 1 at one table (the six seatings in
    turn): the mean place of the level 3 and of the level 1 in the same games, and how much
    better the level 3's is (the mean of the games' differences, with its interval);
  coop-3, coop-1: Photoshoot cooperative (2 players), the share of games a team of level-3 bots,
    and one of level-1 bots, ends with 25 points or more.
Then, per game, the CPU time of each level-3 move (p50, p99, max), and the peak memory one
level-3 move allocates: every MEMORY_EVERY-th level-3 decision (default 10) is replayed after the
matches under tracemalloc, which slows Python several-fold, so the matches themselves (and their
CPU figures) run without it.

Knobs (environment variables):
  GAMES=n      games per pairing (docs/bots.md's figures: 200; the default, 20, suits a busy machine);
  BUDGET=s     seconds of CPU a level-3 move may think (default 1.0; the search stops at 80%);
  ONLY=kind,…  only these games (photoshoot for the coop pairings);
  PAIRING=name,…  only these pairings;
  PART=k/n     only game i with i % n == k (k from 0 to n-1): n processes, or sessions, with
               PART=0/n … PART=(n-1)/n share a run between them;
  OUT=file     also write every game's figure, and the CPU and memory figures, as JSON: after
               every game, so a run stopped midway keeps what it played; started again with the
               same OUT, GAMES, BUDGET and PART, it plays only the games the file lacks.
`python scripts/bots_strength.py merge FILE…` (`make bots-strength-merge PARTS="FILE…"`) pools
the JSON of parts played with the same GAMES and BUDGET and prints the report as one run would.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import statistics
import sys
import time
import tracemalloc
from collections.abc import Iterable
from typing import Any

from games import bots
from games.bots import Budget, arena

# name -> (kind, how the figure is read, the levels): "duel" (strong, weak), "place" (the one
# bot among two level 2s), "coop" (the team's level).
PAIRINGS: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "photograph-3v2": ("photograph", "duel", (3, 2)),
    "photograph-3v1": ("photograph", "duel", (3, 1)),
    "provence-3v2": ("provence", "duel", (3, 2)),
    "provence-3v1": ("provence", "duel", (3, 1)),
    "pickpic-3": ("pickpic", "place", (3,)),
    "pickpic-1": ("pickpic", "place", (1,)),
    "pickpic-table": ("pickpic", "table", (3, 2, 1)),
    "coop-3": ("photoshoot", "coop", (3,)),
    "coop-1": ("photoshoot", "coop", (1,)),
}

costs: dict[str, list[float]] = {}
replays: list[tuple[str, dict]] = []  # level-3 decisions to replay under tracemalloc
memory_every = 10


def timed(decide):
    def wrapped(kind, level, **kw):
        if level != 3:
            return decide(kind, level, **kw)
        started = time.process_time()
        move = decide(kind, level, **kw)
        costs.setdefault(kind, []).append(time.process_time() - started)
        if memory_every and (len(costs[kind]) - 1) % memory_every == 0:
            replays.append((kind, kw))
        return move

    return wrapped


BOT = timed(bots.decide)


def peak_memory() -> dict[str, int]:
    """The most memory one replayed level-3 decision allocated at once, per game."""
    peaks: dict[str, int] = {}
    for kind, kw in replays:
        tracemalloc.start()
        bots.decide(kind, 3, **kw)
        peaks[kind] = max(peaks.get(kind, 0), tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return peaks


def wilson(wins: float, n: int) -> tuple[float, float]:
    if not n:
        return 0.0, 0.0
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_part(text: str) -> tuple[int, int]:
    """ "k/n" -> (k, n), with 0 <= k < n."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise SystemExit(f"PART={text!r}: write k/n, for example PART=0/4") from None
    if not 0 <= k < n:
        raise SystemExit(f"PART={text!r}: k runs from 0 to n-1")
    return k, n


def part_games(games: int, k: int, n: int) -> list[int]:
    """The game numbers part k of n plays: every n-th from k."""
    return [i for i in range(games) if i % n == k]


def chosen(only: set[str], names: set[str]) -> list[str]:
    unknown = sorted(names - set(PAIRINGS))
    if unknown:
        raise SystemExit(f"PAIRING: no pairing {', '.join(unknown)}; the pairings are {', '.join(PAIRINGS)}")
    return [
        name for name, (kind, _, _) in PAIRINGS.items() if (not only or kind in only) and (not names or name in names)
    ]


SEATINGS = list(itertools.permutations(range(3)))


def play_game(name: str, i: int, budget: Budget) -> float | list[float]:
    """Game i of the pairing: the strong level's share of the win (duel), the bot's place
    (place), the places of the first and the last of the levels (table), or 1 if the team
    reached 25 points and 0 if not (coop)."""
    kind, measure, levels = PAIRINGS[name]
    seed = f"{name}-{i}"
    if measure == "duel":
        strong, weak = levels
        seats = [strong, weak] if i % 2 == 0 else [weak, strong]
        out = arena.play(kind, seats, seed, budget=budget, bot=BOT)
        me = seats.index(strong)
        return 1 / len(out["winners"]) if me in out["winners"] else 0.0
    if measure == "place":
        seats = [2, 2, 2]
        seats[i % 3] = levels[0]
        return float(arena.play(kind, seats, seed, budget=budget, bot=BOT)["places"][i % 3])
    if measure == "table":
        where = SEATINGS[i % len(SEATINGS)]  # where[k]: the seat of levels[k]
        seats = [0] * len(levels)
        for k, seat in enumerate(where):
            seats[seat] = levels[k]
        places = arena.play(kind, seats, seed, budget=budget, bot=BOT)["places"]
        return [float(places[where[0]]), float(places[where[-1]])]
    out = arena.play(kind, [levels[0]] * 2, seed, budget=budget, tick=3.0, bot=BOT)
    return 1.0 if out["scores"][0] >= 25 else 0.0


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    mean = statistics.mean(values) if values else 0.0
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return mean, mean - half, mean + half


def figure(name: str, values: list[float], games: int) -> str:
    """The pairing's line of the report, over the games played (fewer than `games`: said so)."""
    kind, measure, levels = PAIRINGS[name]
    n = len(values)
    played = f"{n} games" if n == games else f"{n} of {games} games"
    if measure == "duel":
        strong, weak = levels
        wins = sum(values)
        low, high = wilson(wins, n)
        return (
            f"{kind:11} L{strong} vs L{weak}: L{strong} wins {wins / max(n, 1):6.1%} "
            f"(95% CI {low:.1%}-{high:.1%}, {played})"
        )
    if measure == "place":
        mean, low, high = mean_interval(values)
        return f"pickpic     L{levels[0]} among two L2: mean place {mean:.2f} (95% CI {low:.2f}-{high:.2f}, {played})"
    if measure == "table":
        strong, weak = levels[0], levels[-1]
        s_mean, s_low, s_high = mean_interval([v[0] for v in values])
        w_mean, w_low, w_high = mean_interval([v[1] for v in values])
        d_mean, d_low, d_high = mean_interval([v[1] - v[0] for v in values])
        return (
            f"pickpic     L{strong}, L{levels[1]}, L{weak} at one table: mean place L{strong} {s_mean:.2f} "
            f"(95% CI {s_low:.2f}-{s_high:.2f}), L{weak} {w_mean:.2f} ({w_low:.2f}-{w_high:.2f}); "
            f"L{strong} better by {d_mean:.2f} (95% CI {d_low:.2f}-{d_high:.2f}, {played})"
        )
    reached = sum(values)
    low, high = wilson(reached, n)
    return (
        f"photoshoot  coop team of L{levels[0]}: 25+ points in {reached / max(n, 1):6.1%} "
        f"(95% CI {low:.1%}-{high:.1%}, {played})"
    )


def cost_lines(cpu: dict[str, list[float]], peaks: dict[str, int], replayed: dict[str, int]) -> list[str]:
    lines = []
    for kind, spent in cpu.items():
        if not spent:
            continue
        ordered = sorted(spent)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        lines.append(
            f"{kind:11} level-3 move CPU: p50 {statistics.median(ordered) * 1000:.0f} ms, "
            f"p99 {p99 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms over {len(ordered)} moves"
        )
    for kind, peak in peaks.items():
        lines.append(
            f"{kind:11} level-3 move peak memory allocated: {peak / 2**20:.1f} MiB "
            f"(most of {replayed.get(kind, 0)} moves replayed under tracemalloc)"
        )
    return lines


def report(run: dict[str, Any]) -> list[str]:
    """The report's lines from a run's JSON (one process's, or parts merged)."""
    lines = [
        figure(name, [v for _, v in sorted((int(i), v) for i, v in run["pairings"][name].items())], run["games"])
        for name in PAIRINGS
        if name in run["pairings"]
    ]
    return lines + cost_lines(run["cpu"], run["peaks"], run["replayed"])


def merge(parts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """One run from parts played with the same GAMES and BUDGET. A game played by two parts is
    refused: a level-3 search stops on CPU time, so the two need not agree, and neither may
    count twice."""
    parts = list(parts)
    if not parts:
        raise SystemExit("merge: no parts given")
    first = parts[0]
    merged: dict[str, Any] = {
        "games": first["games"],
        "budget": first["budget"],
        "pairings": {},
        "cpu": {},
        "peaks": {},
        "replayed": {},
    }
    for part in parts:
        for key in ("games", "budget"):
            if part[key] != first[key]:
                raise SystemExit(f"merge: parts of different runs ({key} {first[key]} and {part[key]})")
        for name, values in part["pairings"].items():
            pooled = merged["pairings"].setdefault(name, {})
            twice = sorted(set(pooled) & set(values), key=int)
            if twice:
                raise SystemExit(f"merge: {name} game {', '.join(twice)} is in two parts")
            pooled.update(values)
        # A part saved midway (a run still going, or stopped) has no memory figures yet.
        for kind, spent in part.get("cpu", {}).items():
            merged["cpu"].setdefault(kind, []).extend(spent)
        for kind, peak in part.get("peaks", {}).items():
            merged["peaks"][kind] = max(merged["peaks"].get(kind, 0), peak)
        for kind, count in part.get("replayed", {}).items():
            merged["replayed"][kind] = merged["replayed"].get(kind, 0) + count
    return merged


def save(run: dict[str, Any], path: str) -> None:
    """The run so far, replacing the file whole (a run killed while writing leaves the last one)."""
    with open(f"{path}.writing", "w") as f:
        json.dump(run, f)
    os.replace(f"{path}.writing", path)


def resumed(path: str | None, games: int, seconds: float, part: str) -> dict[str, Any] | None:
    """What an earlier run with the same OUT, GAMES, BUDGET and PART played, or None."""
    if not path or not os.path.exists(path):
        return None
    with open(path) as f:
        earlier = json.load(f)
    if (earlier.get("games"), earlier.get("budget"), earlier.get("part")) != (games, seconds, part):
        raise SystemExit(
            f"OUT={path} holds another run (GAMES {earlier.get('games')}, BUDGET "
            f"{earlier.get('budget')}, PART {earlier.get('part')}): give another file"
        )
    return earlier


def play(environ: dict[str, str]) -> dict[str, Any]:
    global memory_every
    games = int(environ.get("GAMES", "20"))
    seconds = float(environ.get("BUDGET", "1.0"))
    budget = Budget(iterations=10_000, seconds=seconds * 0.8)
    memory_every = int(environ.get("MEMORY_EVERY", "10"))
    k, n = parse_part(environ.get("PART", "0/1"))
    names = chosen(
        set(filter(None, environ.get("ONLY", "").split(","))), set(filter(None, environ.get("PAIRING", "").split(",")))
    )
    mine = part_games(games, k, n)
    share = "" if n == 1 else f", part {k}/{n} ({len(mine)} of them)"
    print(
        f"bots-strength: {games} games per pairing{share}, level 3 thinks up to {budget.seconds:.2f} s CPU per move",
        flush=True,
    )
    out = environ.get("OUT")
    run: dict[str, Any] = resumed(out, games, seconds, f"{k}/{n}") or {
        "games": games,
        "budget": seconds,
        "part": f"{k}/{n}",
        "pairings": {},
    }
    run.setdefault("peaks", {})  # until the end of the run: what an earlier, resumed one found
    run.setdefault("replayed", {})
    for kind, spent in run.get("cpu", {}).items():
        costs.setdefault(kind, []).extend(spent)
    run["cpu"] = costs
    for name in names:
        values = run["pairings"].setdefault(name, {})
        for i in mine:
            if str(i) not in values:
                values[str(i)] = play_game(name, i, budget)
                if out:
                    save(run, out)
        print(figure(name, [values[str(i)] for i in mine], games), flush=True)
    peaks = peak_memory()
    replayed = {kind: sum(seen == kind for seen, _ in replays) for kind in peaks}
    for kind, peak in run["peaks"].items():  # an earlier, resumed run's replays
        peaks[kind] = max(peaks.get(kind, 0), peak)
        replayed[kind] = replayed.get(kind, 0) + run["replayed"].get(kind, 0)
    run.update(cpu=costs, peaks=peaks, replayed=replayed)
    for line in cost_lines(run["cpu"], peaks, run["replayed"]):
        print(line, flush=True)
    return run


def main(argv: list[str]) -> None:
    if argv[:1] == ["merge"]:
        parts = []
        for path in argv[1:]:
            with open(path) as f:
                parts.append(json.load(f))
        merged = merge(parts)
        print(
            f"bots-strength: {len(parts)} part{'s' * (len(parts) > 1)} merged, {merged['games']} games per pairing, "
            f"level 3 thinks up to {merged['budget'] * 0.8:.2f} s CPU per move"
        )
        for line in report(merged):
            print(line)
        return
    run = play(dict(os.environ))
    if os.environ.get("OUT"):
        save(run, os.environ["OUT"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
