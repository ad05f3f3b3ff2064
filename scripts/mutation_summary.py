"""Summarise `mutmut results --all true` per module: how many mutants, killed, survived.

Usage: python scripts/mutation_summary.py .mutmut-results.txt
Prints a Markdown table (the one in docs/mutation.md) and the surviving mutants' names.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict

KILLED = {"killed", "timeout", "segfault", "suspicious"}
# A mutant no selected test runs is as alive as one that survived its tests: both count as
# survivors in the percentage.


def module_of(name: str) -> str:
    # games.play.clocks.x_start__mutmut_3 -> games.play.clocks
    head = name.split("__mutmut_")[0]
    return head.rsplit(".", 1)[0]


def main(path: str) -> None:
    counts: dict[str, Counter] = defaultdict(Counter)
    survivors = []
    untried: Counter = Counter()
    for line in open(path, encoding="utf-8"):
        name, _, status = line.strip().rpartition(": ")
        if not name:
            continue
        module = module_of(name)
        if status == "not checked":  # a run stopped early: reported apart, not in the figures
            untried[module] += 1
            continue
        counts[module][status] += 1
        if status in ("survived", "no tests"):
            survivors.append(f"{name} ({status})")
    print("| module | mutants | killed | timeout | survived | no tests | survived % |")
    print("|---|---|---|---|---|---|---|")
    total = Counter()
    for module in sorted(counts):
        c = counts[module]
        n, killed = sum(c.values()), sum(c[s] for s in KILLED)
        total.update(c)
        print(
            f"| `{module}` | {n} | {killed} | {c['timeout']} | {c['survived']} | {c['no tests']} | "
            f"{100 * (c['survived'] + c['no tests']) / n:.1f} |"
        )
    n = sum(total.values())
    if n:
        killed = sum(total[s] for s in KILLED)
        print(
            f"| **all** | {n} | {killed} | {total['timeout']} | {total['survived']} | {total['no tests']} | "
            f"{100 * (total['survived'] + total['no tests']) / n:.1f} |"
        )
    for module, count in sorted(untried.items()):
        print(f"\n{module}: {count} mutants not tried (the run was stopped before them)")
    print()
    print(f"{len(survivors)} survivors:")
    for name in survivors:
        print(f"- {name}")


if __name__ == "__main__":
    main(sys.argv[1])
