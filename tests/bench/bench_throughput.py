"""`make bench`: the write path and the timers at load. Writes docs/benchmarks-report.md with
this run's figures beside the ones measured on the code before the work (baseline-before.json,
taken with this same harness); docs/benchmarks.md quotes the figures readers need. Set BENCH_JSON to also keep this run's raw figures."""

import json
import os

import pytest

from tests.bench import report, throughput

pytestmark = pytest.mark.bench

FULL = {
    "clients": 16,
    "seconds": 10.0,
    "pairs": 3,
    "pgbench_seconds": 10,
    "timer_games": [200, 1000],
    "timer_lead": 12.0,
    "timer_timeout": 240.0,
    "history": [200, 10000],
    "load_repeats": 30,
    "counted": (200, 100),
}


def keep(out):
    if os.environ.get("BENCH_JSON"):
        with open(os.environ["BENCH_JSON"], "w") as fh:
            json.dump(out, fh, indent=1, default=str)


@pytest.mark.timeout(3600)
@pytest.mark.django_db(transaction=True)
def test_bench_throughput(capsys):
    out = throughput.run_all(FULL, keep)
    if not os.environ.get("BENCH_NO_DOC"):
        report.write(out)
    with capsys.disabled():
        print("\n" + throughput.summary(out))
    assert out["move"]["loops_per_s"] > 0
