"""The soak (`make soak`, never `make test`): SOAK_GAMES bot-only games of every kind
at once, over the real HTTP API and the Procfile's processes (web, worker, outbound, bots, push,
beat), for SOAK_SECONDS. Every game is on a per-move clock of SOAK_MOVE_SECONDS.

Bot-only: seats 1.. are the site's bots (levels 1, 2, 3 in turn), asked for at create. Seat 0 is
the creator's, since a person creates every game: in half the games it is played by the
third-party example bot (examples/http_bot.py, on its generated typed client), in the other half
nobody plays it, so its clock plays for it and the timers fire while the bots think.

It reports, never asserts speed (the figures go to SOAK_REPORT and docs/bots.md):
- games finished, still moving, and stuck (active, with no new event for STUCK_SECONDS);
- responses with status 5xx, from the web process's access log (every request, the example
  bots' and the watcher's) and from the harness's own clients;
- the leak check on every channel a viewer reads over HTTP, per game, as each seat and a
  spectator: the game view, state?at= and the event log show exactly the engine's view and
  log lines for that viewer, and the seed appears in none before the end (the method of
  tests/games/test_every_game_over_http.py, made safe against games that move on meanwhile);
- timer lateness p50/p99/max (tests/faults/figures.py: a TimerExpired event's commit time less
  its deadline).
The test fails only on what must never happen: a 500, a leak, a stuck game, a dead process."""

from __future__ import annotations

import importlib.util
import logging
import os
import random
import re
import threading
import time
from collections import Counter

import httpx
import pytest

from accounts import tokens
from accounts.models import User
from games import engines
from games.models import Event, Game
from games.play import selectors, store
from games.play.kinds import get_engine
from tests.faults.figures import record
from tests.faults.stack.procfile import Proc, stack_env
from tests.games.test_every_game_over_http import canonical
from tests.live_server import free_port
from tests.worker import ROOT, purge_queue, wait_for
from tests.loopback import TLS

SECONDS = float(os.environ.get("SOAK_SECONDS", "600"))
GAMES = int(os.environ.get("SOAK_GAMES", "50"))
MOVE_SECONDS = int(os.environ.get("SOAK_MOVE_SECONDS", "10"))
STUCK_SECONDS = float(os.environ.get("SOAK_STUCK_SECONDS", str(max(90, 4 * MOVE_SECONDS))))
REPORT = os.environ.get("SOAK_REPORT")
PROCESSES = ("web", "worker", "outbound", "bots", "push", "beat")
SEATS = {"photoshoot": 4}  # two teams; every other kind with the fewest seats it allows
ACCESS = re.compile(r"\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /\S* (\d{3})\b")

pytestmark = [pytest.mark.soak, pytest.mark.django_db(transaction=True), pytest.mark.timeout(int(SECONDS) + 1800)]


def example_bot():
    spec = importlib.util.spec_from_file_location("http_bot", ROOT / "examples" / "http_bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Http:
    """A viewer over HTTP, counting the statuses it was answered with."""

    statuses: Counter = Counter()

    def __init__(self, url: str, token: str):
        self.client = httpx.Client(base_url=url, headers={"Authorization": f"Token {token}"}, timeout=60, verify=TLS)

    def get(self, path: str, **params) -> httpx.Response:
        return self.send("GET", path, params=params or None)

    def send(self, method: str, path: str, **kwargs) -> httpx.Response:
        for _ in range(10):
            answer = self.client.request(method, path, **kwargs)
            Http.statuses[answer.status_code] += 1
            if answer.status_code != 429:
                return answer
            time.sleep(float(answer.headers.get("Retry-After", "1")))
        return answer


def register(url: str, name: str) -> tuple[str, str]:
    password = "correct horse battery"
    answer = httpx.post(
        f"{url}/api/v1/accounts/register/",
        timeout=60,
        json={"username": name, "password": password, "email": f"{name}@example.com"},
        verify=TLS,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["token"], password


def create_games(url: str, kind: str, played: bool, count: int) -> tuple[str, str, list[str]]:
    """`count` games of `kind`, seat 0 an account of their own (played by the example bot or by
    nobody), the other seats bots: returns the account's name, password and the games."""
    name = f"soak-{kind}-{'bot' if played else 'away'}"
    token, password = register(url, name)
    creator = Http(url, token)
    seats = SEATS.get(kind, get_engine(kind).min_players)
    made = []
    for n in range(count):
        levels = [1 + (n + i) % 3 for i in range(seats - 1)]
        answer = creator.send(
            "POST",
            "/api/v1/games/",
            json={
                "kind": kind,
                "seats": seats,
                "bots": levels,
                "options": {"time_control": "per_move", "move_seconds": MOVE_SECONDS},
            },
        )
        assert answer.status_code == 201, answer.text
        assert answer.json()["status"] == "active", answer.json()
        made.append(answer.json()["id"])
    return name, password, made


def leak_check(game_id: str, viewers: dict, spectator: Http) -> int:
    """Every channel each seat and a spectator read, against the engine's view and log lines for
    them at a version fixed first (state?at=v, the log up to v), and the game view whenever it is
    still at the version the database holds around the read. Returns the channels checked."""
    game = Game.objects.get(pk=game_id)
    at, engine = game.version, get_engine(game.kind)
    seed = Event.objects.get(game=game, seq=1).data["seed"]
    state = store.replay_from_scratch(game, at)
    after = max(0, at - 30)

    def expected_state(seat):  # the current state's view; once the game moved on, a past one's
        shown = engine.view if Game.objects.get(pk=game_id).version == at else engine.replay_view
        return canonical(shown(state, seat))

    def expected_log(seat):  # the latest write's lines are fresh until the next write
        now = Game.objects.get(pk=game_id)
        return canonical([selectors.describe(now, e, seat) for e in list(store.events(now, after))[: at - after]])

    checked = 0
    for seat, viewer in [*viewers.items(), (None, spectator)]:
        answers = []
        for path, params, key, expected in [
            (f"/api/v1/games/{game_id}/state/", {"at": at}, "state", expected_state),
            (f"/api/v1/games/{game_id}/events/", {"after": after, "limit": at - after}, "events", expected_log),
        ]:
            before = expected(seat)
            answer = viewer.get(path, **params)
            # a move between the two reads changes what the viewer may rightly be shown: ask again
            assert answer.json()[key] in (before, expected(seat)), (game_id, seat, at, key)
            answers.append(answer)
        detail = viewer.get(f"/api/v1/games/{game_id}/")
        checked += 2
        if detail.json()["version"] == at and Game.objects.get(pk=game_id).version == at:
            assert detail.json()["state"] == canonical(engine.view(state, seat)), (game_id, seat)
            checked += 1
        if Game.objects.get(pk=game_id).status != Game.Status.FINISHED:  # the seed is public at the end
            for answer in (*answers, detail):
                assert seed not in answer.text, f"{game_id}: the seed leaked to seat {seat}"
    return checked


def test_soak(tmp_path):
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
    purge_queue()
    port = free_port()
    env = stack_env(PORT=str(port), LOG_FORMAT="text")
    procs = {name: Proc(name, env) for name in PROCESSES}
    url = f"http://127.0.0.1:{port}"
    bots, lines = [], []
    try:
        for proc in procs.values():
            proc.start(wait=False)
        assert wait_for(lambda: _up(url, procs["web"]), timeout=90, every=0.3), procs["web"].output()[-3000:]
        for name, proc in procs.items():
            if name != "web":
                assert wait_for(lambda p=proc: p.ready() or not p.alive(), timeout=90, every=0.3)
                assert proc.alive(), f"{name} died at start:\n{proc.output()[-3000:]}"

        http_bot = example_bot()
        http_bot.generate(url, tmp_path)
        client = http_bot.load_client(tmp_path)
        spectator = Http(url, register(url, "soak-spectator")[0])
        games: dict[str, str] = {}  # game -> kind
        players = []
        for kind in engines.kinds():
            for played in (True, False):
                name, password, made = create_games(url, kind, played, GAMES // 2 + (GAMES % 2 if played else 0))
                games.update(dict.fromkeys(made, kind))
                if played:
                    players.append((name, password))
        started = time.monotonic()
        stop = started + SECONDS
        for name, password in players:
            bot = http_bot.Bot(client, url, name, password, level=1)
            runner = threading.Thread(target=keep_playing, args=(bot, stop), daemon=True)
            runner.start()
            bots.append((bot, runner))

        # Watch: every game's version, as its creator lists it, a round every 5 s.
        accounts = [
            Http(url, tokens.issue(User.objects.get(username=f"soak-{k}-{m}"))[1])
            for k in engines.kinds()
            for m in ("bot", "away")
        ]
        checked, leaks = 0, []
        seat_viewers: dict[int, Http] = {}

        def check(game_id: str) -> None:
            nonlocal checked
            seats = dict(Game.objects.get(pk=game_id).seat_set.values_list("number", "user_id"))
            for user_id in set(seats.values()) - set(seat_viewers):
                seat_viewers[user_id] = Http(url, tokens.issue(User.objects.get(pk=user_id), device="soak")[1])
            try:
                checked += leak_check(game_id, {s: seat_viewers[u] for s, u in seats.items()}, spectator)
            except AssertionError as leak:
                leaks.append(str(leak)[:300])

        moved_at = dict.fromkeys(games, started)
        versions = dict.fromkeys(games, 0)
        statuses: dict[str, str] = {}
        sampler = random.Random("soak")
        while time.monotonic() < stop:
            now = time.monotonic()
            for account in accounts:
                offset = 0
                while True:
                    page = account.get("/api/v1/games/", mine="true", limit=100, offset=offset).json()
                    for g in page["results"]:
                        if g["version"] != versions.get(g["id"]):
                            versions[g["id"]], moved_at[g["id"]] = g["version"], now
                        statuses[g["id"]] = g["status"]
                    offset += 100
                    if not page["next"]:
                        break
            # the leak check while the games move: three of them, every round
            for game_id in sampler.sample(sorted(games), min(3, len(games))):
                check(game_id)
            dead = [name for name, proc in procs.items() if not proc.alive()]
            assert not dead, f"{dead} died:\n" + "\n".join(procs[n].output()[-3000:] for n in dead)
            time.sleep(max(0.0, 5 - (time.monotonic() - now)))
        ended = time.monotonic()
        for _, runner in bots:
            runner.join(60)

        # The leak check once more, on every game as it stands now (finished ones at their end).
        for game_id in games:
            check(game_id)

        finished = [g for g in games if statuses.get(g) == "finished"]
        stuck = [g for g in games if statuses.get(g) == "active" and ended - moved_at[g] > STUCK_SECONDS]
        moving = [g for g in games if statuses.get(g) == "active" and g not in stuck]
        other = Counter(statuses.get(g, "unseen") for g in games if g not in finished + stuck + moving)
        served = Counter()
        for line in procs["web"].output().splitlines():
            hit = ACCESS.search(line)
            if hit and "darkroom.access" in line:  # the app's own line per request (config/logs.py)
                served[int(hit.group(1))] += 1
        five = {code: n for code, n in (served + Http.statuses).items() if code >= 500}
        bot_errors = [e for bot, _ in bots for e in bot.errors]
        events = Event.objects.filter(game_id__in=list(games)).count()
        per_kind = ", ".join(
            f"{kind} {sum(games[g] == kind for g in finished)}/{sum(games[g] == kind for g in moving)}/"
            f"{sum(games[g] == kind for g in stuck)}"
            for kind in engines.kinds()
        )
        lines += [
            (
                f"soak: {len(games)} games ({GAMES} of each of {', '.join(engines.kinds())}), "
                f"{ended - started:.0f} s, per-move clocks of {MOVE_SECONDS} s, on {os.cpu_count()} cores "
                f"(load average {os.getloadavg()[0]:.1f} at the end)"
            ),
            (
                f"games: {len(finished)} finished, {len(moving)} still moving, {len(stuck)} stuck"
                + (f", {dict(other)}" if other else "")
                + f"; {events} events written; {per_kind} "
                "(finished/moving/stuck)"
            ),
            (
                f"responses: {sum(served.values())} served by web, 5xx: {five or 0}; the example bots: "
                f"{sum(b.moves for b, _ in bots)} moves, {sum(b.conflicts for b, _ in bots)} read again after "
                f"a 409, {sum(b.dropped for b, _ in bots)} sent again after a dropped connection, "
                f"{len(bot_errors)} errors"
            ),
            (
                f"leak checks: {checked} channel reads over {len(games)} games and {len(seat_viewers) + 1} "
                f"viewers, {len(leaks)} leaks"
            ),
            record("timers", list(games), note="while the bots think"),
        ]
    finally:
        for proc in procs.values():
            proc.stop()
        purge_queue()
        for line in lines:
            print(line)
        if REPORT and lines:
            with open(REPORT, "w") as fh:
                fh.write("\n".join(lines) + "\n")
    assert not leaks, leaks
    assert not five, five
    assert not stuck, [(g, games[g], versions[g]) for g in stuck]
    assert not bot_errors, bot_errors[:5]


def keep_playing(bot, stop: float) -> None:
    """The example bot's loop until `stop`; what would end it early is an error it reports."""
    try:
        bot.run(deadline=stop)
    except Exception as error:  # noqa: BLE001  (a broken connection, an answer it cannot parse)
        bot.errors.append(f"stopped: {error!r}")


def _up(url: str, web: Proc) -> bool:
    if not web.alive():
        raise RuntimeError(f"the web process died at start:\n{web.output()[-3000:]}")
    try:
        return httpx.get(f"{url}/api/v1/kinds/", timeout=2, verify=TLS).status_code == 200
    except httpx.HTTPError:
        return False
