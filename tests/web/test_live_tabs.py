"""One live connection per browser: a browser allows six connections to a site over HTTP/1.1,
so the tabs share one stream (the user stream, carrying every game a tab shows): held by a
SharedWorker, or by one tab elected over Web Locks where there is none. Ten game tabs, one
stream, every tab live; a move made in one tab drawn in the others and in the opponent's browser."""

import random
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.realtime import channels
from tests.web.driver import take_turn
from tests.web.pages import Seat, game, open_page


class Tab:
    """A game page in a tab, as the driver's helpers take a player."""

    def __init__(self, name, page):
        self.name, self.page = name, page

    def audit(self):
        pass


def open_streams(seat: Seat) -> int:
    """The user streams open now for `seat`'s user: each keeps a key in Redis while it is open."""
    user = seat.get("/accounts/me/")["id"]
    return sum(
        channels.client().hget(name, "user") == str(user).encode()
        for name in channels.client().scan_iter(match=channels.stream_key("*"))
    )


def drawn(page, seq: int) -> None:
    """The page's move log shows event `seq`, with no reload."""
    try:
        page.wait_for_function(
            "seq => !!document.querySelector(`#log li[data-seq='${seq}'], li[data-seq='${seq}']`)",
            arg=seq,
            timeout=60_000,
        )  # a bound on a busy machine, not a timing
    except PlaywrightTimeoutError:
        shown = page.evaluate("[...document.querySelectorAll('li[data-seq]')].map((li) => Number(li.dataset.seq))")
        raise AssertionError(
            f"event {seq} not drawn within 60 s in the tab of {page.url}; its log shows {shown}"
        ) from None


def eventually(check, what: str, seconds: float = 30) -> None:
    """`check()` holds within `seconds` (a bound on a busy machine, not a timing), else `what` was not seen."""
    until = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < until, f"not seen within {seconds:.0f} s: {what}"
        time.sleep(0.2)


def mover(seats, game_id):
    return next(s for s in seats if s.get(f"/games/{game_id}/")["your_turn"])


def move_by_api(seats, game_id) -> int:
    seat = mover(seats, game_id)
    legal = seat.get(f"/games/{game_id}/legal-moves/")
    return seat.post(f"/games/{game_id}/moves/", {"move": legal["moves"][0], "expected_version": legal["version"]})[
        "version"
    ]


def ten_tabs(browser, web, ann, games, without_shared_worker=False):
    """Ten tabs of `ann`'s, the first game in two; and the stream requests each tab made itself
    (tab, address): from its first page load on without a SharedWorker, else once all are open."""
    context, first, errors = open_page(
        browser, web, ann, f"#/games/{games[0]}", {"width": 1280, "height": 800}, "[data-status]"
    )
    asked = []

    def watch(page):
        page.on("request", lambda request: asked.append((page, request.url)) if "stream" in request.url else None)

    if without_shared_worker:  # as Safari on an iPhone: no SharedWorker
        context.add_init_script("delete window.SharedWorker")
        watch(first)
        first.reload()
        first.locator("[data-status]").wait_for()
    pages = [first]
    for game_id in [games[0], *games[1:9]]:  # the first game in two tabs
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        if without_shared_worker:
            watch(page)
        page.goto(f"{web.url}/#/games/{game_id}")
        page.locator("[data-status]").wait_for()
        pages.append(page)
    if not without_shared_worker:
        for page in pages:
            watch(page)
    return context, pages, errors, asked


def holders(tabs, asked) -> list[int]:
    """The tabs (by place) that opened a user stream themselves (GET /stream/)."""
    return sorted({tabs.index(page) for page, url in asked if "/api/v1/stream/?" in url})


def test_ten_game_tabs_share_one_live_connection_and_every_tab_is_live(web, browser):
    ann, bob = Seat(web, "ann"), Seat(web, "bob")
    games = [game("photograph", [ann, bob]) for _ in range(9)]
    if not ann.get(f"/games/{games[0]}/")["your_turn"]:
        move_by_api([ann, bob], games[0])  # bob's take and wind: ann's turn
        move_by_api([ann, bob], games[0])
    assert ann.get(f"/games/{games[0]}/")["your_turn"]
    context, tabs, errors, asked = ten_tabs(browser, web, ann, games)
    assert tabs[0].evaluate("typeof SharedWorker") == "function"
    opponent, bobs, bob_errors = open_page(
        browser, web, bob, f"#/games/{games[0]}", {"width": 1280, "height": 800}, "[data-status]"
    )
    try:
        assert len(tabs) == 10
        # A move made in the first tab, by clicking: drawn in the other tab of that game and in bob's browser.
        take_turn(Tab("ann", tabs[0]), random.Random(3))
        version = ann.get(f"/games/{games[0]}/")["version"]
        for page in (tabs[1], bobs):
            drawn(page, version)
        # Every other tab is live: a move in its game is drawn there without a reload.
        for page, game_id in zip(tabs[2:], games[1:]):
            drawn(page, move_by_api([ann, bob], game_id))
        assert open_streams(ann) == 1  # one live connection for the ten tabs
        assert asked == [], asked  # no tab opened a stream of its own: the worker holds it
    finally:
        context.close()
        opponent.close()
    assert not errors and not bob_errors, errors + bob_errors


def test_without_a_shared_worker_one_tab_holds_the_stream_and_another_takes_over_when_it_closes(web, browser):
    ann, bob = Seat(web, "ann"), Seat(web, "bob")
    games = [game("photograph", [ann, bob]) for _ in range(9)]
    context, tabs, errors, asked = ten_tabs(browser, web, ann, games, without_shared_worker=True)
    try:
        assert tabs[1].evaluate("typeof SharedWorker") == "undefined"
        for page, game_id in zip(tabs[2:5], games[1:4]):
            drawn(page, move_by_api([ann, bob], game_id))
        assert open_streams(ann) == 1
        first = holders(tabs, asked)
        assert len(first) == 1, f"tabs that opened a stream of their own: {first}"
        holder = tabs[first[0]]
        holder.close()  # the elected tab goes: the next in line takes the stream over
        left = [p for p in tabs if not p.is_closed()]
        # A move made at once, while the next tab opens its stream: drawn all the same.
        version = move_by_api([ann, bob], games[0])
        drawn(next(p for p in left if f"/games/{games[0]}" in p.url), version)
        assert len(holders(tabs, asked)) == 2, (
            f"tabs that opened a stream (the closed one, then the next in line): {holders(tabs, asked)}"
        )
        for page, game_id in zip(left[-3:], games[-3:]):
            drawn(page, move_by_api([ann, bob], game_id))
        eventually(lambda: open_streams(ann) == 1, "the closed tab's stream ended: one stream left for the nine tabs")
    finally:
        context.close()
    assert not errors, errors
