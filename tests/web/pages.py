"""Games set up through the API (fast), then looked at in the browser as a person would: a page
opened with a player's token at a given screen size, and what the page gives a person measured
(the smallest text, the smallest control, sideways scrolling)."""
from __future__ import annotations

import random

import httpx

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


class Seat:
    """One user of the API: registered with a device name, their token in every request."""

    def __init__(self, web, name: str):
        self.name = name
        answer = httpx.post(f"{web.url}/api/v1/accounts/register/", timeout=30,
                            json={"username": name, "password": f"{name}-Kodachrome-64", "device": f"{name}-setup"})
        assert answer.status_code == 201, answer.text
        self.token = answer.json()["token"]
        self.client = httpx.Client(base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {self.token}"}, timeout=30)

    def get(self, path: str):
        answer = self.client.get(path)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def post(self, path: str, body=None):
        answer = self.client.post(path, json=body or {})
        assert answer.status_code in (200, 201, 204), answer.text
        return answer.json() if answer.content else None


def game(kind: str, seats: list[Seat], options: dict | None = None) -> str:
    """A game made, joined and started through the API: its id."""
    made = seats[0].post("/games/", {"kind": kind, "seats": len(seats), "options": options or {}})
    for seat in seats[1:]:
        seat.post(f"/games/{made['id']}/join/")
    seats[0].post(f"/games/{made['id']}/start/")
    return made["id"]


def play(game_id: str, seats: list[Seat], moves: int, seed: int = 7, only=None) -> None:
    """`moves` random legal moves (of the types in `only`, when given), in seat order."""
    rng = random.Random(seed)
    made = 0
    while made < moves:
        moved = False
        for seat in seats:
            answer = seat.client.get(f"/games/{game_id}/legal-moves/")
            if answer.status_code != 200:   # the game is over
                return
            legal = answer.json()
            options = [m for m in legal["moves"] if only is None or m.get("type") in only]
            if options and made < moves:
                answer = seat.client.post(f"/games/{game_id}/moves/", json={"move": rng.choice(options),
                                                                            "expected_version": legal["version"]})
                if answer.status_code in (200, 201):
                    made += 1
                    moved = True
        if not moved:
            return


def open_page(browser, web, seat: Seat | None, fragment: str, size: dict, ready: str = "main h1"):
    """A browser context at `size`, logged in as `seat` (its token in localStorage), on `fragment`."""
    context = browser.new_context(viewport=size)
    if seat is not None:
        context.add_init_script(f"localStorage.setItem('darkroom.token', {seat.token!r})")
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{web.url}/{fragment}")
    page.locator(ready).first.wait_for()
    page.wait_for_timeout(300)  # fonts and a second render (the table after the live stream's hello)
    return context, page, errors


MEASURE = """() => {
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const st = getComputedStyle(el);
    return st.visibility !== 'hidden' && st.display !== 'none' && !el.closest('[aria-hidden=true] svg.icon');
  };
  const fonts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('title, script, style, noscript, defs, option, .sr-only')) continue;
    if (!shown(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) { const m = el.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    fonts.push([Math.round(size * 10) / 10, node.textContent.trim().slice(0, 50)]);
  }
  const targets = [];
  const controls = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex="0"]';
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el)) continue;
    if (el.matches('a') && el.closest('p, td, li.prose')) continue;  // a link inside a sentence (WCAG 2.5.8's inline exception)
    const label = el.matches('input, select, textarea') && el.closest('label');
    const r = (label || el).getBoundingClientRect();
    targets.push([Math.round(Math.min(r.width, r.height)), (el.getAttribute('aria-label') || el.textContent || el.outerHTML).trim().slice(0, 60)]);
  }
  return { fonts, targets, scroll: document.documentElement.scrollWidth, width: window.innerWidth };
}"""


def measure(page) -> dict:
    """The smallest rendered text and control of the page, and whether it scrolls sideways."""
    found = page.evaluate(MEASURE)
    found["fonts"].sort()
    found["targets"].sort()
    return found


def axe_violations(page) -> list[str]:
    """axe-core's violations on the page as it is now (axe.min.js as the axe-playwright-python
    package bundles it), one line each: rule, impact, the first elements."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes'][:4]]}" for v in found]
