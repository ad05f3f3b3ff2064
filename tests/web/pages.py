"""Games set up through the API (fast), then looked at in the browser as a person would: a page
opened with a player's token at a given screen size, and what the page gives a person measured
(the smallest text, the smallest control, sideways scrolling)."""

from __future__ import annotations

import random

import httpx
from tests.loopback import TLS

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


class Seat:
    """One user of the API: registered with a device name, their token in every request."""

    def __init__(self, web, name: str):
        self.name = name
        answer = httpx.post(
            f"{web.url}/api/v1/accounts/register/",
            timeout=30,
            json={"username": name, "password": f"{name}-Kodachrome-64", "device": f"{name}-setup"},
            verify=TLS,
        )
        assert answer.status_code == 201, answer.text
        self.token = answer.json()["token"]
        self.client = httpx.Client(
            base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {self.token}"}, timeout=30, verify=TLS
        )

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
            if answer.status_code != 200:  # the game is over
                return
            legal = answer.json()
            options = [m for m in legal["moves"] if only is None or m.get("type") in only]
            if options and made < moves:
                answer = seat.client.post(
                    f"/games/{game_id}/moves/", json={"move": rng.choice(options), "expected_version": legal["version"]}
                )
                if answer.status_code in (200, 201):
                    made += 1
                    moved = True
        if not moved:
            return


def open_page(
    browser, web, seat: Seat | None, fragment: str, size: dict, ready: str = "main h1", language: str | None = None
):
    """A browser context at `size`, logged in as `seat` (its token in localStorage), on `fragment`;
    in `language` when given (the choice the language menu keeps), else the browser's (English)."""
    context = browser.new_context(viewport=size)
    if seat is not None:
        context.add_init_script(f"localStorage.setItem('darkroom.token', {seat.token!r})")
    if language is not None:
        context.add_init_script(f"localStorage.setItem('darkroom.language', {language!r})")
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


# Text drawn inside a picture (an SVG file shown by an SVG <image>, a Pick Pic card's art) is in
# no DOM the page has: MEASURE's walk of the document never meets it. Each picture is fetched and
# laid out at its own size in a shadow root (its <style> stays inside), and each of its texts is
# scaled as the page shows it: the text's own transforms, the picture's viewBox fitted into the
# <image> (preserveAspectRatio), then the <image>'s transform to the screen. Only the texts that
# show through the viewports around the <image> (a card cropped to its photograph) count.
PICTURES = """async () => {
  const pictured = [];
  const images = [...document.querySelectorAll('image')].filter((img) => {
    const r = img.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 && /\\.svg(\\?|#|$)/.test(img.href.baseVal);
  });
  if (!images.length) return { pictured, pictures: 0 };
  const host = document.createElement('div');
  host.style.cssText = 'position:fixed;left:-20000px;top:0;pointer-events:none';
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const pictures = new Map();
  const load = async (url) => {
    if (!pictures.has(url)) {
      const text = await (await fetch(url)).text();
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const root = document.importNode(doc.documentElement, true);
      const box = document.createElement('div');
      box.appendChild(root);
      shadow.appendChild(box);
      pictures.set(url, root);
    }
    return pictures.get(url);
  };
  const apply = (m, x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
  const screenClip = (img) => {
    // The viewports the <image> is drawn in: the outermost <svg>'s box, and each nested one's.
    let clip = null;
    for (let v = img.ownerSVGElement; v; v = v.ownerSVGElement) {
      let r;
      if (!v.ownerSVGElement) r = v.getBoundingClientRect();
      else {
        const m = v.parentNode.getScreenCTM(), x = v.x.baseVal.value, y = v.y.baseVal.value;
        const w = v.width.baseVal.value, h = v.height.baseVal.value;
        const pts = [[x, y], [x + w, y], [x, y + h], [x + w, y + h]].map(([px, py]) => apply(m, px, py));
        r = { left: Math.min(...pts.map((p) => p[0])), right: Math.max(...pts.map((p) => p[0])),
              top: Math.min(...pts.map((p) => p[1])), bottom: Math.max(...pts.map((p) => p[1])) };
      }
      clip = clip ? { left: Math.max(clip.left, r.left), right: Math.min(clip.right, r.right),
                      top: Math.max(clip.top, r.top), bottom: Math.min(clip.bottom, r.bottom) } : r;
    }
    return clip;
  };
  for (const img of images) {
    const url = new URL(img.href.baseVal, document.baseURI).href;
    let root;
    try { root = await load(url); } catch (error) { continue; }
    if (!(root instanceof SVGSVGElement)) continue;
    const vb = root.viewBox.baseVal;
    const [vx, vy, vw, vh] = vb && vb.width ? [vb.x, vb.y, vb.width, vb.height]
      : [0, 0, root.width.baseVal.value, root.height.baseVal.value];
    const ix = img.x.baseVal.value, iy = img.y.baseVal.value, iw = img.width.baseVal.value, ih = img.height.baseVal.value;
    const par = img.preserveAspectRatio.baseVal;   // align 1: none; meetOrSlice 2: slice
    let kx = iw / vw, ky = ih / vh;
    if (par.align !== 1) { const k = par.meetOrSlice === 2 ? Math.max(kx, ky) : Math.min(kx, ky); kx = ky = k; }
    const ax = par.align === 1 ? 0 : ((par.align - 2) % 3) / 2, ay = par.align === 1 ? 0 : Math.floor((par.align - 2) / 3) / 2;
    const ox = ix + (iw - vw * kx) * ax - vx * kx, oy = iy + (ih - vh * ky) * ay - vy * ky;
    const toScreen = img.getScreenCTM();
    const scale = Math.sqrt(Math.abs(toScreen.a * toScreen.d - toScreen.b * toScreen.c));
    const clip = screenClip(img);
    const rootCTM = root.getScreenCTM().inverse();
    for (const t of root.querySelectorAll('text')) {
      const words = t.textContent.trim();
      const st = getComputedStyle(t);
      if (!words || st.display === 'none' || st.visibility === 'hidden' || t.closest('defs, clipPath, mask, symbol')) continue;
      const inner = rootCTM.multiply(t.getScreenCTM());   // the text's units -> the picture's viewBox units
      const b = t.getBBox();
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
        .map(([x, y]) => apply(inner, x, y)).map(([x, y]) => apply(toScreen, ox + kx * x, oy + ky * y));
      const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
      if (clip && (Math.max(...xs) <= clip.left || Math.min(...xs) >= clip.right
                   || Math.max(...ys) <= clip.top || Math.min(...ys) >= clip.bottom)) continue;
      const size = parseFloat(st.fontSize) * Math.sqrt(Math.abs(inner.a * inner.d - inner.b * inner.c)) * Math.min(kx, ky) * scale;
      pictured.push([Math.round(size * 10) / 10, words.slice(0, 50), url.split('/').slice(-2).join('/')]);
    }
  }
  host.remove();
  return { pictured, pictures: pictures.size };
}"""


def measure(page) -> dict:
    """The smallest rendered text and control of the page, and whether it scrolls sideways; in
    `pictured`, the text drawn inside the pictures the page shows (`pictures` of them), at its
    size on the screen."""
    found = page.evaluate(MEASURE)
    found.update(page.evaluate(PICTURES))
    for key in ("fonts", "targets", "pictured"):
        found[key].sort()
    return found


def axe_violations(page) -> list[str]:
    """axe-core's violations on the page as it is now (axe.min.js as the axe-playwright-python
    package bundles it), one line each: rule, impact, the first elements."""
    from axe_playwright_python.sync_playwright import Axe

    # label-content-name-mismatch is among the current axe-core's (4.14) default rules but
    # experimental in the 4.12 this package bundles: turned on, the audit is today's.
    # A screen still loading (the router marks <main aria-busy>) is not the screen to judge.
    page.wait_for_selector("main:not([aria-busy])", state="attached")
    options = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}
    found = Axe().run(page, options=options).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes'][:4]]}" for v in found]
