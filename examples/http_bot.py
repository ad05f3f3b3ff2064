"""An example third-party bot: plays its turns in every active game of one account over the
public HTTP API, through a typed client generated from the server's own OpenAPI document.

    python examples/http_bot.py generate --server http://localhost:8000   # once: the client
    python examples/http_bot.py play --server http://localhost:8000 --username bot1 \
        --password '...' --level 2 [--kind photograph] [--once] [--until-finished]

`generate` fetches /api/v1/schema/ and runs openapi-python-client on it, writing the package
`darkroom_client` next to this file (examples/darkroom_client/, not committed: it is the server's,
so it is generated again whenever the server changes). `play` imports it: every answer is parsed
into the document's classes, so a bot written against it breaks loudly, not subtly, when the API
changes.

It sees exactly what any player sees: for each game where it is its turn it reads the game (its
view and version), its legal moves and the log as its seat reads it, asks `games.bots.decide`
(the server's own pure bot package; any decision code works) for a move, and posts it with the
version it decided on and an Idempotency-Key, so a retried POST is never played twice. A 409
(the game moved on) just means: read again. It honours 429 Retry-After. See docs/bots.md.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
import uuid
from http import HTTPStatus
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
PACKAGE = "darkroom_client"

try:  # run from a checkout: the server's pure bot package
    from games.bots import decide
except ImportError:  # anywhere else: a legal move at random

    def decide(kind, level, *, legal, seed, **_):
        return random.Random(seed).choice(legal)


def generate(server: str, into: Path = HERE) -> str:
    """Write the typed client for the server at `server` (its root: the document's paths start
    with /api/v1) as `into`/darkroom_client; returns what the generator said (a warning there
    is a schema it dropped, so an answer left untyped)."""
    document = httpx.get(
        f"{server.rstrip('/')}/api/v1/schema/", timeout=60, headers={"Accept": "application/vnd.oai.openapi+json"}
    )
    document.raise_for_status()
    with tempfile.TemporaryDirectory() as work:
        (Path(work) / "openapi.json").write_bytes(document.content)
        (Path(work) / "config.yaml").write_text("post_hooks: []\n")  # no formatter needed
        generator = Path(sys.executable).parent / "openapi-python-client"
        done = subprocess.run(
            [
                str(generator) if generator.exists() else "openapi-python-client",
                "generate",
                "--path",
                f"{work}/openapi.json",
                "--meta",
                "none",
                "--overwrite",
                "--output-path",
                str(into / PACKAGE),
                "--config",
                f"{work}/config.yaml",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=work,
        )
    if done.returncode:
        raise RuntimeError(done.stdout + done.stderr)
    return done.stdout + done.stderr


class Bot:
    """One account's bot on the generated client `client` (the imported package)."""

    def __init__(self, client, server: str, username: str, password: str, level: int):
        self.pkg, self.level = client, level
        self.calls = self.conflicts = self.moves = self.dropped = 0
        self.errors: list[str] = []  # answers a bot should never get (a 5xx, a 400)
        token = self.call(
            self.op("accounts.accounts_token_create"),
            client=client.Client(base_url=server, timeout=30),
            body=self.model("TokenInRequest")(username=username, password=password),
        )
        if not isinstance(token, self.model("TokenOut")):
            raise SystemExit(f"no token: {token}")
        self.http = client.AuthenticatedClient(base_url=server, token=token.token, prefix="Token", timeout=30)

    def op(self, name: str):
        import importlib

        return importlib.import_module(f"{self.pkg.__name__}.api.{name}")

    def model(self, name: str):
        return getattr(__import__(f"{self.pkg.__name__}.models", fromlist=[name]), name)

    def call(self, operation, *args, **kwargs):
        """The parsed answer; a 429 waits its Retry-After and asks again, and so does a dropped
        connection (a move is sent again with the same Idempotency-Key, so it is played once at
        most). Any other refusal is returned as the document's ErrorOut, for the caller to judge."""
        for attempt in range(10):
            self.calls += 1
            try:
                answer = operation.sync_detailed(*args, **kwargs)
            except httpx.TransportError:  # a kept-alive connection the server closed, say
                if attempt == 9:
                    raise
                self.dropped += 1
                time.sleep(1)
                continue
            if answer.status_code != HTTPStatus.TOO_MANY_REQUESTS:
                if answer.status_code >= 500:
                    self.errors.append(f"{answer.status_code} {answer.content[:200]!r}")
                return answer.parsed
            time.sleep(float(answer.headers.get("Retry-After", "2")))
        return answer.parsed

    def active_games(self, kind: str | None = None) -> list:
        page = self.call(
            self.op("games.games_list"),
            client=self.http,
            mine=True,
            limit=100,
            status=self.model("GamesListStatus")("active"),
        )
        return [g for g in page.results if not kind or g.kind == kind]

    def play_turn(self, game_id: str) -> bool:
        """One move in one game if it is this account's turn; True if a move was accepted."""
        game = self.call(self.op("games.games_retrieve"), game_id, client=self.http)
        if not isinstance(game, self.model("GameDetailOut")) or not game.your_turn or game.your_seat is None:
            return False
        legal = self.call(self.op("games.games_legal_moves_retrieve"), game_id, client=self.http)
        if legal.version != game.version or not legal.moves:
            return False  # the game moved on between the two reads: next pass
        log = self.call(
            self.op("games.games_events_retrieve"),
            game_id,
            client=self.http,
            after=max(0, game.version - 200),
            limit=200,
        )
        if log.version < game.version:
            return False
        moves = [m.to_dict() for m in legal.moves]
        move = decide(
            game.kind,
            self.level,
            seat=game.your_seat,
            view=game.state.to_dict(),
            legal=moves,
            log=[e.to_dict() for e in log.events],
            options=game.options.to_dict(),
            rules_version=game.rules_version or 1,
            seed=f"{game_id}:{game.version}",
        )
        if move is None:  # nothing worth doing now (a Photoshoot challenge without evidence)
            return False
        answer = self.call(
            self.op("games.games_moves_create"),
            game_id,
            client=self.http,
            idempotency_key=str(uuid.uuid4()),
            body=self.model("MoveInRequest")(move=legal.moves[moves.index(move)], expected_version=game.version),
        )
        if isinstance(answer, self.model("MoveOut")):
            self.moves += 1
            return True
        code = getattr(answer.code, "value", answer.code)
        if code in {"version_conflict", "not_your_turn", "game_not_active", "unavailable_move"}:
            self.conflicts += 1  # the game moved on (a clock, a teammate): read again next pass
        else:
            self.errors.append(f"{game_id}: {code} {answer.detail}")
        return False

    def run(
        self, kind: str | None = None, once: bool = False, until_finished: bool = False, deadline: float | None = None
    ) -> None:
        had_games = False
        while deadline is None or time.monotonic() < deadline:
            games = self.active_games(kind)
            had_games = had_games or bool(games)
            if until_finished and had_games and not games:
                return
            moved = sum(self.play_turn(str(g.id)) for g in games if g.your_turn)
            if once:
                return
            time.sleep(0.3 if moved else 2)  # be gentle: docs/bots.md, "Rate limits"


def load_client(where: Path = HERE):
    sys.path.insert(0, str(where))
    try:
        return __import__(PACKAGE)
    except ImportError:
        sys.exit(
            f"no {where / PACKAGE}: run `python {Path(__file__).name} generate --server URL` "
            "(or `make bot-client`) first"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="generate the typed client from the server's document")
    play = commands.add_parser("play", help="play this account's turns")
    for sub in (gen, play):
        sub.add_argument("--server", default="http://localhost:8000", help="the server's root URL")
        sub.add_argument("--client-dir", type=Path, default=HERE, help=f"where {PACKAGE} is (default: here)")
    play.add_argument("--username", required=True)
    play.add_argument("--password", required=True)
    play.add_argument("--level", type=int, default=2, choices=(1, 2, 3))
    play.add_argument("--kind", help="play only games of this kind")
    play.add_argument("--once", action="store_true", help="one pass over the games, then exit")
    play.add_argument(
        "--until-finished", action="store_true", help="exit once the account had active games and has none left"
    )
    args = parser.parse_args()
    if args.command == "generate":
        print(generate(args.server, args.client_dir).strip())
        return 0
    bot = Bot(load_client(args.client_dir), args.server, args.username, args.password, args.level)
    bot.run(args.kind, args.once, args.until_finished)
    for error in bot.errors:
        print(error, file=sys.stderr)
    print(
        f"{bot.moves} moves, {bot.conflicts} read again after a 409, {bot.calls} requests, "
        f"{bot.dropped} sent again after a dropped connection"
    )
    return 1 if bot.errors else 0


if __name__ == "__main__":
    sys.exit(main())
