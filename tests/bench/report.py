"""docs/benchmarks.md from a run of tests/bench/throughput.py, beside the figures measured on the
code before issue 10's work (docs/benchmarks-before.json, the same harness on commit 79ee5b6)."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BEFORE = ROOT / "docs" / "benchmarks-before.json"
# The table of the previous round of work (its figures only: {"label", "rows": {figure: value}}),
# shown between before and this run so each round's effect stays visible.
PREVIOUS = ROOT / "docs" / "benchmarks-previous.json"
DOC = ROOT / "docs" / "benchmarks.md"
LIVE_SECTION = "## Live updates: streams and long-polls"


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
        ("moves/s / pgbench INSERT", f"{move['moves_per_s'] / pg:.2%}" if pg else "n/a"),
        ("POST /moves/ p50 ms", f"{move.get('POST move p50 ms', float('nan')):.0f}"),
        ("POST /moves/ p99 ms", f"{move['post_p99_ms']:.0f}"),
        ("GET game p99 ms", f"{move.get('GET game p99 ms', float('nan')):.0f}"),
        ("GET legal-moves p99 ms", f"{move.get('GET legal-moves p99 ms', float('nan')):.0f}"),
        ("version conflicts / errors", f"{move['conflicts']} / {move['errors']}"),
    ]
    if "loop_cpu_ms" in out:  # measured since the round of 2026-12-01
        found += [("web server CPU per GET /kinds/ ms", f"{out['kinds_cpu_ms']:.2f}"),
                  ("web server CPU per move loop ms", f"{out['loop_cpu_ms']:.2f}"),
                  ("CPU per GET /kinds/ / CPU per move loop", f"{out['kinds_cpu_ms'] / out['loop_cpu_ms']:.1%}")]
    for timer in out["timers"]:
        label = f"{timer['games']} games due in one second"
        found += [(f"{label}: expired", f"{timer['expired']}/{timer['expected']}"),
                  (f"{label}: lateness p50 s", f"{timer['p50']:.3f}"),
                  (f"{label}: lateness p99 s", f"{timer['p99']:.3f}"),
                  (f"{label}: lateness max s", f"{timer['max']:.3f}"),
                  (f"{label}: seen committed, p99 s", f"{timer.get('visible_p99', float('nan')):.3f}")]
    for load in out["load"]:
        found.append((f"state load, {load['events']}-event game, median ms", f"{load['median_ms']:.2f}"))
    return found


def targets(out: dict[str, Any]) -> list[tuple[str, bool]]:
    move = out["move"]
    found = [("move loops >= 25% of GET /kinds/", move["loops_per_s"] >= 0.25 * out["kinds_rps"]),
             ("POST /moves/ p99 < 100 ms at 16 clients", move["post_p99_ms"] < 100)]
    limits = {200: 0.5, 1000: 1.0}
    for timer in out["timers"]:
        if timer["games"] in limits:
            limit = limits[timer["games"]]
            found.append((f"{timer['games']} games due in one second: all expired, p99 lateness < {limit} s "
                          "(decided / seen committed)",
                          timer["expired"] == timer["expected"] and timer["p99"] < limit
                          and timer.get("visible_p99", float("inf")) < limit))
    loads = [load["median_ms"] for load in out["load"]]
    if len(loads) > 1:
        found.append(("state load flat in history length (longest within 2x of shortest)",
                      max(loads) <= 2 * min(loads)))
    return found


# Where the time went, from py-spy on the Procfile's processes under this benchmark, and what each
# round changed (kept here so the generated document carries it).
NOTES = """\
## Where the time goes (py-spy on the Procfile's server and worker under this load)

Round of 2026-12-01 (this run's column). The CPU rows are the web server's own CPU time (its
processes' user + system, from /proc) over each phase divided by the requests or loops made: on a
shared machine they move far less than the rates, and their ratio is what the server could do if
it had the cores to itself. Found with py-spy (`--gil`, so only the thread holding the
interpreter is sampled) and cProfile, and changed:

- Every ORM query compiled its SQL afresh: about 0.8 ms of CPU per query here, against 0.15 ms for
  the same SQL through a cursor, and a move loop ran eleven (the token, the game three times, the
  seats, the vacations, the game's UPDATE, the turn notices...). Those reads now run SQL written
  once from the models' metadata (`config/hotsql.py`), turned into the same model instances.
- Django built a `redis.Redis` (copying its ~170 response callbacks) for every cache call: one
  client per pool now (`config/failopen.py`).
- DRF's throttles read and wrote each caller's request history (two Redis round trips, both
  throttles on an anonymous request): 15% of the server's samples. Fixed windows in one pipeline
  now (`config/throttling.py`).
- The token lookup (8%): each web process subscribes to live updates when it starts (ASGI
  lifespan), so it hears revocations, and REST requests use the remembered token while it does
  (`games/api/auth.py`); a logout in another process is heard through Redis as before.
- A new OS thread per request (asgiref's per-request executor, 7%): request threads are kept and
  lent to one request at a time (`config/asgi.py`).
- A serializer built per move body (its fields deep-copied, 5%): a well-formed body is read
  directly; anything else still goes to the serializer. The message storage (cookie and session,
  3%) is made only when a view uses it.

Where the targets stand, and what the profiles point at next:

- Move loop (target 25% of GET /kinds/): what is left is mostly per request and paid three times
  by the loop against once by /kinds/: the thread hop for the sync DRF view (its futures and the
  hand-over of the interpreter between the event loop's thread and the request's, 10% of the
  samples), uvicorn and the middleware chain, DRF's dispatch; then the move's own transaction
  (about 8 statements). POST p99 at 16 clients is queueing on the two shared cores, the clients'
  own threads included.
- Timers: unchanged this round; see the figures above.

The rounds of 2026-11-30 (the "previous round" column and before it): the ASGI server; one Redis
connection pool per process instead of one connection per request thread; the outbox in one read
and two writes; the sweeper expiring due games in batches of 100 (two queries per batch for the
states the cache missed, bulk rows as one JSON document for `json_to_recordset`, one Redis
pipeline per batch); the worker at `--concurrency 2 --prefetch-multiplier 4`.
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
        f"- Machine: {out['machine']}",
        "- Command: `make bench` (pytest -m bench; this table comes from "
        "`tests/bench/bench_throughput.py`, the code in `tests/bench/throughput.py`)",
        f"- Server: the Procfile's `web:` line: `{out['web']}`",
        f"- Worker: the Procfile's `worker:` and `beat:` lines: `{out['worker']}`",
        f"- Load: {sizes['clients']} clients for {sizes['seconds']:.0f} s, each playing one 3-seat "
        "Pick Pic game (GET game, GET legal-moves, POST move as the seat to move); GET /kinds/ and "
        f"pgbench ({sizes['pgbench_seconds']} s) at the same concurrency.",
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
    lines += ["", "Issue 10's targets, judged on this run:", ""]
    for label, ok in targets(out):
        lines.append(f"- {label}: {'met' if ok else 'NOT met'}")
    if before:
        lines += ["", f"Before: {before.get('machine', '')}; server `{before.get('web', '')}`; "
                  f"worker `{before.get('worker', '')}`."]
    lines += ["", NOTES]
    # The live-update section (bench_streams.py, issue 9) is written by hand: carry it over.
    kept = DOC.read_text().partition(LIVE_SECTION)[1:] if DOC.exists() else ("", "")
    DOC.write_text("\n".join(lines) + "\n" + ("\n" + "".join(kept) if kept[0] else ""))
    return DOC
