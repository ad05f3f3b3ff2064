"""Playing through the page only: a game is created, joined and started with the lobby's forms and
buttons, and every move is made by clicking (or pressing Enter/Space on) what the table offers
(`[data-choice]` elements: each one a step toward a legal move, never a guess). What to click is
read from the page."""

from __future__ import annotations

import random
import re

import httpx
from tests.loopback import TLS
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TABLE = "#table"
SETTLED = """r => { const t = document.getElementById('table');
                    return t && t.dataset.render !== r && !t.dataset.busy; }"""


def create_form(page, kind: str):
    """The lobby's full create form for `kind`, unfolded from under its "More options"."""
    box = page.locator(f"article.kind-box[data-kind={kind}]")
    details = box.locator("details.more-options")
    if not details.evaluate("d => d.open"):
        details.locator("summary").click()
    return box.locator("form.create")


def create_game(host, kind: str, seats: int, **options) -> str:
    """The host fills the lobby's form for `kind` and lands on the new game's page: its id. The
    game starts itself when the last seat is taken (the form's default)."""
    page = host.page
    host.goto("#/")
    form = create_form(page, kind)
    form.locator("input[name=seats]").fill(str(seats))
    set_options(form, options)
    form.get_by_role("button", name=re.compile("^Create")).click()
    page.locator("[data-status=open], #flash .error").first.wait_for()
    assert page.locator("[data-status=open]").count(), page.locator("#flash").inner_text()
    return page.url.rsplit("/", 1)[1]


def set_options(form, options: dict) -> None:
    """Fill the create form's option fields (the kind's `options_schema`) as a person would."""
    for name, value in options.items():
        field = form.locator(f"[name='option:{name}']")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))


def join(player, game_id: str) -> None:
    """Join from the lobby's list of games waiting for players."""
    player.goto("#/")
    player.page.locator(f"li[data-seek='{game_id}']").get_by_role("button", name="Join").click()
    player.page.locator("[data-status=open], [data-status=active]").first.wait_for()


def start(host, seats: int) -> None:
    """The game starts itself when its last seat is taken: the host's page shows it started."""
    host.page.locator("[data-status=active]").wait_for()


def open_game(player, game_id: str) -> None:
    player.goto(f"#/games/{game_id}")
    player.page.locator("[data-status]").wait_for()


def my_turn(player) -> bool:
    return player.page.locator(f"{TABLE}[data-your-turn=true]:not([data-busy])").count() == 1


def finished(player) -> bool:
    return player.page.locator("[data-status=finished]").count() == 1


PREFER = (".primary", ".target")  # finish a move under way (send it, or its last step) first


def click_choice(player, rng: random.Random, prefer=PREFER) -> str | None:
    """Click one offered choice (a `prefer`red one if any), then wait for the table to redraw."""
    page = player.page
    choices = page.locator(f"{TABLE} [data-choice]")
    for selector in prefer:
        if page.locator(f"{TABLE} {selector}[data-choice]").count():
            choices = page.locator(f"{TABLE} {selector}[data-choice]")
            break
    count = choices.count()
    if not count:
        return None
    choice = choices.nth(rng.randrange(count))
    label = choice.get_attribute("data-choice")
    before = page.locator(TABLE).get_attribute("data-render")
    how = rng.randrange(3)  # keyboard play too: a third by Enter, a third by Space
    try:
        if how:
            choice.focus()
            page.keyboard.press("Enter" if how == 1 else " ")
        else:
            choice.click()
    except PlaywrightTimeoutError:
        if page.locator(TABLE).get_attribute("data-render") == before:
            raise  # the choice stayed on the table and could not be taken
        return None  # the table redrew between the look and the click: look again
    page.wait_for_function(SETTLED, arg=before)
    return label


def take_turn(player, rng: random.Random, prefer=PREFER, limit: int = 60) -> int:
    """Click until the page says it is no longer this player's turn; the number of clicks."""
    clicks = 0
    while my_turn(player):
        assert clicks < limit, f"{player.name} clicked {clicks} times without finishing a move"
        if click_choice(player, rng, prefer) is None:
            player.page.wait_for_timeout(100)  # a redraw in flight: look again
        clicks += 1
    player.audit()  # axe-core on each screen the game shows this player (checked in clean())
    return clicks


def play_to_the_end(seats, rng: random.Random, after_turn=None, limit: int = 400) -> int:
    """Each seat whose page says it is its turn takes it, until every page shows the result;
    `after_turn(player, turns)` runs after each turn. The number of turns played."""
    turns = 0
    while not all(finished(player) for player in seats):
        acted = False
        for player in seats:
            if my_turn(player):
                take_turn(player, rng)
                turns += 1
                acted = True
                if after_turn:
                    after_turn(player, turns)
        if not acted:
            seats[0].page.wait_for_timeout(200)  # the pages catch up with the live stream
        assert turns < limit, "the game did not end"
    return turns


def api_view(web, player, game_id: str) -> dict:
    """What the API gives this player (for comparing with what another player's page shows)."""
    return httpx.get(
        f"{web.url}/api/v1/games/{game_id}/", headers={"Authorization": f"Token {player.token}"}, timeout=30, verify=TLS
    ).json()


def table_text(player) -> str:
    """Every text of the page a person or a screen reader gets, and every data attribute."""
    return player.page.evaluate("""() => {
        const parts = [document.body.innerText];
        for (const el of document.querySelectorAll('*')) {
            for (const a of el.attributes) if (a.name.startsWith('data-') || a.name.startsWith('aria-')) parts.push(a.value);
            if (el.tagName.toLowerCase() === 'title') parts.push(el.textContent);
        }
        return parts.join('\\n');
    }""")


def shown_cards(player) -> set[int]:
    """The card ids the page draws (`data-card`)."""
    return set(
        player.page.evaluate("() => [...document.querySelectorAll('[data-card]')].map(e => Number(e.dataset.card))")
    )


def api_at(web, player, game_id: str, at: int) -> dict:
    return httpx.get(
        f"{web.url}/api/v1/games/{game_id}/state/",
        params={"at": at},
        headers={"Authorization": f"Token {player.token}"},
        timeout=30,
        verify=TLS,
    ).json()
