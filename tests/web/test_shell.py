"""The shell: register, log in again, the lobby lists every kind, inbox and my games load; a
refused request shows the server's own `detail`."""

import httpx
from tests.loopback import TLS


def test_register_log_out_and_log_in_again_then_every_screen_loads(players, web, shoot):
    (ann,) = players("ann")
    page = ann.page
    kinds = httpx.get(f"{web.url}/api/v1/kinds/", verify=TLS).json()
    for kind in kinds.get("results", kinds) if isinstance(kinds, dict) else kinds:
        box = page.locator(f"article.kind-box[data-kind={kind['kind']}]")
        assert (
            box.locator("form.create").count() == 1 and box.get_by_role("button", name="Play the computer").count() == 1
        )
    shoot(ann, "lobby")
    page.get_by_role("button", name="Log out").click()
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("User name").fill("ann")
    form.get_by_label("Password").fill("wrong")
    form.get_by_role("button", name="Log in").click()
    detail = httpx.post(
        f"{web.url}/api/v1/accounts/token/", json={"username": "ann", "password": "wrong"}, verify=TLS
    ).json()["detail"]
    page.get_by_role("alert").get_by_text(detail).wait_for()
    form.get_by_label("Password").fill("ann-Kodachrome-64")
    form.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="Lobby").wait_for()
    page.get_by_role("link", name="My games").click()
    page.get_by_role("heading", name="My games").wait_for()
    page.get_by_role("link", name="Inbox").click()
    page.get_by_role("heading", name="Inbox (0 unread)").wait_for()
    ann.errors[:] = [e for e in ann.errors if "400" not in e]  # the refused log-in, on purpose
    ann.clean()


def test_a_screen_still_loading_when_the_player_moves_on_never_draws_over_the_next(players, web):
    """The front page waits on the list of games; the visitor logs in and opens the inbox before
    that answer comes. When it comes, the inbox stays: the late answer draws nowhere."""
    (ann,) = players("ann")
    token = ann.page.evaluate("localStorage.getItem('darkroom.token')")
    (visitor,) = players("visitor", register=False)
    page = visitor.page
    held = []
    page.route("**/api/v1/kinds/**", lambda route: held.append(route))
    visitor.goto("#/")
    page.wait_for_function("document.querySelector('main p.loading') !== null")
    while not held:
        page.wait_for_timeout(50)
    page.evaluate("(token) => localStorage.setItem('darkroom.token', token)", token)
    page.evaluate("location.hash = '#/inbox'")
    page.get_by_role("heading", name="Inbox (0 unread)").wait_for()
    for route in held:
        route.continue_()
    page.unroute("**/api/v1/kinds/**")
    # The front page's answer has come and gone: it is drawn nowhere.
    page.wait_for_timeout(1000)
    assert page.get_by_role("heading", name="Inbox (0 unread)").is_visible()
    assert page.locator("#play-now").count() == 0 and page.locator("main .loading").count() == 0
    assert page.evaluate("document.querySelector('main').getAttribute('aria-busy')") is None
    visitor.clean()
