"""Sessions and signals: the device name sent at log-in, a revoked session sends the player to log
in and back where they were, a missing game is not followed for ever, the unread badge, the turn
in the tab title and as a browser notification, my games following the user stream."""
import uuid

from tests.web.pages import Seat, game, open_page


def tokens_of(web, name: str, password: str) -> list[dict]:
    import httpx
    token = httpx.post(f"{web.url}/api/v1/accounts/token/", json={"username": name, "password": password,
                                                                   "device": "test-inspector"}).json()["token"]
    return httpx.get(f"{web.url}/api/v1/accounts/tokens/", headers={"Authorization": f"Token {token}"}).json()


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
    httpx.post(f"{web.url}/api/v1/accounts/logout/", headers={"Authorization": f"Token {ann.token}"})
    page.get_by_role("form", name="Log in").wait_for()      # the lobby poll's 401 brings the log-in page
    page.get_by_role("alert").get_by_text("session has ended").wait_for()
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("User name").fill("ann")
    form.get_by_label("Password").fill("ann-Kodachrome-64")
    form.get_by_role("button", name="Log in").click()
    page.locator("[data-status=open]").wait_for()
    assert page.evaluate("location.hash") == f"#/games/{made['id']}"
    # The same install logs in under the same device name: one entry per device, not per log-in.
    assert page.evaluate("localStorage.getItem('darkroom.device')") == device
    ann.errors[:] = [e for e in ann.errors if "401" not in e]   # the refused requests, on purpose
    ann.clean()


def test_a_missing_game_says_so_and_is_not_followed(web, browser):
    ann = Seat(web, "ann")
    missing = str(uuid.uuid4())
    context, page, errors = open_page(browser, web, ann, f"#/games/{missing}", {"width": 1280, "height": 800},
                                      ready="text=No such game")
    asked = []
    page.on("request", lambda request: asked.append(request.url) if missing in request.url or "stream-tickets" in request.url else None)
    page.wait_for_timeout(6000)   # the old page asked for a ticket and a stream every 2 s, for ever
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
    page.locator(f"li[data-game='{made['id']}'] .status").get_by_text("open").wait_for()   # no reload: the stream
    bob.post(f"/games/{made['id']}/join/")
    ann.post(f"/games/{made['id']}/start/")
    playing = next(s for s in (ann, bob) if s.get(f"/games/{made['id']}/")["your_turn"])
    if playing is bob:   # make it ann's turn: bob plays a take and a wind
        for _ in range(2):
            legal = bob.get(f"/games/{made['id']}/legal-moves/")
            bob.post(f"/games/{made['id']}/moves/", {"move": legal["moves"][0], "expected_version": legal["version"]})
    page.locator(f"li[data-game='{made['id']}'].your-turn").wait_for()
    page.wait_for_function("() => document.title.startsWith('(1) Your turn')")
    assert page.evaluate("window.shown") == [["Your turn", "Photograph: it is your move."]]
    unread = ann.get("/notifications/unread-count/")["unread"]
    if unread:
        page.wait_for_function("n => document.getElementById('unread').textContent === String(n)", arg=unread)
    # From the inbox, the badge goes when all is read.
    page.goto(f"{web.url}/#/inbox")
    page.get_by_role("heading", name="Inbox").wait_for()
    assert page.locator("#unread").inner_text() == (str(unread) if unread else "")
    context.close()
    assert not errors
