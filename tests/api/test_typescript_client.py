"""The TypeScript side of the contract: openapi-typescript (pinned in tests/api/ts/package.json,
installed by `make install`) types every schema of the served document (no
`Record<string, never>`, the type of an object it knows nothing about), and a client written
against those types (tests/api/ts/play.ts: openapi-fetch, compiled by tsc --strict, run by node)
plays a whole Pick Pic game against a live server."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import httpx
from tests.loopback import TLS
import pytest

TS = Path(__file__).resolve().parent / "ts"
BIN = TS / "node_modules" / ".bin"
# The two file-level aliases openapi-typescript always writes, empty when the document has no
# webhooks and no $defs (asserted below): placeholders, not types of ours.
PLACEHOLDERS = {"export type webhooks = Record<string, never>;", "export type $defs = Record<string, never>;"}


@pytest.fixture(scope="module")
def typescript(tmp_path_factory, live_server):
    """A scratch project: the document, its generated types, the client, the pinned packages."""
    assert (BIN / "openapi-typescript").exists() and shutil.which("node"), (
        "node and tests/api/ts/node_modules are missing: run `make install`"
    )
    work = tmp_path_factory.mktemp("typescript-client")
    document = httpx.get(
        f"{live_server.url}/api/v1/schema/",
        headers={"Accept": "application/vnd.oai.openapi+json"},
        timeout=30,
        verify=TLS,
    )
    assert document.status_code == 200
    (work / "openapi.json").write_bytes(document.content)
    for name in ("play.ts", "tsconfig.json", "package.json"):
        shutil.copy(TS / name, work / name)
    (work / "node_modules").symlink_to(TS / "node_modules")
    # Request bodies: a field with a server-side default stays optional for the client.
    generated = subprocess.run(
        [str(BIN / "openapi-typescript"), "openapi.json", "--default-non-nullable", "false", "-o", "schema.d.ts"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    said = re.sub(r"\x1b\[[0-9;]*m", "", generated.stdout + generated.stderr)
    assert not re.search(r"warn|error", said, re.I), said
    return work


def test_openapi_typescript_gives_every_schema_a_type(typescript):
    document = json.loads((typescript / "openapi.json").read_text())
    assert not document.get("webhooks") and "$defs" not in document
    empty = [
        line.strip()
        for line in (typescript / "schema.d.ts").read_text().splitlines()
        if "Record<string, never>" in line and line.strip() not in PLACEHOLDERS
    ]
    assert empty == []


@pytest.mark.slow
def test_a_typed_typescript_client_plays_a_whole_pick_pic_game(typescript, live_server, transactional_db):
    compiled = subprocess.run(
        [str(BIN / "tsc"), "-p", "."], cwd=typescript, capture_output=True, text=True, timeout=180
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    played = subprocess.run(
        ["node", "dist/play.js", live_server.url, "pickpic", "3"],
        cwd=typescript,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    summary = json.loads(played.stdout.strip().splitlines()[-1])
    assert summary["kind"] == "pickpic" and summary["status"] == "finished"
    assert summary["moves"] > 5 and summary["events"] == summary["version"]
    assert summary["winners"]
