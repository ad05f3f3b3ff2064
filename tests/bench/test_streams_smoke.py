"""The live-update benchmark's code, run on tiny sizes in `make test` so it cannot rot: the
Procfile's proxy, web and live processes, a fleet of two processes with SSE streams, long-polls and movers on raw
sockets, and every move reaches every reader."""

import pytest

from tests.bench import bench_streams

TINY = {
    "kinds_seconds": 0.5,
    "kinds_concurrency": 2,
    "open_timeout": 30,
    "settle": 0.5,
    "grace": 20,
    "move_deadline": 30,
}


@pytest.mark.timeout(120)
@pytest.mark.django_db(transaction=True)
def test_the_stream_benchmark_runs_end_to_end_on_tiny_sizes():
    plan = {
        **bench_streams.plan_for(bench_streams.make_games(2, readers=2), streams=4, polls=4, rounds=2, interval=0.3),
        **TINY,
    }
    # A small pool: PostgreSQL's connections are shared with the rest of the machine.
    env = {**bench_streams.BENCH_ENV, "DATABASE_POOL_MAX": "2"}
    load = bench_streams.Load(bench_streams.procfile_stack, plan, env, procs=2)
    result = load.run()
    assert result["fleet"]["procs"] == 2
    assert result["streams_failed"] == 0 and result["movers_failed"] == [] and result["movers_unfinished"] == 0
    assert result["moves"]["count"] == 4  # 2 games x 2 rounds
    for channel in ("sse", "long_poll"):  # 4 readers, 2 per game, each hears its game's 2 moves
        assert (result[channel]["deliveries"], result[channel]["missing"]) == (8, 0), result[channel]
        assert 0 < result[channel]["p50_ms"] <= result[channel]["p99_ms"]
    assert result["long_poll"]["odd"] == {}
    assert result["ceiling"]["rate"] > 0 and result["fleet"]["lag_max_ms"] >= 0 and result["fleet"]["cpu_s"] > 0
    assert 0 < result["peak_pg"] <= bench_streams.workers_in(load.server.command) * 2
    text = bench_streams.report("tiny", {**result, "streams_open": 4, "polls": 4}, 20)
    assert "fleet (2 processes)" in text and "of a core" in text and "an idle event loop" in text
    assert result["idle_lag"]["lag_max_ms"] >= 0
