import os, subprocess, time, threading
import pytest
from tests.bench import throughput

pytestmark = pytest.mark.bench


@pytest.mark.timeout(900)
@pytest.mark.django_db(transaction=True)
def test_profile(capsys):
    with throughput.running("web", "worker", "beat") as port:
        throughput.kinds_rate(port, 16, 1.0)
        kinds = throughput.kinds_rate(port, 16, 8)
        pids = subprocess.run(["pgrep", "-f", f"127.0.0.1:{port}"], capture_output=True, text=True).stdout.split()
        profs = []
        if os.environ.get("PROFILE"):
            for pid in pids:
                profs.append(subprocess.Popen([".venv/bin/py-spy", "record", "-p", pid, "-d", "14", "-r", "50", "-f", "raw", "-o", f"/tmp/tp-prof-{pid}.txt", "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        loop = throughput.move_loop(port, 16, 15)
        for p in profs:
            p.wait()
    post = loop["times"].get("POST move", [])
    with capsys.disabled():
        print(f"\nkinds {kinds:.1f} loops {loop['loops_per_s']:.1f} ratio {loop['loops_per_s']/kinds:.1%} errors {len(loop['errors'])} {loop['errors'][:2]}")
        for label, v in loop["times"].items():
            print(label, "p50", round(throughput.percentile(v, 50)*1000), "p99", round(throughput.percentile(v, 99)*1000))
        print("pids", pids)


@pytest.mark.timeout(900)
@pytest.mark.django_db(transaction=True)
def test_inprocess(capsys, make_player):
    import cProfile, pstats, io
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from tests.conftest import start_game
    seats = [make_player() for _ in range(3)]
    game_id = start_game(seats[0], seats[1:], kind="pickpic", options={"target": 200})
    by = {p.user.pk: p for p in seats}

    def one():
        g = seats[0].get(f"/api/v1/games/{game_id}/").json()
        users = {p["seat"]: p["user"] for p in g["players"]}
        pl = by[users[g["active_seats"][0]]]
        lm = pl.get(f"/api/v1/games/{game_id}/legal-moves/").json()
        r = pl.post(f"/api/v1/games/{game_id}/moves/", {"move": lm["moves"][0], "expected_version": lm["version"]})
        assert r.status_code == 201, r.content
    for _ in range(10):
        one()
    with CaptureQueriesContext(connection) as c:
        one()
    prof = cProfile.Profile()
    t = time.perf_counter()
    prof.enable()
    for _ in range(100):
        one()
    prof.disable()
    el = time.perf_counter() - t
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(60)
    with capsys.disabled():
        print(f"\n{el/100*1000:.1f} ms per loop in-process; queries per loop {len(c.captured_queries)}")
        for q in c.captured_queries:
            print("  ", q["sql"][:160])
        print(s.getvalue()[:12000])
