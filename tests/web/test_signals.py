"""Sessions and signals: the device name sent at log-in, a revoked session sends the player to log
in and back where they were, a missing game is not followed for ever, the unread badge, the turn
in the tab title and as a browser notification, my games and the lobby following the user stream."""

import uuid

import pytest

from tests.web.pages import Seat, game, open_page
from tests.loopback import TLS

pytestmark = pytest.mark.notifications  # a turn shown as a browser notification


def tokens_of(web, name: str, password: str) -> list[dict]:
    import httpx

    token = httpx.post(
        f"{web.url}/api/v1/accounts/token/",
        json={"username": name, "password": password, "device": "test-inspector"},
        verify=TLS,
    ).json()["token"]
    return httpx.get(
        f"{web.url}/api/v1/accounts/tokens/", headers={"Authorization": f"Token {token}"}, verify=TLS
    ).json()


def test_the_page_names_its_device_and_a_revoked_session_logs_in_again_back_where_it_was(players, web):
    (ann,) = players("ann")
    bob = Seat(web, "bob")
    page = ann.page
    device = page.evaluate("localStorage.getItem('darkroom.device')")
    assert device, "no device id kept by the install"
    names = [t["device"] for t in tokens_of(web, "ann", "ann-Kodachrome-64")]
    assert any(device in n for n in names), names
    made = bob.post("/games/", {"kind": "photograph", "seats": 2})
    ann.goto(f"#/games/{made['id']}")
    page.locator("[data-status=open]").wait_for()
    # The session ends on the server (this device's token revoked, as a log-out elsewhere would).
    import httpx

    httpx.post(f"{web.url}/api/v1/accounts/logout/", headers={"Authorization": f"Token {ann.token}"}, verify=TLS)
    page.get_by_role("form", name="Log in").wait_for()  # the lobby poll's 401 brings the log-in page
    page.get_by_role("alert").get_by_text("session has ended").wait_for()
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("User name").fill("ann")
    form.get_by_label("Password").fill("ann-Kodachrome-64")
    form.get_by_role("button", name="Log in").click()
    page.locator("[data-status=open]").wait_for()
    assert page.evaluate("location.hash") == f"#/games/{made['id']}"
    # The same install logs in under the same device name: one entry per device, not per log-in.
    assert page.evaluate("localStorage.getItem('darkroom.device')") == device
    ann.errors[:] = [e for e in ann.errors if "401" not in e]  # the refused requests, on purpose
    ann.clean()


def test_a_missing_game_says_so_and_is_not_followed(web, browser):
    ann = Seat(web, "ann")
    missing = str(uuid.uuid4())
    context, page, errors = open_page(
        browser, web, ann, f"#/games/{missing}", {"width": 1280, "height": 800}, ready="text=No such game"
    )
    asked = []
    page.on(
        "request",
        lambda request: (
            asked.append(request.url) if missing in request.url or "stream-tickets" in request.url else None
        ),
    )
    page.wait_for_timeout(6000)  # the old page asked for a ticket and a stream every 2 s, for ever
    context.close()
    assert not errors
    assert asked == [], asked


def test_badge_title_notification_and_my_games_follow_the_user_stream(web, browser):
    ann, bob = Seat(web, "ann"), Seat(web, "bob")
    context, page, errors = open_page(browser, web, ann, "#/mine", {"width": 1280, "height": 800})
    # A browser notification is shown only when the tab is hidden and the player allowed it.
    context.grant_permissions(["notifications"])
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        window.shown = [];
        const Real = window.Notification;
        window.Notification = class extends Real { constructor(title, options) { super(title, options); window.shown.push([title, options.body]); } };
    }""")
    made = ann.post("/games/", {"kind": "photograph", "seats": 2})
    page.locator(f"li[data-game='{made['id']}'] .standing").get_by_text(
        "Waiting for 1 more player"
    ).wait_for()  # no reload: the stream
    bob.post(f"/games/{made['id']}/join/")
    ann.post(f"/games/{made['id']}/start/")
    playing = next(s for s in (ann, bob) if s.get(f"/games/{made['id']}/")["your_turn"])
    if playing is bob:  # make it ann's turn: bob plays a take and a wind
        for _ in range(2):
            legal = bob.get(f"/games/{made['id']}/legal-moves/")
            bob.post(f"/games/{made['id']}/moves/", {"move": legal["moves"][0], "expected_version": legal["version"]})
    page.locator(f"li[data-game='{made['id']}'].your-turn").wait_for()
    page.wait_for_function("() => document.title.startsWith('(1) Your turn')")
    assert page.evaluate("window.shown") == [["Your turn", "Photograph: it is your move."]]
    # An unread notice for certain: ann's own reads of the game above may have read her turn
    # notice, but bob's chat line is news she has not seen. The badge counts it without a reload.
    bob.post(f"/games/{made['id']}/chat/", {"channel": "players", "text": "Good luck!"})
    unread = ann.get("/notifications/unread-count/")["unread"]
    assert unread >= 1
    page.wait_for_function("n => document.getElementById('unread').textContent === String(n)", arg=unread)
    assert page.locator("#unread").get_attribute("aria-label") == f"{unread} unread"
    # From the inbox, the badge goes when all is read.
    page.goto(f"{web.url}/#/inbox")
    page.get_by_role("heading", name=f"Inbox ({unread} unread)").wait_for()
    # The page's bar is drawn anew with each page and asks for its count: wait for the answer.
    page.wait_for_function("n => document.getElementById('unread').textContent === String(n)", arg=unread)
    page.get_by_role("button", name="Mark all read").click()
    page.get_by_role("heading", name="Inbox (0 unread)").wait_for()
    page.wait_for_function("() => document.getElementById('unread').textContent === ''")
    assert ann.get("/notifications/unread-count/")["unread"] == 0
    context.close()
    assert not errors


def test_the_lobby_follows_the_user_stream_and_shows_other_players_new_games_without_a_reload(web, browser):
    ann, bob = Seat(web, "ann"), Seat(web, "bob")
    playing = game("photograph", [ann, bob])
    if ann.get(f"/games/{playing}/")["your_turn"]:  # make it bob's turn: ann plays a take and a wind
        play_turn(ann, playing)
    context, page, errors = open_page(browser, web, ann, "#/", {"width": 1280, "height": 800}, "article.kind-box")
    page.evaluate("window.sameDocument = true")  # gone if the page were ever reloaded
    row = page.get_by_role("region", name="Your games").locator(f"li[data-game='{playing}']")
    row.wait_for()
    assert "your-turn" not in row.get_attribute("class")
    # Bob's move makes it ann's turn: her user stream says so at once, well before the lobby's
    # own look every 15 s, and her lobby marks the game without a reload.
    play_turn(bob, playing)
    page.get_by_role("region", name="Your games").locator(f"li[data-game='{playing}'].your-turn").wait_for(
        timeout=10_000
    )
    assert "Your turn" in row.inner_text()
    # Someone else's new game is no news of ann's: the lobby's next look shows it, with a Join.
    made = bob.post("/games/", {"kind": "pickpic", "seats": 3})
    opened = page.get_by_role("region", name="Open seeks").locator(f"li[data-seek='{made['id']}']")
    opened.get_by_role("button", name="Join").wait_for(timeout=30_000)
    assert page.evaluate("window.sameDocument === true")
    context.close()
    assert not errors


def play_turn(seat: Seat, game_id: str) -> None:
    """A Photograph turn through the API: the first legal take, then the first legal wind."""
    for _ in range(2):
        legal = seat.get(f"/games/{game_id}/legal-moves/")
        seat.post(f"/games/{game_id}/moves/", {"move": legal["moves"][0], "expected_version": legal["version"]})
