"""`web` and `live` are reachable only through the proxy (docs/operations.md, "Only through the
proxy"): the Procfile binds them to loopback, compose publishes the proxy's port alone, and the
systemd unit the operations guide gives binds loopback too."""

from __future__ import annotations

import re

import yaml

from tests.faults.stack.procfile import procfile_command
from tests.worker import ROOT


def binds(command: str) -> list[str]:
    return re.findall(r"--bind[ =](\S+)", command)


def test_the_procfile_binds_web_and_live_to_loopback():
    for name in ("web", "live"):
        assert [b.split(":")[0] for b in binds(procfile_command(name))] == ["127.0.0.1"], name


def test_compose_publishes_the_proxy_alone():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert {name for name, spec in services.items() if spec.get("ports")} == {"proxy"}
    assert not services["web"].get("network_mode") and not services["live"].get("network_mode")


def test_the_operations_guide_s_units_bind_loopback():
    guide = (ROOT / "docs" / "operations.md").read_text()
    units = re.findall(r"ExecStart=(.*(?:\\\n.*)*)", guide)
    assert units, "the guide shows a unit"
    assert all(binds(unit) and all(b.startswith("127.0.0.1:") for b in binds(unit)) for unit in units), units
    assert "only through the proxy" in guide.lower()
