"""Push in Chromium: the service worker registers at /sw.js with the root scope, and the settings
page's "Turn on" creates a subscription and registers it with the server; "Turn off" removes it.

What this covers: the page, the worker's registration and scope, the VAPID key handed to
PushManager.subscribe, and the API calls; then the worker itself: the notification it shows for
a push (delivered by Chromium's DevTools protocol) and where a click on it leads. What it cannot:
headless Chromium here reaches no browser vendor's push service, so PushManager.subscribe is
replaced (in the page, before it loads) by one that returns a subscription whose keys this test
generated, with an endpoint on a push service of the test's own; the vendor delivering to the
worker is not exercised (tests/games/test_push.py covers the server's side of the delivery,
decrypting it with these same kinds of keys). Nor is a window opened or focused by a click:
Chromium allows that only for a click a person made (docs/time-and-notifications.md)."""

import json

import httpx
import pytest

from tests.games.test_push import VAPID, Browser, PushService
from tests.live_server import Server
from tests.web.conftest import launched_chromium
from tests.loopback import TLS


@pytest.fixture(scope="module")
def web(django_db_setup, django_db_blocker):
    """The web client's server, with a VAPID key pair: the page asks for its public key."""
    with django_db_blocker.unblock():
        server = Server(DJANGO_ALLOW_ASYNC_UNSAFE="", **VAPID).start()
    yield server
    server.stop()


@pytest.fixture
def browser():
    """A Chromium of each test's own. Now and then, on a busy machine, a Chromium here leaves its
    service workers unanswered: `getRegistration` never settles, or a push delivered through the
    DevTools protocol shows nothing; when the browser was the module's, both tests below failed
    in it. So each test gets a browser of its own, and the tests that need its service workers run
    once more, in a new one, after such a failure (`flaky`, pytest-rerunfailures): a worker or
    page that is wrong fails both runs."""
    with launched_chromium(notifications=True) as chromium:
        yield chromium


# A failure of the browser's service workers, not of ours, looks like one of these: a wait
# for the page's answer that ran out, or a push that showed no notification.
BROWSER_HANG = pytest.mark.flaky(reruns=1, only_rerun=["TimeoutError", "AssertionError: assert \\[\\]"])


STUB = """
(() => {
  const fake = %s;
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__pushOptions = { userVisibleOnly: options.userVisibleOnly,
                             key: btoa(String.fromCharCode(...key)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "") };
    current = {
      endpoint: fake.endpoint,
      toJSON() { return { endpoint: fake.endpoint, expirationTime: null, keys: fake.keys }; },
      async unsubscribe() { current = null; return true; },
    };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""


@BROWSER_HANG
def test_the_worker_registers_at_the_root_and_turning_push_on_and_off_registers_the_browser(players, web, shoot):
    service, browser_keys = PushService(), Browser()
    try:
        (ann,) = players("ann")
        page = ann.page
        endpoint = service.endpoint("ann")
        page.context.grant_permissions(["notifications"], origin=web.url)
        page.context.add_init_script(
            STUB
            % json.dumps({"endpoint": endpoint, "keys": {"p256dh": browser_keys.p256dh, "auth": browser_keys.auth}})
        )
        ann.goto("#/")  # a fresh load, so the stub is in place
        page.get_by_role("link", name="Settings").click()
        page.get_by_role("heading", name="Push on this browser").wait_for()
        page.get_by_text("This browser gets no push notifications.").wait_for()
        page.get_by_role("button", name="Turn on for this browser").click()
        page.get_by_text("This browser gets push notifications.").wait_for()
        shoot(ann, "push-on")
        worker = page.evaluate("""async () => {
            const r = await navigator.serviceWorker.getRegistration("/");
            return { scope: r.scope, script: (r.active || r.waiting || r.installing).scriptURL };
        }""")
        assert worker == {"scope": f"{web.url}/", "script": f"{web.url}/sw.js"}
        options = page.evaluate("window.__pushOptions")
        assert options == {"userVisibleOnly": True, "key": VAPID["VAPID_PUBLIC_KEY"]}
        headers = {"Authorization": f"Token {ann.token}"}
        listed = httpx.get(f"{web.url}/api/v1/push/subscriptions/", headers=headers, verify=TLS).json()
        assert [s["endpoint"] for s in listed] == [endpoint]
        page.get_by_role("button", name="Turn off on this browser").click()
        page.get_by_text("This browser gets no push notifications.").wait_for()
        assert httpx.get(f"{web.url}/api/v1/push/subscriptions/", headers=headers, verify=TLS).json() == []
        ann.clean()
    finally:
        service.close()


def test_quiet_hours_are_saved_from_the_settings_page(players, web):
    (ben,) = players("ben")
    page = ben.page
    page.get_by_role("link", name="Settings").click()
    form = page.locator("form#quiet-hours")
    form.locator("input[name=on]").check()
    form.locator("input[name=start]").fill("22:30")
    form.locator("input[name=end]").fill("07:15")
    form.locator("select[name=tz]").select_option("Europe/Paris")
    form.get_by_role("button", name="Save quiet hours").click()
    page.get_by_text("Quiet hours saved.").wait_for()
    prefs = httpx.get(
        f"{web.url}/api/v1/accounts/preferences/", headers={"Authorization": f"Token {ben.token}"}, verify=TLS
    ).json()
    assert prefs["quiet_hours"] == {"start": "22:30", "end": "07:15", "tz": "Europe/Paris"}
    ben.clean()


def test_a_confirmation_stays_until_the_next_screen_not_for_a_few_seconds(players, web):
    (cy,) = players("cy")
    page = cy.page
    page.get_by_role("link", name="Settings").click()
    page.locator("form#quiet-hours").get_by_role("button", name="Save quiet hours").click()
    saved = page.get_by_text("Quiet hours saved.")
    saved.wait_for()
    page.wait_for_timeout(6000)  # longer than the 4 s a confirmation used to last
    assert saved.is_visible(), "a confirmation on a timer may be gone before it is read"
    page.get_by_role("link", name="Lobby").click()
    saved.wait_for(state="detached")
    # The lobby drawn (its fetch answered) before axe-core reads it: not a screen half-changed.
    page.get_by_role("heading", name="Lobby").wait_for()
    cy.clean()


def eventually(page, check, seconds: float = 20):
    """`check()` once it is truthy, trying again for `seconds`; Playwright delivers the page's and
    the DevTools protocol's events while it waits, so the wait is the page's own."""
    for _ in range(int(seconds * 10)):
        found = check()
        if found:
            return found
        page.wait_for_timeout(100)
    return check()


def notifications_shown(page) -> list[dict]:
    return page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.getRegistration("/");
        return (await registration.getNotifications()).map(
            (n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }));
    }""")


@BROWSER_HANG
def test_a_push_shows_its_notice_and_a_click_on_it_opens_its_game_in_the_open_window(players, web):
    """Chromium delivers the push itself (its DevTools protocol's ServiceWorker.deliverPushMessage:
    the worker gets a real push event) and the worker shows it. No person can click a notification
    in headless Chromium, so the click is a NotificationEvent dispatched in the worker around the
    notification it showed; Chromium lets only a real click open or focus a window, so what this
    shows is the handler's choice of URL and of the window already open, which it navigates."""
    from games.models import Notification
    from games.notifications import push
    from tests.web.pages import Seat
    from tests.worker import wait_for

    (cy,) = players("cy")
    ann = Seat(web, "ann")
    page = cy.page
    game_id = ann.post("/games/", {"kind": "photograph", "seats": 2, "invite": ["cy"]})["id"]
    invited = Notification.objects.filter(user__username="cy", game_id=game_id, type="invitation")
    assert wait_for(invited.exists, timeout=20)
    payload = push.message(invited.get(), ["ann"])  # what the server pushes for it (games/notifications/push.py)
    page.context.grant_permissions(["notifications"], origin=web.url)
    page.evaluate("""async () => {
        await navigator.serviceWorker.register("/sw.js", { scope: "/" });
        await navigator.serviceWorker.ready;
    }""")
    page.wait_for_function("navigator.serviceWorker.controller !== null")  # the worker claimed the page
    # Chromium's own way in for a push (its DevTools protocol): the worker gets a real push event.
    cdp = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    ours = lambda: [r for r in registrations if r["scopeURL"] == f"{web.url}/" and not r["isDeleted"]]  # noqa: E731
    assert eventually(page, ours)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": web.url, "registrationId": ours()[0]["registrationId"], "data": json.dumps(payload)},
    )
    assert eventually(page, lambda: notifications_shown(page))
    assert notifications_shown(page) == [
        {"title": payload["title"], "body": payload["body"], "tag": payload["tag"], "url": f"/#/games/{game_id}"}
    ]
    # The click: the notice a person would click, dispatched in the worker.
    (worker,) = page.context.service_workers
    worker.evaluate("""async () => {
        const [notification] = await self.registration.getNotifications();
        self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
    }""")
    page.wait_for_url(f"{web.url}/#/games/{game_id}")
    page.locator("h1").first.wait_for()  # the game's screen
    assert notifications_shown(page) == []  # the click closed it
    cy.clean()
