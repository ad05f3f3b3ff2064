"""Summarise `mutmut results --all true` per module: how many mutants, killed, survived.

Usage: python scripts/mutation_summary.py .mutmut-results.txt
Prints a Markdown table (the one in docs/mutation.md) and the surviving mutants' names.
"""
from __future__ import annotations

import sys
from collections import Counter, defaultdict

KILLED = {"killed", "timeout", "segfault", "suspicious"}


def module_of(name: str) -> str:
    # games.clocks.x_start__mutmut_3 -> games.clocks
    head = name.split("__mutmut_")[0]
    return head.rsplit(".", 1)[0]


def main(path: str) -> None:
    counts: dict[str, Counter] = defaultdict(Counter)
    survivors = []
    for line in open(path, encoding="utf-8"):
        name, _, status = line.strip().rpartition(": ")
        if not name:
            continue
        module = module_of(name)
        counts[module][status] += 1
        if status == "survived":
            survivors.append(name)
    print("| module | mutants | killed | survived | no tests | survived % |")
    print("|---|---|---|---|---|---|")
    total = Counter()
    for module in sorted(counts):
        c = counts[module]
        n, killed = sum(c.values()), sum(c[s] for s in KILLED)
        total.update(c)
        print(f"| `{module}` | {n} | {killed} | {c['survived']} | {c['no tests']} | {100 * c['survived'] / n:.1f} |")
    n = sum(total.values())
    if n:
        killed = sum(total[s] for s in KILLED)
        print(f"| **all** | {n} | {killed} | {total['survived']} | {total['no tests']} | "
              f"{100 * total['survived'] / n:.1f} |")
    print()
    print(f"{len(survivors)} survivors:")
    for name in survivors:
        print(f"- {name}")


if __name__ == "__main__":
    main(sys.argv[1])
