"""Everything the API offers, reachable from the page: a join link, open seeks, settings
(vacation, notifications, webhooks, devices), profiles, leaderboards, rules, my games, filing a
dispute; axe-core finds no violation on any of these pages."""

import httpx

from tests.web.driver import create_form
from tests.web.pages import Seat, axe_violations, game, play
from tests.loopback import TLS


def api(web, player, path):
    return httpx.get(
        f"{web.url}/api/v1{path}", headers={"Authorization": f"Token {player.token}"}, timeout=30, verify=TLS
    ).json()


def no_axe(page, where):
    found = axe_violations(page)
    assert not found, f"{where}: {found}"


def test_a_friend_joins_by_link_and_open_seeks_are_joined_from_the_lobby(players, web):
    ann, bob = players("ann", "bob")
    page = ann.page
    form = create_form(page, "photograph")
    form.get_by_label("private (invitation or link only)").check()
    form.get_by_role("button", name="Create a Photograph game").click()
    page.locator("[data-status=open]").wait_for()
    no_axe(page, "an open game with its join link")
    link = page.get_by_label("Invite a friend with this link").input_value()
    assert "#/join/" in link
    bob.page.goto(link)
    # Bob takes the last seat: the game starts itself (the create form's default), for both.
    bob.page.locator("[data-status=active]").wait_for()
    page.locator("[data-status=active]").wait_for()
    no_axe(bob.page, "a join link followed")
    before = len(bob.errors)
    bob.goto("#/join/no-such-code")
    bob.page.get_by_role("heading", name="This link does not open a game").wait_for()
    no_axe(bob.page, "a dead join link")
    # The refused join (404) is the page's own question: the one console line it may leave.
    bob.errors[before:] = [e for e in bob.errors[before:] if "status of 404" not in e]
    # An open seek by someone else, joined from the lobby's list.
    cat = Seat(web, "cat")
    seek = cat.post("/games/", {"kind": "pickpic", "seats": 3})
    ann.goto("#/")
    row = page.locator(f"li[data-seek='{seek['id']}']")
    row.get_by_role("button", name="Join").click()
    page.locator(".lobby-actions").get_by_role("button", name="Leave").wait_for()
    assert "ann" in [p["username"] for p in api(web, ann, f"/games/{seek['id']}/")["players"]]
    ann.clean()
    bob.clean()


def test_settings_profile_leaderboard_rules_and_a_dispute(players, web):
    (ann,) = players("ann")
    page = ann.page
    me = Seat.__new__(Seat)
    me.token, me.client = (
        ann.token,
        httpx.Client(
            base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {ann.token}"}, timeout=30, verify=TLS
        ),
    )
    bob, cat = Seat(web, "bob"), Seat(web, "cat")
    finished = game("pickpic", [me, bob, cat], {"target": 2})
    play(finished, [me, bob, cat], 60)
    # Settings: a vacation, a notification channel off, a webhook, this device among the tokens.
    ann.goto("#/settings")
    page.get_by_role("heading", name="Settings").wait_for()
    no_axe(page, "settings")
    assert page.locator("tr", has_text="(this device)").count() == 1
    # Only the channels that are set up: no email address, no webhook, no push yet.
    channels = page.get_by_role("region", name="News by channel")
    assert channels.locator("thead th").all_inner_texts() == ["News", "Inbox"]
    page.get_by_label("A chat message: Inbox").uncheck()
    page.get_by_role("button", name="Save notification settings").click()
    page.get_by_text("Notification settings saved.").wait_for()
    kept = api(web, ann, "/accounts/preferences/")["channels"]["chat"]
    assert "inbox" not in kept and "email" in kept  # a hidden channel keeps its setting
    page.get_by_label("Days away").fill("3")
    page.get_by_role("button", name="Start a vacation").click()
    page.get_by_text("You are on vacation until").wait_for()
    assert api(web, ann, "/accounts/vacation/")["on_vacation"] is True
    page.get_by_role("button", name="End my vacation now").click()
    page.get_by_role("button", name="Start a vacation").wait_for()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_label("Address").fill("http://127.0.0.1:9/darkroom-hook")
    page.get_by_role("button", name="Add a webhook").click()
    page.get_by_text("http://127.0.0.1:9/darkroom-hook").wait_for()
    assert page.get_by_role("region", name="News by channel").locator("thead th").all_inner_texts() == [
        "News",
        "Inbox",
        "Webhook",
    ]
    # The profile and the leaderboard show the finished game's ratings.
    page.get_by_role("link", name="ann", exact=True).first.click()
    page.locator("tr[data-kind=pickpic]").wait_for()
    # A rating graph (a drawn line, a point per rated game and the one before), and the games.
    chart = page.locator("figure.rating-chart[data-kind=pickpic]")
    assert chart.locator("svg path").count() == 1 and chart.locator("svg circle").count() == 2
    assert "Pick Pic rating: from" in chart.locator("svg").get_attribute("aria-label")
    row = page.locator(f"ul.profile-games li[data-game='{finished}']")
    assert row.locator(".standing").inner_text() in ("Won", "Lost", "Shared the win")
    no_axe(page, "a profile")
    # A name nobody has says so, instead of loading for ever.
    ann.goto("#/players/nobody-by-this-name")
    page.get_by_role("heading", name="No such player").wait_for()
    assert "nobody-by-this-name" in page.locator("main").inner_text()
    no_axe(page, "an unknown profile")
    ann.errors[:] = [e for e in ann.errors if "status of 404" not in e]  # the profile asked for, on purpose
    ann.goto("#/players/ann")
    page.locator("tr[data-kind=pickpic]").wait_for()
    page.get_by_role("link", name="Leaderboards").click()
    page.get_by_role("link", name="Pick Pic", exact=True).click()
    for name in ("ann", "bob", "cat"):
        page.locator(f"tr[data-player={name}]").wait_for()
    no_axe(page, "a leaderboard")
    # Rules, one page per kind.
    for kind, title in (
        ("pickpic", "Pick Pic"),
        ("photograph", "Photograph"),
        ("provence", "Walking in Provence"),
        ("photoshoot", "Photoshoot"),
    ):
        ann.goto(f"#/rules/{kind}")
        page.get_by_role("heading", name=f"How to play {title}").wait_for()
        assert page.locator("ol.rules li").count() >= 4
        no_axe(page, f"the rules of {title}")
    # My games: the finished game among them.
    page.get_by_role("link", name="My games").click()
    page.locator(f"li[data-game='{finished}']").wait_for()
    no_axe(page, "my games")
    # A dispute about the last move of the finished game.
    ann.goto(f"#/games/{finished}")
    page.locator(".result").wait_for()
    page.get_by_text("File a dispute").first.click()
    page.get_by_label("What went wrong").fill("The evaluation gave me no point for my top card.")
    page.get_by_role("button", name="File the dispute").click()
    page.get_by_text("Dispute filed").wait_for()
    no_axe(page, "a finished game")
    ann.clean()
