"""The shell: register, log in again, the lobby lists every kind, inbox and my games load; a
refused request shows the server's own `detail`."""
import httpx
from tests.loopback import TLS


def test_register_log_out_and_log_in_again_then_every_screen_loads(players, web, shoot):
    (ann,) = players("ann")
    page = ann.page
    kinds = httpx.get(f"{web.url}/api/v1/kinds/", verify=TLS).json()
    for kind in (kinds.get("results", kinds) if isinstance(kinds, dict) else kinds):
        assert page.locator(f"form[data-kind={kind['kind']}]").count() == 1
    shoot(ann, "lobby")
    page.get_by_role("button", name="Log out").click()
    form = page.get_by_role("form", name="Log in")
    form.get_by_label("User name").fill("ann")
    form.get_by_label("Password").fill("wrong")
    form.get_by_role("button", name="Log in").click()
    detail = httpx.post(f"{web.url}/api/v1/accounts/token/", json={"username": "ann", "password": "wrong"}, verify=TLS).json()["detail"]
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
