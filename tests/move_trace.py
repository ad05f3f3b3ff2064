"""Trace a move's path through the project's modules ("a move runs downhill", docs/architecture.md).

A real move is played over HTTP (the test client, against the test database): a Pick Pic game
with a clock (600 s a move) is created, joined and started through the API, then the first legal
move of a player whose turn it is is POSTed to ``/api/v1/games/<id>/moves/`` with an
Idempotency-Key, then the same request again (a client's retry, answered from the event log).
While those two POSTs run, ``sys.setprofile`` records every call into a project module
(``games.*``, ``accounts.*``, ``config.*``, ``web.*``).

What is counted
- **Recorded calls.** Only the move's path: from the first frame of ``games.api`` the request
  enters (the view; the middlewares around it are not the move's path) until it returns, plus the
  ``transaction.on_commit`` callbacks registered during it (and everything they call).
- **Caller of a call.** The module of the calling frame when that frame is the project's (a
  direct call). When Django (or DRF, ...) sits between them, the call is made on behalf of a
  project module:
  - an ``on_commit`` callback: the module whose code called ``transaction.on_commit`` to
    register it (the registering module), whenever Django runs it;
  - anything else the framework calls (a signal's receivers, a serializer's methods, the view's
    handler from ``APIView.dispatch``): the nearest project frame further up the stack, i.e. the
    module that asked the framework for the work (the sender of a signal, the view).
  Both kinds are also listed apart ("via framework") in the report.
- **Stay.** Each time control enters a module from another one (a cross-module call), the entry
  into the view included. "Stays" is their ordered list; the report shows it with repeats folded.
- **Layer.** Read from ``pyproject.toml``, so the trace and the import contracts cannot drift:
  within ``games``, the ``downhill`` contract's layers (top to bottom; a module belongs to the
  layer holding the longest prefix of its name; ``a | b`` and ``a : b`` are one layer); between
  apps, the ``apps`` contract (games above accounts above config and web).
- **Climb.** A call whose callee module sits in a higher layer than its caller's module. Calls
  inside one layer (a module calling itself or a sibling) are not climbs; neither are returns.
- **Store entries.** Cross-module calls whose callee is ``games.play.store``, by calling module.
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

PROJECT = ("games", "accounts", "config", "web")
STORE = "games.play.store"
CLOCK = {"time_control": "per_move", "move_seconds": 600}  # so clocks and the wake-ups run too
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _contract(contracts: list[dict], id_: str) -> list[list[str]]:
    (found,) = [c for c in contracts if c.get("id") == id_]
    return [[name.strip(" ()") for part in layer.split("|") for name in part.split(":")] for layer in found["layers"]]


class Layers:
    """Rank of a module: (its app's layer in `apps`, its layer in `downhill` for games)."""

    def __init__(self, pyproject: Path = PYPROJECT):
        contracts = tomllib.loads(pyproject.read_text())["tool"]["importlinter"]["contracts"]
        self.apps = _contract(contracts, "apps")
        self.downhill = _contract(contracts, "downhill")

    @staticmethod
    def _index(layers: list[list[str]], module: str) -> int | None:
        best, rank = -1, None
        for number, names in enumerate(layers):
            for name in names:
                if (module == name or module.startswith(name + ".")) and len(name) > best:
                    best, rank = len(name), number
        return rank

    def rank(self, module: str) -> tuple[int, int] | None:
        app = self._index(self.apps, module.split(".")[0])
        if app is None:
            return None
        if module.split(".")[0] == "games":
            inner = self._index(self.downhill, module)
            return None if inner is None else (app, inner)
        return (app, 0)

    def climbs(self, caller: str, callee: str) -> bool:
        high, low = self.rank(callee), self.rank(caller)
        if high is None or low is None:
            return False
        return high < low


@dataclass
class Call:
    caller: str
    callee: str
    function: str
    via: str = ""  # "", "on_commit" or "framework"


@dataclass
class Trace:
    calls: list[Call] = field(default_factory=list)  # every recorded cross-module call
    callbacks: Counter = field(default_factory=Counter)  # on_commit registrations, by module

    def stays(self) -> list[str]:
        return [call.callee for call in self.calls]

    def modules(self) -> set[str]:
        return {c.callee for c in self.calls} | {c.caller for c in self.calls if c.caller != "(django)"}

    def climbs(self, layers: Layers) -> list[Call]:
        return [c for c in self.calls if layers.climbs(c.caller, c.callee)]

    def store_entries(self) -> Counter:
        return Counter(c.caller for c in self.calls if c.callee == STORE)


def _module(frame) -> str | None:
    name = frame.f_globals.get("__name__") or ""
    return name if name.split(".")[0] in PROJECT else None


def _code_of(func):
    while True:
        if hasattr(func, "__code__"):
            return func.__code__
        if hasattr(func, "__func__"):
            func = func.__func__
        elif hasattr(func, "func"):  # functools.partial
            func = func.func
        else:
            return None


class Tracer:
    """A profile function: records the move's path (see the module's docstring)."""

    def __init__(self):
        from django.db import transaction

        self.on_commit_code = transaction.on_commit.__code__
        self.trace = Trace()
        self.callbacks: dict = {}  # code of an on_commit callback -> its registering module
        self.recording: set[int] = set()  # ids of the recorded project frames still running

    def _nearest_project(self, frame):
        frame = frame.f_back
        while frame is not None and _module(frame) is None:
            frame = frame.f_back
        return frame

    def __call__(self, frame, event, arg):
        if event == "return":
            self.recording.discard(id(frame))
            return
        if event != "call":
            return
        if frame.f_code is self.on_commit_code:
            registrar = self._nearest_project(frame)
            if registrar is not None and id(registrar) in self.recording:
                code = _code_of(frame.f_locals.get("func"))
                if code is not None:
                    self.callbacks[code] = _module(registrar)
                    self.trace.callbacks[_module(registrar)] += 1
            return
        module = _module(frame)
        if module is None:
            return
        back = frame.f_back
        direct = back is not None and _module(back) is not None
        if direct:
            if id(back) not in self.recording:
                return
            caller, via = _module(back), ""
        elif frame.f_code in self.callbacks:
            caller, via = self.callbacks[frame.f_code], "on_commit"
        else:
            ancestor = self._nearest_project(frame)
            if ancestor is not None and id(ancestor) in self.recording:
                caller, via = _module(ancestor), "framework"
            elif not self.recording and module.startswith("games.api"):
                caller, via = "(django)", "framework"  # the request's entry into the view
            else:
                return
        self.recording.add(id(frame))
        if caller != module:
            self.trace.calls.append(Call(caller, module, frame.f_code.co_name, via))


def trace_move(client_factory) -> Trace:
    """Set up a Pick Pic game over HTTP with three players from `client_factory()` (each with an
    authenticated test client as `.client`), then trace a first legal move and its retry."""
    players = [client_factory() for _ in range(3)]
    creator = players[0].client
    created = creator.post("/api/v1/games/", {"kind": "pickpic", "options": CLOCK}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for other in players[1:]:
        assert other.client.post(f"/api/v1/games/{game_id}/join/").status_code == 200
    assert creator.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    for player in players:
        game = player.client.get(f"/api/v1/games/{game_id}/").json()
        if game["your_turn"]:
            mover = player.client
            break
    move = mover.get(f"/api/v1/games/{game_id}/legal-moves/").json()["moves"][0]
    body = {"move": move, "expected_version": game["version"]}
    tracer = Tracer()
    for expected in (201, 201):  # the move, then its retry (answered from the log)
        sys.setprofile(tracer)
        try:
            response = mover.post(
                f"/api/v1/games/{game_id}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY="traced-move"
            )
        finally:
            sys.setprofile(None)
        assert response.status_code == expected, response.content
    assert response.headers.get("Idempotent-Replayed") == "true"
    return tracer.trace


def report(trace: Trace, layers: Layers | None = None) -> str:
    layers = layers or Layers()
    folded: list[str] = []
    for stay in trace.stays():
        if folded and folded[-1].split(" x")[0] == stay:
            name, _, times = folded[-1].partition(" x")
            folded[-1] = f"{name} x{int(times or 1) + 1}"
        else:
            folded.append(stay)
    climbs = trace.climbs(layers)
    lines = [
        f"stays: {len(trace.stays())} in {len(trace.modules())} modules",
        f"climbs back up: {len(climbs)}",
        "event store entered from: " + ", ".join(f"{m} ({n})" for m, n in sorted(trace.store_entries().items())),
        "on_commit callbacks registered by: " + ", ".join(f"{m} ({n})" for m, n in sorted(trace.callbacks.items())),
        "",
        "path (stays, repeats folded):",
        *("  " + s for s in folded),
        "",
        f"{'caller':34} {'callee':34} {'function':24} via       climb",
    ]
    for call in trace.calls:
        lines.append(
            f"{call.caller:34} {call.callee:34} {call.function[:24]:24} "
            f"{call.via or '-':9} {'CLIMB' if call in climbs else ''}"
        )
    unlayered = sorted(m for m in trace.modules() if m != "(django)" and layers.rank(m) is None)
    if unlayered:
        lines.append("modules in no layer: " + ", ".join(unlayered))
    return "\n".join(lines)
