"""An example third-party bot: plays its turns in every active game of one account over the
public HTTP API, with plain httpx.

    python examples/http_bot.py --api http://localhost:8000/api/v1 --username bot1 \
        --password '...' --level 2 [--kind photograph] [--once]

It sees exactly what any player sees: for each game where it is its turn it reads the game (its
view and version), its legal moves and the log as its seat reads it, asks `games.bots.decide`
(the server's own pure bot package; any decision code works) for a move, and posts it with the
version it decided on and an Idempotency-Key, so a retried POST is never played twice. A 409
(the game moved on) just means: read again. It honours 429 Retry-After. See docs/bots.md.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import uuid

import httpx

try:  # run from a checkout: the server's pure bot package
    from games.bots import decide
except ImportError:  # anywhere else: a legal move at random
    def decide(kind, level, *, legal, seed, **_):
        return random.Random(seed).choice(legal)


def call(client: httpx.Client, method: str, path: str, **kwargs) -> httpx.Response:
    for _ in range(5):
        response = client.request(method, path, **kwargs)
        if response.status_code != 429:
            return response
        time.sleep(float(response.headers.get("Retry-After", "2")))
    return response


def play_turn(client: httpx.Client, game_id: str, level: int) -> bool:
    """One move in one game if it is this account's turn; True if a move was accepted."""
    game = call(client, "GET", f"/games/{game_id}/").json()
    if not game["your_turn"] or game["your_seat"] is None:
        return False
    legal = call(client, "GET", f"/games/{game_id}/legal-moves/").json()
    if legal["version"] != game["version"] or not legal["moves"]:
        return False  # the game moved on between the two reads: next pass
    log = call(client, "GET", f"/games/{game_id}/events/", params={"limit": 1000}).json()["events"]
    move = decide(game["kind"], level, seat=game["your_seat"], view=game["state"],
                  legal=legal["moves"], log=log, options=game["options"],
                  rules_version=game["rules_version"], seed=f"{game_id}:{game['version']}")
    if move is None:  # nothing worth doing now (a Photoshoot challenge without evidence)
        return False
    answer = call(client, "POST", f"/games/{game_id}/moves/",
                  json={"move": move, "expected_version": game["version"]},
                  headers={"Idempotency-Key": str(uuid.uuid4())})
    if answer.status_code == 201:
        return True
    if answer.status_code != 409:
        print(f"{game_id}: {answer.status_code} {answer.text[:200]}", file=sys.stderr)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", default="http://localhost:8000/api/v1")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--level", type=int, default=2, choices=(1, 2, 3))
    parser.add_argument("--kind", help="play only games of this kind")
    parser.add_argument("--once", action="store_true", help="one pass over the games, then exit")
    args = parser.parse_args()
    with httpx.Client(base_url=args.api, timeout=30) as client:
        token = call(client, "POST", "/accounts/token/",
                     json={"username": args.username, "password": args.password}).json()["token"]
        client.headers["Authorization"] = f"Token {token}"
        while True:
            page = call(client, "GET", "/games/", params={"mine": "true", "status": "active",
                                                          "limit": 100}).json()
            moved = sum(play_turn(client, g["id"], args.level) for g in page["results"]
                        if g["your_turn"] and (not args.kind or g["kind"] == args.kind))
            if args.once:
                return 0
            time.sleep(0.5 if moved else 3)  # be gentle: docs/bots.md, "Rate limits"


if __name__ == "__main__":
    sys.exit(main())
