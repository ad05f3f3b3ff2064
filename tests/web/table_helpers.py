"""Shared steps of the full-game browser tests of the Provence and Photoshoot tables: a game made,
joined and started through the pages, and the API's own answers to compare the DOM with."""

from __future__ import annotations

import re

import httpx

from tests.web.conftest import Player, signup
from tests.web.driver import create_form, set_options
from tests.loopback import TLS

# The shared machine is slow under load: a full game waits longer than the shell's default.
PATIENCE_MS = 60_000


def seated(players, *names: str) -> list[Player]:
    made = players(*names, register=False)
    for player in made:
        player.page.set_default_timeout(PATIENCE_MS)
        try:
            signup(player)
        except Exception:
            player.page.screenshot(path=f"/tmp/web2/fail-{player.name}.png")
            print("BODY", player.page.inner_text("body")[:800], player.errors)
            raise
    return made


def api(web, player: Player, path: str) -> dict:
    answer = httpx.get(
        f"{web.url}/api/v1{path}", headers={"Authorization": f"Token {player.token}"}, timeout=20, verify=TLS
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def new_game(kind: str, creator: Player, others: list[Player], options: dict | None = None) -> str:
    """The creator makes the game in the lobby, the others join it from its page, and the last
    join starts it; returns the game's id."""
    page = creator.page
    page.get_by_role("heading", name="Lobby").wait_for()
    form = create_form(page, kind)
    form.locator("input[name=seats]").fill(str(1 + len(others)))
    set_options(form, options or {})
    # Until the shell's number inputs accept fractions (step="any"), a fractional default such
    # as reminder_fraction makes the browser refuse the form before any request.
    form.evaluate(
        "f => f.querySelectorAll('input[type=number]').forEach(i => { if (!i.checkValidity()) i.step = 'any'; })"
    )
    form.get_by_role("button", name=re.compile("Create")).click()
    page.wait_for_function("/^#\\/games\\/[0-9a-f-]+$/.test(location.hash)")
    game_id = page.evaluate("location.hash").rsplit("/", 1)[1]
    for other in others:
        other.goto(f"#/games/{game_id}")
        other.page.locator(".lobby-actions").get_by_role("button", name="Join").click()
        other.page.locator(".lobby-actions button:text-is('Leave'), [data-status=active]").first.wait_for()
    for player in [creator, *others]:
        player.page.locator("[data-status=active]").wait_for()
    return game_id


class screenshots_on_failure:
    """with screenshots_on_failure(shoot, ann, ben): every page is saved if the block fails."""

    def __init__(self, shoot, *people: Player):
        self.shoot, self.people = shoot, people

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        if kind is not None:
            for player in self.people:
                try:
                    self.shoot(player, "failure")
                except Exception:  # the failure itself matters more than its picture
                    pass
        return False


def click_until(page, target, done, attempts: int = 5, key: str | None = None) -> None:
    """Click `target` until `done` shows. With simultaneous moves a click can race another
    player's move: the page re-posts or refreshes, and if the step is still offered, the player
    clicks again. With `key`, the target is focused and the key pressed instead (keyboard play)."""
    for attempt in range(attempts):
        if done.count():
            return
        try:
            target.press(key, timeout=5_000) if key else target.click(timeout=5_000)
        except Exception:  # re-drawn or gone meanwhile: look at the page again
            pass
        try:
            done.wait_for(timeout=15_000)
            return
        except Exception:
            if attempt == attempts - 1:
                raise
