"""The web client in a real browser: Debian's chromium driven by Playwright, against a real server
process (uvicorn, the test database, Redis). One browser context per user; every page is watched
for console errors and for requests outside /api/v1/ and /static/."""

from __future__ import annotations

import os
import re
import shutil
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.db import connections

from tests.live_server import Server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Debian's build of Chromium's headless shell, as Playwright itself runs headless tests: the same
# Blink, without the full browser around it, for about a third less of the machine on these tests
# (browser, server and database together). It shows no notifications: the tests of those ask for
# the full Chromium (the `notifications` marker).
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL", "/usr/bin/chromium-headless-shell")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# sw.js: the service worker (push, the offline shell); the manifest of the installable app.
ALLOWED = re.compile(r"^/(api/v1/|static/|sw\.js$|manifest\.webmanifest$|$)")


def pytest_collection_modifyitems(items):
    here = str(Path(__file__).resolve().parent)
    for item in items:
        if str(item.fspath).startswith(here):
            # The server process writes through its own connections: flush, not roll back.
            item.add_marker(pytest.mark.django_db(transaction=True))
            if not shutil.which(CHROMIUM):
                item.add_marker(pytest.mark.skip(reason=f"no chromium at {CHROMIUM} (make install brings Debian's)"))


@pytest.fixture(scope="session")
def web(django_db_setup, django_db_blocker):
    # One server for all the browser files a test process runs (each test flushes the database
    # it serves): a start is seconds of a busy machine's CPU. Its connections go by a name of
    # their own: the tests that count a server's connections (live_server.web_connections) later
    # in the same process count only their own server's.
    # Playwright's sync API keeps an event loop in this thread, so Django, here in the test
    # process only, must be told the database calls of its fixtures are fine; never the server's.
    with django_db_blocker.unblock():
        server = Server(DJANGO_ALLOW_ASYNC_UNSAFE="", PGAPPNAME="darkroom-web-browser-test").start()
    yield server
    server.stop()


def executable(notifications: bool = False) -> str:
    """The headless shell where it is installed, unless the test needs notifications."""
    return CHROMIUM if notifications or not shutil.which(HEADLESS_SHELL) else HEADLESS_SHELL


@contextmanager
def launched_chromium(notifications: bool = False):
    """Chromium, launched by Playwright's sync API, which keeps an event loop running on this
    thread until it stops. `notifications`: the full browser, which shows them."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=executable(notifications), args=ARGS, headless=True)
            yield chromium
            # Django connections opened while Playwright's loop runs on this thread belong to the
            # loop's context: closed here, or they outlive the loop and hold the test database.
            connections.close_all()
            chromium.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture(scope="module")
def browser(request):
    # One browser per module, so the next file a pytest-xdist process runs (Django's test client
    # calling an async view, say) finds no loop of Playwright's left on its thread. A module marked
    # `notifications` gets the full Chromium for all its tests: two Playwright loops cannot share
    # a thread, so the shell and it cannot both serve one module.
    with launched_chromium(notifications=request.node.get_closest_marker("notifications") is not None) as chromium:
        yield chromium


@dataclass
class Player:
    """One user in a browser context of their own, with what their page did wrong."""

    name: str
    page: object
    base: str
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    token: str | None = None
    audited: set[str] = field(default_factory=set)
    inaccessible: list[str] = field(default_factory=list)

    def audit(self, detail: str = "") -> None:
        """axe-core on the page as it is now, once per screen: a screen is the page's address and
        the game's phase (a table's phase changes what it draws), and `detail` (a step under way, say).
        Violations are kept for
        `clean()`, so a test plays on and reports every screen that failed at once."""
        from tests.web.pages import axe_violations

        phase = self.page.evaluate(
            "() => (document.querySelector('[data-phase]') || {dataset: {}}).dataset.phase || ''"
        )
        screen = " ".join(filter(None, [self.page.url.split("#", 1)[-1], phase, detail]))
        if screen in self.audited:
            return
        self.audited.add(screen)
        self.inaccessible += [f"{screen}: {v}" for v in axe_violations(self.page)]

    def goto(self, fragment: str = "#/") -> None:
        target = f"{self.base}/{fragment}"
        # The same fragment again is no navigation at all: reload to see the screen afresh.
        self.page.reload() if self.page.url == target else self.page.goto(target)

    def clean(self) -> None:
        # Chromium logs every refused fetch. A 409 is the API's "a neighbour moved first" in a
        # simultaneous phase, which the page answers by re-posting on the new version: expected.
        errors = [e for e in self.errors if "status of 409" not in e]
        assert not errors, f"{self.name}'s console: {errors}"
        assert not self.foreign, f"{self.name}'s page asked outside the API and static files: {self.foreign}"
        # The page it ends on (a finished game's result, mostly) is checked too.
        self.audit()
        assert not self.inaccessible, f"axe-core on {self.name}'s pages: {self.inaccessible}"


@pytest.fixture
def players(web, browser):
    """players("ann", "ben"): each one registers through the page, in a context of their own."""
    contexts, made = [], []

    def make(*names: str, register: bool = True) -> list[Player]:
        out = []
        for name in names:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(20_000)
            player = Player(name, page, web.url)

            def console(message, player=player):
                if message.type == "error":
                    player.errors.append(message.text)

            def request(req, player=player):
                parts = urlsplit(req.url)
                if parts.scheme in ("data", "blob"):
                    return
                if f"{parts.scheme}://{parts.netloc}" != web.url or not ALLOWED.match(parts.path):
                    player.foreign.append(req.url)

            page.on("console", console)
            page.on("pageerror", lambda error, player=player: player.errors.append(str(error)))
            page.on("request", request)
            if register:
                signup(player)
            out.append(player)
            made.append(player)
        return out

    yield make
    for context in contexts:
        context.close()


def signup(player: Player) -> None:
    page = player.page
    player.goto("#/login")
    form = page.get_by_role("form", name="Register")
    form.get_by_label("User name").fill(player.name)
    form.get_by_label("Password", exact=True).fill(f"{player.name}-Kodachrome-64")
    form.get_by_role("button", name="Register").click()
    page.locator("h1:text-is('Lobby'), #flash .error").first.wait_for()
    assert page.get_by_role("heading", name="Lobby").count(), page.locator("#flash").inner_text()
    player.token = page.evaluate("localStorage.getItem('darkroom.token')")


@pytest.fixture
def shoot(request):
    """shoot(player, "moment"): a screenshot in tests/web/artifacts/<test>/ (gitignored)."""
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    folder.mkdir(parents=True, exist_ok=True)

    def take(player: Player, moment: str) -> Path:
        path = folder / f"{moment}-{player.name}.png"
        player.page.screenshot(path=str(path), full_page=True)
        return path

    return take
