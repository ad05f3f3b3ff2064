"""The throughput benchmark's code, run on tiny sizes in `make test` so it cannot rot: it starts
the Procfile's web, worker and beat, plays, expires and loads, and every figure comes back."""

import math

import pytest

from tests.bench import instructions, report, throughput

TINY = {
    "clients": 2,
    "seconds": 1.0,
    "pairs": 2,
    "pgbench_seconds": 1,
    "timer_games": [2],
    "timer_lead": 1.0,
    "timer_timeout": 30.0,
    "history": [30, 60],
    "load_repeats": 2,
    "counted": (2, 2, 2),
}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_benchmark_runs_end_to_end_on_tiny_sizes(monkeypatch, tmp_path):
    out = throughput.run_all(TINY)
    assert out["kinds_rps"] > 0
    assert out["move"]["moves_per_s"] > 0 and out["move"]["errors"] == 0
    assert out["move"]["post_p99_ms"] > 0
    timer = out["timers"][0]
    assert timer["expired"] == timer["expected"] == 2  # both games expired
    assert timer["early"] == 0
    assert [load["events"] for load in out["load"]] == [30, 60]
    assert all(load["median_ms"] > 0 for load in out["load"])
    monkeypatch.setattr(report, "DOC", tmp_path / "benchmarks.md")
    text = report.write(out).read_text()
    assert "| move loops / GET /kinds/ |" in text and "POST /moves/ p99 ms" in text
    assert len(out["pair_ratios"]) == 2 and all(ratio > 0 for ratio in out["pair_ratios"])
    assert "| move loops / GET /kinds/, each interleaved pair |" in text
    assert not math.isnan(timer["p99"])
    loop_ms = out["loop_machine_ms"]
    assert loop_ms["web"] > 0  # the stack's own processes: their CPU is theirs alone
    # PostgreSQL's CPU is the whole server's, split between the phases: in `make test` the other
    # test processes share that server, so on tiny sizes its share per phase is noise (it has read
    # -10 ms a loop). Here it only has to come back as a number; `make bench`, alone on the
    # machine, compares the phases' shares.
    assert all(
        math.isfinite(ms[name])
        for ms in (loop_ms, out["kinds_machine_ms"])
        for name in ("PostgreSQL", "Redis", "client")
    )
    # A ratio of two CPU shares measured on a shared machine: on tiny sizes its sign is noise, so
    # the smoke test asks only that it comes back as a number below 1.
    assert math.isfinite(out["free_move_bound"]) and out["free_move_bound"] < 1
    assert "| loops / GET /kinds/ were the move's own web work free |" in text
    # The three-request floor reads no game and writes nothing; a move loop does both.
    assert out["floor_loops_per_s"] > 0 and len(out["floor_pair_ratios"]) == 2
    floor_ms = out["floor_machine_ms"]
    assert floor_ms["web"] > 0 and math.isfinite(floor_ms["PostgreSQL"])
    assert out["own_work"] == throughput.own_work(out["kinds_machine_ms"], floor_ms, loop_ms)
    assert "| three-request floor loops / GET /kinds/ |" in text
    assert "| a move's own machine CPU (loop - floor loop), in GET /kinds/ |" in text
    # The skeleton loop plays on the same server: the same requests, a read and a write, no game.
    skeleton = out["skeleton"]
    assert skeleton["loops_per_s"] > 0 and skeleton["errors"] == 0 and len(skeleton["pair_ratios"]) == 2
    assert skeleton["machine_ms"]["web"] > 0 and math.isfinite(skeleton["machine_ms"]["PostgreSQL"])
    assert out["ceiling"] == throughput.ceiling(out["kinds_machine_ms"], skeleton["machine_ms"], loop_ms)
    assert "| skeleton loops / GET /kinds/ |" in text and "The stack's ceiling for the move loop" in text
    if instructions.available():  # valgrind (`make bench` installs Debian's when it can)
        counted = out["instructions"]
        # A loop is three requests, one of them a write: more instructions than one GET /kinds/.
        assert 0 < counted["kinds"] < counted["loop"] and counted["ratio"] == counted["kinds"] / counted["loop"]
        assert "| web server instructions per move loop (callgrind), M |" in text


def test_the_free_move_bound_gives_the_loop_three_kinds_requests_of_web_work_and_the_rest_as_measured():
    kinds = {"web": 1.4, "worker and beat": 0.0, "PostgreSQL": 0.0, "Redis": 0.1, "client": 0.3}
    loop = {"web": 7.0, "worker and beat": 0.0, "PostgreSQL": 1.5, "Redis": 0.2, "client": 0.8}
    # 1.8 ms per GET /kinds/; the loop at 3 x 1.4 ms of web work plus 2.5 ms of the rest.
    assert throughput.free_move_bound(kinds, loop) == pytest.approx(1.8 / (4.2 + 2.5))
    assert throughput.free_move_bound(kinds, {**loop, "web": 70.0}) == throughput.free_move_bound(kinds, loop)


def test_a_move_s_own_work_is_the_loop_less_the_floor_against_what_the_target_leaves_it():
    kinds = {"web": 1.4, "PostgreSQL": 0.0, "client": 0.6}  # 2 ms a GET /kinds/
    floor = {"web": 3.0, "PostgreSQL": 0.0, "client": 1.0}  # 4 ms: two GET /kinds/
    loop = {"web": 7.0, "PostgreSQL": 2.0, "client": 1.0}  # 10 ms: the move's own is 6 ms
    figures = throughput.own_work(kinds, floor, loop)
    assert figures["own"] == pytest.approx(3.0)  # three GET /kinds/ of its own
    # At 25% a loop may cost four GET /kinds/; the floor takes two of them.
    assert figures["allowed"] == pytest.approx(2.0)
    assert throughput.own_work(kinds, floor, loop, target=0.5)["allowed"] == pytest.approx(0.0)


def test_the_game_s_own_work_is_the_loop_less_the_skeleton_against_what_the_target_leaves_it():
    kinds = {"web": 1.4, "PostgreSQL": 0.0, "client": 0.6}  # 2 ms a GET /kinds/
    skeleton = {"web": 5.0, "PostgreSQL": 1.0, "client": 1.0}  # 7 ms: three and a half GET /kinds/
    loop = {"web": 8.0, "PostgreSQL": 2.0, "client": 1.0}  # 11 ms: the game's own is 4 ms
    figures = throughput.ceiling(kinds, skeleton, loop)
    assert figures["game"] == pytest.approx(2.0)
    # At 25% a loop may cost four GET /kinds/; the skeleton takes three and a half of them.
    assert figures["allowed"] == pytest.approx(0.5)
    # A skeleton dearer than the target allows a whole loop leaves the game less than nothing.
    assert throughput.ceiling(kinds, {**skeleton, "web": 8.0}, loop)["allowed"] < 0
