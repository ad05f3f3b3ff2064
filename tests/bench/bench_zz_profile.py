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
