"""The framework budget as the benchmark reports judge it (tests/bench/report.py), on made-up figures:
no stack needed. The judgement is printed, met or not; nothing here times anything."""

import pytest

from tests.bench import report


def run(clients=16, loops=30.0, kinds=200.0, post_p99=80.0, timer_p99=0.6, expired=1000):
    return {
        "machine": "test",
        "web": "web",
        "worker": "worker",
        "kinds_rps": kinds,
        "pgbench_tps": 5000.0,
        "move": {"loops_per_s": loops, "moves_per_s": loops, "post_p99_ms": post_p99, "conflicts": 0, "errors": 0},
        "timers": [
            {
                "games": 1000,
                "expected": 1000,
                "expired": expired,
                "early": 0,
                "p50": timer_p99 / 2,
                "p99": timer_p99,
                "max": timer_p99,
                "visible_p99": timer_p99,
            }
        ],
        "load": [{"events": 200, "median_ms": 2.0}],
        "sizes": {"clients": clients, "seconds": 10.0, "pgbench_seconds": 5, "timer_lead": 3.0, "load_repeats": 5},
    }


def verdicts(out):
    return [ok for _, ok in report.budget(out)]


def test_a_run_within_the_budget_meets_all_of_it():
    assert verdicts(run()) == [True, True, True]


@pytest.mark.parametrize(
    "change, broken",
    [
        ({"post_p99": 101.0}, 0),  # POST /moves/ p99 over 100 ms
        ({"loops": 23.0}, 1),  # 11.5% of GET /kinds/
        ({"timer_p99": 1.2}, 2),  # the 1,000 games' p99 lateness
        ({"expired": 999}, 2),  # one game never expired
    ],
)
def test_each_part_of_the_budget_can_be_missed(change, broken):
    found = verdicts(run(**change))
    assert found[broken] is False and found.count(True) == 2


def test_the_budget_s_edges_are_met():
    assert verdicts(run(post_p99=100.0, loops=24.0)) == [True, True, True]  # 100 ms; 12% exactly


def test_what_a_run_did_not_measure_is_said_so_not_judged():
    out = run(clients=2)
    out["timers"] = [{**out["timers"][0], "games": 2, "expected": 2, "expired": 2}]
    assert verdicts(out) == [None, True, None]
    assert report.judged("x", None) == "- x: not measured in this run"


def stream_run(streams=1000, polls=1000, asked=100 / 3, paced=33.4, post_p99=180.0, delivery_p99=700.0, missing=0):
    channel = {"deliveries": 8000, "missing": missing, "p99_ms": delivery_p99}
    return {
        "streams_open": streams,
        "polls": polls,
        "moves_asked_per_s": asked,
        "paced": {"rate": paced},
        "moves": {"count": 800, "p99_ms": post_p99},
        "sse": dict(channel),
        "long_poll": dict(channel),
    }


@pytest.mark.parametrize(
    "change, expected",
    [
        ({}, [True, True, True]),
        ({"paced": 31.0}, [False, True, True]),  # answers so slow that the games fell behind
        ({"post_p99": 250.0}, [True, False, True]),
        ({"delivery_p99": 1000.0}, [True, True, False]),
        ({"missing": 1}, [True, True, False]),  # a reader never told of a move
        ({"asked": 10.0}, [None, None, None]),  # the slower case: the budget is set at 33 moves/s
        ({"streams": 200, "polls": 200}, [None, None, None]),
    ],
)
def test_the_live_update_budget_is_judged_on_runs_of_its_size(change, expected):
    assert [ok for _, ok in report.stream_budget(stream_run(**change))] == expected


def test_the_written_report_carries_both_judgements(monkeypatch, tmp_path):
    monkeypatch.setattr(report, "DOC", tmp_path / "report.md")
    text = report.write(run(loops=20.0)).read_text()
    assert "The throughput targets, judged on this run:" in text
    assert "The framework budget, judged on this run" in text
    assert "- move loops >= 12% of GET /kinds/ req/s: NOT met" in text  # 10%
    assert "- POST /moves/ p99 <= 100 ms at 16 clients: met" in text
