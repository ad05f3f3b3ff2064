"""The front door: a visitor with no account sees what Darkroom is and its four games, reads their
rules, and is one click from a game against the computer (as a guest, who can register later and
keep the game). A browser asking for a page the site does not have gets a page, not JSON. The
installable app's manifest and icons. axe-core checks every screen."""

import random

import httpx
import pytest

from tests.loopback import TLS
from tests.web import driver
from tests.web.pages import PHONE
from tests.worker import Worker, purge_queue

GAMES = {
    "photograph": "Photograph",
    "provence": "Walking in Provence",
    "photoshoot": "Photoshoot",
    "pickpic": "Pick Pic",
}


@pytest.fixture
def worker():
    """The computer's moves are the worker's (games.play.bots)."""
    purge_queue()
    w = Worker().start()
    yield w
    w.stop()
    purge_queue()


def test_the_front_page_without_an_account_shows_the_four_games_and_their_rules(players, web):
    (visitor,) = players("visitor", register=False)
    page = visitor.page
    visitor.goto("#/")
    page.get_by_role("heading", level=1, name="Darkroom: photography board games, online").wait_for()
    assert page.evaluate("location.hash") in ("", "#/")  # not sent to log in
    assert page.get_by_role("button", name="Play the computer now").is_visible()
    for kind, title in GAMES.items():
        box = page.locator(f"article.kind-box[data-kind={kind}]")
        assert box.get_by_role("heading", name=title).is_visible()
        picture = box.locator("img.box-picture")
        assert picture.evaluate("img => img.complete && img.naturalWidth > 0"), kind
        assert len(box.locator(".pitch").inner_text()) > 40, kind
        assert box.get_by_role("button", name=f"Play the computer at {title}").is_visible()
    visitor.audit("the front page")
    # Rules, readable without an account.
    page.locator("article[data-kind=provence]").get_by_role("link", name="How to play Walking in Provence").click()
    page.get_by_role("heading", name="How to play Walking in Provence").wait_for()
    assert page.locator("ol.rules li").count() >= 4 and page.evaluate("location.hash") == "#/rules/provence"
    visitor.audit()
    # A phone sees it all without scrolling sideways.
    page.set_viewport_size(PHONE)
    visitor.goto("#/")
    page.locator("#play-now").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    visitor.clean()


def test_a_visitor_is_one_click_from_a_move_against_the_computer_and_keeps_the_game_by_registering(
    players, web, worker
):
    (visitor,) = players("visitor", register=False)
    page = visitor.page
    page.set_default_timeout(60_000)
    visitor.goto("#/")
    clicks = 0
    page.get_by_role("button", name="Play the computer now").click()
    clicks += 1
    # The table, with the visitor's move offered (the computer, if it begins, has moved by then).
    page.locator("#table[data-your-turn=true]:not([data-busy])").wait_for()
    assert clicks <= 2
    game_id = page.evaluate("location.hash").rsplit("/", 1)[1]
    token = page.evaluate("localStorage.getItem('darkroom.token')")
    api = httpx.Client(
        base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {token}"}, verify=TLS, timeout=30
    )
    me = api.get("/accounts/me/").json()
    assert me["is_guest"] is True
    game = api.get(f"/games/{game_id}/").json()
    assert (
        game["kind"] == "photograph" and game["status"] == "active" and [p["bot"] for p in game["players"]] == [None, 2]
    )
    visitor.audit("a guest's first game")
    # The move itself: what the table offers, clicked.
    before = game["version"]
    driver.click_choice(visitor, random.Random(3))
    while driver.my_turn(visitor) and api.get(f"/games/{game_id}/").json()["version"] == before:
        driver.click_choice(visitor, random.Random(3))
    assert api.get(f"/games/{game_id}/").json()["version"] > before
    # Registering keeps the game: same account, now with a name and a password.
    page.get_by_role("link", name="Register to keep your games").click()
    form = page.get_by_role("form", name="Register")
    form.get_by_label("User name").fill("newcomer")
    form.get_by_label("Password", exact=True).fill("newcomer-Kodachrome-64")
    visitor.audit("a guest registers")
    form.get_by_role("button", name="Register and keep my games").click()
    page.get_by_text("Welcome, newcomer: your games are kept.").wait_for()
    page.get_by_role("region", name="Your games").locator(f"li[data-game='{game_id}']").wait_for()
    assert api.get("/accounts/me/").json() == {**me, "username": "newcomer", "is_guest": False}
    visitor.clean()


def test_an_unknown_page_is_a_page_for_a_browser(players, web):
    (visitor,) = players("visitor", register=False)
    page = visitor.page
    answer = page.goto(f"{web.url}/login")
    assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
    page.get_by_role("heading", name="No such page").wait_for()
    visitor.audit("an unknown page")
    page.get_by_role("link", name="Go to Darkroom's front page").click()
    page.locator("#play-now").wait_for()
    visitor.foreign.remove(f"{web.url}/login")  # asked for on purpose
    visitor.errors[:] = [e for e in visitor.errors if "404" not in e]
    visitor.clean()


def test_the_site_is_installable_a_manifest_icons_and_an_offline_shell(players, web):
    (visitor,) = players("visitor", register=False)
    page = visitor.page
    visitor.goto("#/")
    page.locator("#play-now").wait_for()
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = httpx.get(f"{web.url}{href}", verify=TLS)
    assert manifest.status_code == 200 and manifest.headers["content-type"].startswith("application/manifest+json")
    body = manifest.json()
    assert body["name"] == "Darkroom" and body["display"] == "standalone" and body["start_url"] == "/"
    sizes = {icon["sizes"]: icon for icon in body["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= set(sizes)
    assert any(icon["purpose"] == "maskable" for icon in body["icons"])
    for icon in body["icons"]:
        assert httpx.get(f"{web.url}{icon['src']}", verify=TLS).status_code == 200, icon
    # The offline shell: the worker controls the page, and the page opens with the network gone.
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || (location.reload(), false)", timeout=30_000, polling=3000
    )
    page.context.set_offline(True)
    page.reload()
    page.locator("header .brand").wait_for()
    assert page.title().endswith("Darkroom")
    page.context.set_offline(False)
    visitor.errors.clear()  # the offline page's refused requests, on purpose
