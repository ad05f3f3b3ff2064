"""The proxy compresses the API's JSON on its way to the browser, and never a live stream (a
compressed stream would hold an event back until a block filled)."""

import json
import shutil
import subprocess
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from scripts import proxy
from tests.live_server import free_port
from tests.worker import wait_for

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
pytestmark = pytest.mark.skipif(not Path(NGINX).exists(), reason="needs nginx")
BODY = json.dumps({"results": [{"kind": "photograph", "title": "Photograph"}] * 60}).encode()


class Upstream(BaseHTTPRequestHandler):
    """Stands for `web` and `live` alike: the same JSON, whatever the path."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream" if "stream" in self.path else "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, *args):
        pass


@pytest.fixture
def proxied():
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    prefix = Path(tempfile.mkdtemp(prefix="darkroom-gzip-"))
    (prefix / "tls.d").mkdir()
    target = f"127.0.0.1:{upstream.server_address[1]}"
    port = free_port()
    (prefix / "nginx.conf").write_text(
        proxy.render({"PORT": str(port), "WEB_UPSTREAM": target, "LIVE_UPSTREAM": target})
    )
    nginx = subprocess.Popen(
        [NGINX, "-p", f"{prefix}/", "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"

        def up():
            try:
                return httpx.get(f"{base}/api/v1/kinds/", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        assert wait_for(up, timeout=20)
        yield base
    finally:
        nginx.terminate()
        nginx.wait(10)
        upstream.shutdown()


def test_the_api_s_json_reaches_a_browser_compressed(proxied):
    answer = httpx.get(f"{proxied}/api/v1/kinds/", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert json.loads(answer.content) == json.loads(BODY)


def test_a_client_that_takes_no_compression_gets_plain_json(proxied):
    answer = httpx.get(f"{proxied}/api/v1/kinds/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in answer.headers and answer.content == BODY


def test_a_live_stream_is_never_compressed(proxied):
    answer = httpx.get(f"{proxied}/api/v1/stream/", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in answer.headers
