"""The full report of a run of tests/bench/throughput.py (docs/benchmarks-report.md, committed with
the figures docs/benchmarks.md quotes from it, and naming the commit it measured),
beside the figures measured before the write path's optimisations (baseline-before.json, the same
harness on commit 79ee5b6). docs/benchmarks.md, the readers' page, takes its figures from it.

Each run is judged against the throughput targets and the framework budget, in words: a benchmark on a
shared machine informs, it does not fail a build. The live-update part of the budget is
judged where its figures are printed (tests/bench/bench_streams.py, by `stream_budget` here)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BEFORE = Path(__file__).resolve().parent / "baseline-before.json"
# A reference run's table (its figures only: {"label", "rows": {figure: value}}),
# shown between before and this run, so what changed since it shows.
PREVIOUS = Path(__file__).resolve().parent / "baseline-previous.json"
DOC = ROOT / "docs" / "benchmarks-report.md"


def commit() -> str:
    """The commit measured (and whether the tree had changes on top of it)."""
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" with uncommitted changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def rows(out: dict[str, Any]) -> list[tuple[str, str]]:
    """(figure, value) pairs, the same for every run so before and after line up."""
    if not out:
        return []
    move, kinds, pg = out["move"], out["kinds_rps"], out.get("pgbench_tps")
    found = [
        ("GET /kinds/ req/s (ceiling)", f"{kinds:.0f}"),
        ("pgbench one-row INSERT tps (ceiling)", f"{pg:.0f}" if pg else "n/a"),
        ("move loops/s", f"{move['loops_per_s']:.1f}"),
        ("move loops / GET /kinds/", f"{move['loops_per_s'] / kinds:.1%}"),
        (
            "move loops / GET /kinds/, each interleaved pair",
            ", ".join(f"{ratio:.1%}" for ratio in out["pair_ratios"]) if out.get("pair_ratios") else "n/a",
        ),
        *floor_rows(out, kinds),
        *skeleton_rows(out, kinds),
        ("moves/s / pgbench INSERT", f"{move['moves_per_s'] / pg:.2%}" if pg else "n/a"),
        ("POST /moves/ p50 ms", f"{move.get('POST move p50 ms', float('nan')):.0f}"),
        ("POST /moves/ p99 ms", f"{move['post_p99_ms']:.0f}"),
        ("GET game p99 ms", f"{move.get('GET game p99 ms', float('nan')):.0f}"),
        ("GET legal-moves p99 ms", f"{move.get('GET legal-moves p99 ms', float('nan')):.0f}"),
        ("version conflicts / errors", f"{move['conflicts']} / {move['errors']}"),
    ]
    if "loop_cpu_ms" in out:  # runs that measured it (older baselines did not)
        found += [
            ("web server CPU per GET /kinds/ ms", f"{out['kinds_cpu_ms']:.2f}"),
            ("web server CPU per move loop ms", f"{out['loop_cpu_ms']:.2f}"),
            ("CPU per GET /kinds/ / CPU per move loop", f"{out['kinds_cpu_ms'] / out['loop_cpu_ms']:.1%}"),
        ]
    if "loop_machine_ms" in out:  # runs that measured it (older baselines did not)
        kinds_ms, loop_ms = out["kinds_machine_ms"], out["loop_machine_ms"]
        found += [
            ("machine CPU per GET /kinds/ ms (all processes)", f"{sum(kinds_ms.values()):.2f}"),
            ("machine CPU per move loop ms (all processes)", f"{sum(loop_ms.values()):.2f}"),
        ]
        found += [(f"machine CPU per move loop: {part} ms", f"{value:.2f}") for part, value in loop_ms.items()]
        found += [
            ("machine CPU per GET /kinds/ / per move loop", f"{sum(kinds_ms.values()) / sum(loop_ms.values()):.1%}"),
            ("loops / GET /kinds/ were the move's own web work free", f"{out['free_move_bound']:.1%}"),
        ]
    if "own_work" in out:  # runs that measured it (older baselines did not)
        found += [
            ("machine CPU per three-request floor loop ms", f"{sum(out['floor_machine_ms'].values()):.2f}"),
            ("a move's own machine CPU (loop - floor loop), in GET /kinds/", f"{out['own_work']['own']:.2f}"),
            ("what 25% leaves a move's own machine CPU, in GET /kinds/", f"{out['own_work']['allowed']:.2f}"),
        ]
    if "instructions" in out:  # runs that counted them (older baselines did not)
        counted = out["instructions"]
        found += [
            (
                "web server instructions per GET /kinds/ (callgrind), M",
                f"{counted['kinds'] / 1e6:.2f}" if counted else "n/a",
            ),
            (
                "web server instructions per move loop (callgrind), M",
                f"{counted['loop'] / 1e6:.2f}" if counted else "n/a",
            ),
            ("instructions per GET /kinds/ / per move loop", f"{counted['ratio']:.1%}" if counted else "n/a"),
        ]
    for timer in out["timers"]:
        label = f"{timer['games']} games due in one second"
        found += [
            (f"{label}: expired", f"{timer['expired']}/{timer['expected']}"),
            (f"{label}: lateness p50 s", f"{timer['p50']:.3f}"),
            (f"{label}: lateness p99 s", f"{timer['p99']:.3f}"),
            (f"{label}: lateness max s", f"{timer['max']:.3f}"),
            (f"{label}: seen committed, p99 s", f"{timer.get('visible_p99', float('nan')):.3f}"),
        ]
    for load in out["load"]:
        found.append((f"state load, {load['events']}-event game, median ms", f"{load['median_ms']:.2f}"))
    return found


def floor_rows(out: dict[str, Any], kinds: float) -> list[tuple[str, str]]:
    """The three-request floor's figures (none for a run that did not measure it)."""
    if "floor_loops_per_s" not in out:
        return []
    floor = out["floor_loops_per_s"]
    return [
        ("three-request floor loops/s (3 x GET /accounts/me/)", f"{floor:.1f}"),
        ("three-request floor loops / GET /kinds/", f"{floor / kinds:.1%}"),
        (
            "three-request floor loops / GET /kinds/, each interleaved pair",
            ", ".join(f"{ratio:.1%}" for ratio in out["floor_pair_ratios"]),
        ),
    ]


def skeleton_rows(out: dict[str, Any], kinds: float) -> list[tuple[str, str]]:
    """The skeleton loop's figures (tests/bench/skeleton.py; none for a run that did not measure it)."""
    if "skeleton" not in out:
        return []
    skeleton, move = out["skeleton"], out["move"]
    return [
        ("skeleton loops/s (the loop's requests, reads and write; no game)", f"{skeleton['loops_per_s']:.1f}"),
        ("skeleton loops / GET /kinds/", f"{skeleton['loops_per_s'] / kinds:.1%}"),
        (
            "skeleton loops / GET /kinds/, each interleaved pair",
            ", ".join(f"{ratio:.1%}" for ratio in skeleton["pair_ratios"]),
        ),
        ("move loops / skeleton loops", f"{move['loops_per_s'] / skeleton['loops_per_s']:.1%}"),
        ("machine CPU per skeleton loop ms", f"{sum(skeleton['machine_ms'].values()):.2f}"),
        (
            "machine CPU per skeleton loop: web / PostgreSQL ms",
            f"{skeleton['machine_ms']['web']:.2f} / {skeleton['machine_ms']['PostgreSQL']:.2f}",
        ),
        ("the game's own machine CPU (loop - skeleton loop), in GET /kinds/", f"{out['ceiling']['game']:.2f}"),
        ("what 25% leaves the game's own machine CPU, in GET /kinds/", f"{out['ceiling']['allowed']:.2f}"),
    ]


def ceiling_lines(out: dict[str, Any]) -> list[str]:
    """What the skeleton says of the 25% target, in words, from this run's figures."""
    if "skeleton" not in out:
        return []
    skeleton, kinds = out["skeleton"], out["kinds_rps"]
    share = skeleton["loops_per_s"] / kinds
    allowed, game = out["ceiling"]["allowed"], out["ceiling"]["game"]
    return [
        "",
        "The stack's ceiling for the move loop, measured in the same rounds (tests/bench/skeleton.py):",
        "",
        f"- a loop with no game in it (the three requests, the two reads, the locked write, the commit) "
        f"reached {share:.1%} of GET /kinds/;",
        f"- the 25% target leaves the game itself (state, engine, clocks, outbox, live news, the real "
        f"bodies) {allowed:.2f} GET /kinds/ of machine CPU a loop; it took {game:.2f}.",
    ]


def targets(out: dict[str, Any]) -> list[tuple[str, bool]]:
    move = out["move"]
    found = [
        ("move loops >= 25% of GET /kinds/", move["loops_per_s"] >= 0.25 * out["kinds_rps"]),
        ("POST /moves/ p99 < 100 ms at 16 clients", move["post_p99_ms"] < 100),
    ]
    limits = {200: 0.5, 1000: 1.0}
    for timer in out["timers"]:
        if timer["games"] in limits:
            limit = limits[timer["games"]]
            found.append(
                (
                    f"{timer['games']} games due in one second: all expired, p99 lateness < {limit} s "
                    "(decided / seen committed)",
                    timer["expired"] == timer["expected"]
                    and timer["p99"] < limit
                    and timer.get("visible_p99", float("inf")) < limit,
                )
            )
    loads = [load["median_ms"] for load in out["load"]]
    if len(loads) > 1:
        found.append(
            ("state load flat in history length (longest within 2x of shortest)", max(loads) <= 2 * min(loads))
        )
    return found


# The framework budget: what the server, on Django's and the libraries' own machinery, must still do.
BUDGET_CLIENTS, BUDGET_POST_P99_MS, BUDGET_LOOP_SHARE = 16, 100, 0.12
BUDGET_TIMER_GAMES, BUDGET_TIMER_P99_S = 1000, 1.0
BUDGET_STREAMS, BUDGET_POLLS, BUDGET_MOVES_PER_S = 1000, 1000, 33
BUDGET_STREAM_POST_P99_MS, BUDGET_DELIVERY_P99_MS = 250, 1000
BUDGET_PACE_SHARE = 0.95


def budget(out: dict[str, Any]) -> list[tuple[str, bool | None]]:
    """The framework budget judged on a throughput run: met, not met, or None where this run did not
    measure it (another number of clients, no 1,000-game timer case)."""
    move, clients = out["move"], out["sizes"]["clients"]
    found: list[tuple[str, bool | None]] = [
        (
            f"POST /moves/ p99 <= {BUDGET_POST_P99_MS} ms at {BUDGET_CLIENTS} clients",
            move["post_p99_ms"] <= BUDGET_POST_P99_MS if clients == BUDGET_CLIENTS else None,
        ),
        (
            f"move loops >= {BUDGET_LOOP_SHARE:.0%} of GET /kinds/ req/s",
            move["loops_per_s"] >= BUDGET_LOOP_SHARE * out["kinds_rps"],
        ),
    ]
    timers = [timer for timer in out["timers"] if timer["games"] == BUDGET_TIMER_GAMES]
    found.append(
        (
            f"{BUDGET_TIMER_GAMES:,} games due in one second: all expired, p99 lateness < {BUDGET_TIMER_P99_S:g} s",
            timers[0]["expired"] == timers[0]["expected"] and timers[0]["p99"] < BUDGET_TIMER_P99_S if timers else None,
        )
    )
    return found


def stream_budget(result: dict[str, Any]) -> list[tuple[str, bool | None]]:
    """The framework budget for live updates, judged on a run of tests/bench/bench_streams.py: None
    unless the run had the budget's size (its streams, long-polls and moves asked per second)."""
    sized = (
        result.get("streams_open", 0) >= BUDGET_STREAMS
        and result.get("polls", 0) >= BUDGET_POLLS
        and result.get("moves_asked_per_s", 0) >= BUDGET_MOVES_PER_S
    )
    moves = result["moves"]
    # A reader that missed a move was never told: that is later than any p99.
    heard = {
        name: result[name]["deliveries"] > 0
        and result[name]["missing"] == 0
        and result[name]["p99_ms"] < BUDGET_DELIVERY_P99_MS
        for name in ("sse", "long_poll")
    }
    size = f"{BUDGET_STREAMS:,} SSE + {BUDGET_POLLS:,} long-polls at {BUDGET_MOVES_PER_S} moves/s"
    # A server too slow to answer keeps its games from their pace: then the rate was not held.
    pace = result.get("paced", {}).get("rate", 0.0)
    return [
        (
            f"{size}: the games kept within {1 - BUDGET_PACE_SHARE:.0%} of that pace",
            pace >= BUDGET_PACE_SHARE * BUDGET_MOVES_PER_S if sized else None,
        ),
        (
            f"{size}: POST /moves/ p99 < {BUDGET_STREAM_POST_P99_MS} ms",
            moves["count"] > 0 and moves["p99_ms"] < BUDGET_STREAM_POST_P99_MS if sized else None,
        ),
        (
            f"{size}: delivery p99 < {BUDGET_DELIVERY_P99_MS / 1000:g} s on streams and long-polls, none missed",
            all(heard.values()) if sized else None,
        ),
    ]


def judged(label: str, ok: bool | None) -> str:
    return f"- {label}: " + {True: "met", False: "NOT met", None: "not measured in this run"}[ok]


# How to read the report, and where a move's time goes: the same words under every run's figures.
NOTES = """\
## How to read it, and where a move's time goes

The CPU rows are the web server's own CPU time (its processes' user + system, from /proc) over
each phase divided by the requests or loops made: on a shared machine they move far less than
the rates, and their ratio is what the server could do if it had the cores to itself. The
"machine CPU" rows add everything else a request costs the machine: the worker and beat,
PostgreSQL's processes, redis-server, and the benchmark's own HTTP client (its process). "Were
the move's own web work free" is the loop's rate against GET /kinds/'s if each of the loop's
three requests cost the web server what a GET /kinds/ does, all else as measured: the most the
25% target could be met by with PostgreSQL, Redis and the client as they are.

Two phases bound the move loop from below, on the same server in the same rounds:

- The three-request floor: loops of three authenticated GET /accounts/me/ (the token from the
  process's memory, the throttle's Redis round trip, the middleware, rendering; no game read and
  no write). What any loop of three REST requests costs.
- The skeleton loop (`tests/bench/skeleton.py`): the loop's three requests through the same
  server, middleware, token, throttle and renderer; GET game and GET legal-moves read the game
  with the real views' own statement and answer bodies of the real ones' shape and size; POST
  parses the move as the real view does, takes the game's row lock with the same read, checks the
  version, writes the move's event and the game's new version in one statement and commits. It
  leaves out the game itself: no state loaded or cached, no engine, no clocks, no outbox, no live
  news. Its rate beside GET /kinds/ is the most the real loop can reach on this stack.

Where the time goes: each of the loop's three requests pays what GET /kinds/ pays (the server,
Django's middleware, DRF's dispatch, the throttle's Redis round trip, the access log), and POST
/moves/ its own work on top. The real loop sends GET game one statement, GET legal-moves one, and
POST BEGIN, the locked read, the write and COMMIT (and the outbox's two statements on a move that
notifies). What is left of a move's own work is spread thin (the write, the outbox, the
after-commit round trip, JSON, the engine), so the 25% target needs a cheaper request path for
every request the loop makes, which lowers GET /kinds/ as much: the skeleton, with no game in it,
stays near or under 25% itself. At 16 clients the server is saturated and POST's p99 is queueing
on the two shared cores. Each optimisation kept for this path, and what it bought measured
against the code without it: docs/architecture.md, "Optimisations that stay".
"""


def write(out: dict[str, Any]) -> Path:
    before = json.loads(BEFORE.read_text()) if BEFORE.exists() else {}
    old, new = dict(rows(before)), rows(out)
    previous = json.loads(PREVIOUS.read_text()) if PREVIOUS.exists() else None
    sizes = out["sizes"]
    lines = [
        "# Benchmarks: the write path and the timers at load",
        "",
        f"Written by `make bench` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}). "
        "Figures on a shared 2-core machine are noisy; compare the ratios, which are taken against "
        "ceilings measured in the same run.",
        "",
        f"- Commit: {commit()}",
        f"- Machine: {out['machine']}",
        "- Command: `make bench` (pytest -m bench; this table comes from "
        "`tests/bench/bench_throughput.py`, the code in `tests/bench/throughput.py`)",
        f"- Server: the Procfile's `web:` line: `{out['web']}`, with `DJANGO_SETTINGS_MODULE=tests.bench.stack_settings` "
        "(the production settings and one route prefix more, the skeleton's)",
        f"- Worker: the Procfile's `worker:` and `beat:` lines: `{out['worker']}`",
        f"- Load: {sizes['clients']} clients, each playing one 3-seat Pick Pic game (GET game, GET "
        "legal-moves, POST move as the seat to move), GET /kinds/ at the same concurrency, and the "
        "three-request floor (each client three authenticated GET /accounts/me/ a loop, as its game's "
        "first player: the token, throttle, middleware and rendering any loop of three requests pays, "
        "with no game read and no write), the skeleton loop (the same loop on tests/bench/skeleton.py's "
        "endpoints: the real requests, reads and locked write, no game), "
        f"alternating: {sizes.get('pairs', 1)} round(s) of {sizes['seconds']:.0f} s phases, each figure "
        "pooled over its phases (all requests over all their time); pgbench "
        f"({sizes['pgbench_seconds']} s) at the same concurrency.",
        "- Timers: 3-seat Pick Pic games on per-move clocks, every deadline moved into one second "
        f"{sizes['timer_lead']:.0f} s ahead; a game's lateness = when its first TimerExpired was decided (its `created_at`) - the deadline; 'seen committed' = when the benchmark, polling every 50 ms, first read the committed event - the deadline.",
        "- State load: the latest state with its cache entry deleted (snapshot + tail), median of "
        f"{sizes['load_repeats']}; the long game is real Pick Pic moves with disputes between them.",
        "",
        "| figure | before (79ee5b6) |" + (f" {previous['label']} |" if previous else "") + " after (this run) |",
        "| --- | ---: |" + (" ---: |" if previous else "") + " ---: |",
    ]
    for label, value in new:
        middle = f" {previous['rows'].get(label, 'n/a')} |" if previous else ""
        lines.append(f"| {label} | {old.get(label, 'n/a')} |{middle} {value} |")
    lines += ["", "The throughput targets, judged on this run:", ""]
    lines += [judged(label, ok) for label, ok in targets(out)]
    lines += ["", "The framework budget, judged on this run (its live-update part: bench_streams.py's output):", ""]
    lines += [judged(label, ok) for label, ok in budget(out)]
    lines += ceiling_lines(out)
    if before:
        lines += [
            "",
            f"Before: {before.get('machine', '')}; server `{before.get('web', '')}`; "
            f"worker `{before.get('worker', '')}`.",
        ]
    lines += ["", NOTES]
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("\n".join(lines) + "\n")
    return DOC
