"""The proxy where it ends TLS speaks HTTP/2 (deploy/tls.conf.example in its tls.d/): a browser's
requests and its live stream then share one connection, where HTTP/1.1 allows six a site. The
proxy's own limits are those an operator is told (docs/operations.md, "Limits of a box")."""

import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import httpx
import pytest

from scripts import proxy
from tests.live_server import free_port
from tests.worker import ROOT, wait_for

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
pytestmark = pytest.mark.skipif(
    not Path(NGINX).exists() or not shutil.which("openssl"), reason="needs nginx and openssl"
)


def test_the_proxy_ending_tls_speaks_http2_with_the_example_configuration():
    prefix = Path(tempfile.mkdtemp(prefix="darkroom-tls-"))
    (prefix / "tls.d").mkdir()
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(prefix / "key.pem"),
            "-out",
            str(prefix / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    port, tls_port = free_port(), free_port()
    example = (ROOT / "deploy" / "tls.conf.example").read_text()
    (prefix / "tls.d" / "tls.conf").write_text(
        example.replace("/etc/nginx/tls/fullchain.pem", str(prefix / "cert.pem"))
        .replace("/etc/nginx/tls/privkey.pem", str(prefix / "key.pem"))
        .replace("listen 443", f"listen {tls_port}")
    )
    # upstreams nobody listens on: the proxy's answer (502) is enough to see how it speaks
    (prefix / "nginx.conf").write_text(
        proxy.render(
            {"PORT": str(port), "WEB_UPSTREAM": f"127.0.0.1:{free_port()}", "LIVE_UPSTREAM": f"127.0.0.1:{free_port()}"}
        )
    )
    nginx = subprocess.Popen(
        [NGINX, "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        with httpx.Client(http2=True, verify=False, timeout=5) as client:

            def answered():
                try:
                    return client.get(f"https://127.0.0.1:{tls_port}/api/v1/kinds/")
                except httpx.HTTPError:
                    return None

            assert wait_for(answered, timeout=20), nginx.stderr.read1().decode() if nginx.poll() is not None else ""
            assert answered().http_version == "HTTP/2"
        with httpx.Client(timeout=5) as plain:  # and plain HTTP on its own port, as before
            assert plain.get(f"http://127.0.0.1:{port}/api/v1/kinds/").http_version == "HTTP/1.1"
    finally:
        os.killpg(nginx.pid, signal.SIGTERM)
        nginx.wait(10)
        shutil.rmtree(prefix, ignore_errors=True)


def test_the_proxy_is_sized_for_ten_thousand_streams_a_box():
    """A proxied stream costs two connections, each a file; a process may open at most 20,000
    files on the box measured: so several workers, each within that limit."""
    conf = (ROOT / "deploy" / "nginx.conf.template").read_text()
    workers = int(re.search(r"^worker_processes (\d+);", conf, re.M).group(1))
    per_worker = int(re.search(r"worker_connections (\d+);", conf).group(1))
    files = int(re.search(r"^worker_rlimit_nofile (\d+);", conf, re.M).group(1))
    assert workers >= 2 and workers * per_worker >= 2 * 10_000
    assert per_worker < files <= 20_000
    assert "reuseport" in conf  # new connections spread over the workers
