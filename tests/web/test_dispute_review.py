"""The admin's dispute review: staff log in to the admin, open a dispute, and see the state at
the disputed event drawn by the players' own table (any seat's eyes) and what changed since the
event before, instead of raw JSON. Only staff reach it."""

from __future__ import annotations

import importlib
import os
import shutil
from pathlib import Path

import httpx
import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission

from games.models import Dispute, Event
from tests.live_server import Server
from tests.web.table_helpers import PATIENCE_MS, screenshots_on_failure
from tests.loopback import TLS

pytestmark = pytest.mark.django_db(transaction=True)


def played_provence(web) -> tuple[str, dict]:
    """Two players (through the API: the review, not the lobby, is under test here) place a card
    each; the second disputes the first's placement once it is revealed."""
    tokens = []
    for name in ("ann", "ben"):
        answer = httpx.post(
            f"{web.url}/api/v1/accounts/register/", json={"username": name, "password": f"pw-{name}-secret"}, verify=TLS
        )
        assert answer.status_code == 201, answer.text
        tokens.append(answer.json()["token"])
    ann, ben = (
        httpx.Client(base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {t}"}, timeout=30, verify=TLS)
        for t in tokens
    )
    game = ann.post("/games/", json={"kind": "provence", "seats": 2, "options": {}}).json()
    assert ben.post(f"/games/{game['id']}/join/").status_code == 200
    assert ann.post(f"/games/{game['id']}/start/").status_code == 200
    for client in (ann, ben):
        legal = client.get(f"/games/{game['id']}/legal-moves/").json()
        answer = client.post(
            f"/games/{game['id']}/moves/", json={"move": legal["moves"][0], "expected_version": legal["version"]}
        )
        assert answer.status_code in (200, 201), answer.text
    version = ann.get(f"/games/{game['id']}/").json()["version"]
    answer = ben.post(
        f"/games/{game['id']}/disputes/", json={"seq": version, "reason": "that card was not in her hand"}
    )
    assert answer.status_code == 201, answer.text
    return game["id"], answer.json()


def test_staff_review_a_dispute_drawn_with_the_table_and_a_diff(players, web, shoot):
    game_id, dispute = played_provence(web)
    get_user_model().objects.create_superuser("judge", "judge@example.org", "pw-judge-secret")
    (judge,) = players("judge", register=False)
    page = judge.page
    page.set_default_timeout(PATIENCE_MS)
    refused = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    with screenshots_on_failure(shoot, judge):
        page.goto(f"{web.url}/admin/login/?next=/admin/games/dispute/")
        judge.audit("admin log-in")
        page.fill("#id_username", "judge")
        page.fill("#id_password", "pw-judge-secret")
        page.locator("input[type=submit]").click()
        page.get_by_role("link", name=str(Dispute.objects.get().pk)).first.wait_for()
        judge.audit("admin dispute list")
        page.get_by_role("link", name=str(Dispute.objects.get().pk)).first.click()
        page.get_by_role("link", name="review: drawn, with changes").wait_for()
        judge.audit("admin dispute")
        page.get_by_role("link", name="review: drawn, with changes").click()
        page.locator(".review-after .landscape").first.wait_for()
        judge.audit("admin review")
        # The disputed event's state, drawn from seat 0's eyes: her landscape and her hand.
        assert page.locator(".review-after .landscape").count() == 2
        assert page.locator(".review-after .provence-summary").get_attribute("data-phase") == "walking"
        assert page.locator(".review-before .provence-summary").get_attribute("data-phase") == "scene"
        # What changed: both placements reached the landscapes, the phase moved on.
        changes = page.locator(".review-diff tbody tr")
        assert changes.count() > 0
        paths = changes.locator("td:first-child").all_inner_texts()
        assert "phase" in paths
        assert any(p.startswith("landscapes[0].cards[1]") for p in paths)
        assert any(p.startswith("landscapes[1].cards[1]") for p in paths)
        events = page.locator(".review-events li").all_inner_texts()
        assert any("ScenesPlaced" in e for e in events)
        # Any seat's eyes: seat 1 sees its own hand-derived panel, a spectator none.
        page.get_by_label("a spectator").check()
        page.locator(".review-after .landscape").first.wait_for()
        assert page.locator(".review-after .provence-hand").count() == 0
        judge.audit("admin review, a spectator's eyes")
        shoot(judge, "dispute-review")
        # A review of ben's own placement opens from his eyes, not seat 0's.
        bens = Event.objects.filter(game_id=game_id, actor=1).latest("seq").seq
        page.goto(f"{web.url}/admin/games/game/{game_id}/review/?from={bens - 1}&at={bens}")
        page.locator(".review-after .landscape").first.wait_for()
        assert page.get_by_label("seat 1 (ben)").is_checked()
        assert not page.get_by_label("seat 0 (ann)").is_checked()
    # Players are not staff: the review is the admin's alone.
    answer = httpx.get(f"{web.url}/admin/games/game/{game_id}/review/", follow_redirects=False, verify=TLS)
    assert answer.status_code == 302 and "/admin/login/" in answer.headers["location"]
    # The admin is no part of the client: its own pages and static files are allowed here. The
    # admin's pages name no icon, so Chromium asks for /favicon.ico (a request Playwright does
    # not report): that 404 alone is forgiven, any other refused request is not.
    assert not refused, refused
    assert not judge.inaccessible, f"axe-core on the admin's pages: {judge.inaccessible}"
    assert all("404" in e for e in judge.errors) and len(judge.errors) <= 1, judge.errors


def registered(web, *names) -> list[httpx.Client]:
    clients = []
    for name in names:
        answer = httpx.post(
            f"{web.url}/api/v1/accounts/register/", json={"username": name, "password": f"pw-{name}-secret"}, verify=TLS
        )
        assert answer.status_code == 201, answer.text
        clients.append(
            httpx.Client(
                base_url=f"{web.url}/api/v1",
                headers={"Authorization": f"Token {answer.json()['token']}"},
                timeout=30,
                verify=TLS,
            )
        )
    return clients


def first_legal_move(client, game_id):
    legal = client.get(f"/games/{game_id}/legal-moves/").json()
    answer = client.post(
        f"/games/{game_id}/moves/", json={"move": legal["moves"][0], "expected_version": legal["version"]}
    )
    assert answer.status_code in (200, 201), answer.text
    return client.get(f"/games/{game_id}/").json()["version"]


def published(name: str, shot: Path) -> None:
    """With DARKROOM_SCREENSHOTS=docs, a screenshot replaces docs/screenshots/<name>-desktop.png
    (operations.md shows the queue, a decision and what the players see; checked by eye)."""
    if os.environ.get("DARKROOM_SCREENSHOTS") == "docs":
        shutil.copy(shot, Path(__file__).resolve().parents[2] / "docs" / "screenshots" / f"{name}-desktop.png")


def in_the_reviewers_group(name: str):
    """A staff account in the shipped "Dispute reviewers" group, as the migration makes it (the
    browser tests' database is flushed between tests, the group with it)."""
    shipped = importlib.import_module("games.migrations.0011_dispute_review")
    group, _ = Group.objects.get_or_create(name=shipped.REVIEWERS)
    group.permissions.set(
        [
            Permission.objects.get(content_type__app_label=app, content_type__model=model, codename=code)
            for app, model, code in shipped.REVIEWER_PERMISSIONS
        ]
    )
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-secret", is_staff=True)
    user.groups.add(group)
    return user


@pytest.fixture
def fresh_web(web):
    """A server process of this test's own: the admin's history rows name their model by a content
    type, which every flush between tests recreates under a new id, while a long-lived server
    keeps the ids it cached when the first test ran."""
    server = Server(DJANGO_ALLOW_ASYNC_UNSAFE="", PGAPPNAME="darkroom-web-browser-test").start()
    yield server
    server.stop()


def test_a_reviewer_works_the_queue_and_decides_a_pickpic_give(players, fresh_web, shoot):
    """Three disputes in two games; a reviewer with only the group's permissions finds the queue on
    the index, narrows it, claims one, reviews the disputed give from the giver's seat (every hand
    drawn, the hand's change as one list change), and upholds it with a rollback."""
    ann, ben, cid = registered(fresh_web, "ann", "ben", "cid")
    pickpic = ann.post("/games/", json={"kind": "pickpic", "seats": 3, "options": {}}).json()["id"]
    for client in (ben, cid):
        assert client.post(f"/games/{pickpic}/join/").status_code == 200
    assert ann.post(f"/games/{pickpic}/start/").status_code == 200
    given = first_legal_move(ann, pickpic)  # ann gives; ben and cid still hold their hands
    provence = ann.post("/games/", json={"kind": "provence", "seats": 2, "options": {}}).json()["id"]
    assert ben.post(f"/games/{provence}/join/").status_code == 200
    assert ann.post(f"/games/{provence}/start/").status_code == 200
    placed = first_legal_move(ann, provence)
    older = ben.post(
        f"/games/{provence}/disputes/", json={"seq": placed, "reason": "she placed before the deal finished"}
    ).json()
    assert (
        ben.post(
            f"/games/{pickpic}/disputes/", json={"seq": given, "reason": "ann gave me a card she had not drawn"}
        ).status_code
        == 201
    )
    disputed = cid.post(
        f"/games/{pickpic}/disputes/", json={"seq": given, "reason": "ann misclicked her gift, she told us in chat"}
    ).json()
    in_the_reviewers_group("judge")
    (judge,) = players("judge", register=False)
    page = judge.page
    page.set_default_timeout(PATIENCE_MS)
    with screenshots_on_failure(shoot, judge):
        page.goto(f"{fresh_web.url}/admin/login/?next=/admin/")
        page.fill("#id_username", "judge")
        page.fill("#id_password", "pw-judge-secret")
        page.locator("input[type=submit]").click()
        # The index: the queue's length, a link to it.
        page.get_by_role("link", name="3 open disputes").click()
        rows = page.locator("#result_list tbody tr")
        rows.first.wait_for()
        judge.audit("dispute queue")
        # Open and oldest first: the Provence dispute was raised first.
        assert rows.count() == 3
        first = rows.nth(0).inner_text()
        assert f"#{older['id']}" in first and "provence" in first and "ann" in first and "she placed before" in first
        assert "CardsGiven" in rows.nth(1).inner_text()
        # The admin's menu folded away: the queue's every column, age and decider included, on screen.
        page.locator("#toggle-nav-sidebar").click()
        headers = page.locator("#result_list thead th")
        assert [h.strip().lower() for h in headers.all_inner_texts()[-2:]] == ["age", "decided by"]
        last = headers.last.bounding_box()
        assert last["x"] + last["width"] <= page.viewport_size["width"]
        assert page.locator("#result_list tbody tr time").count() == 3
        published("dispute-queue", shoot(judge, "dispute-queue"))
        # A raiser's record, from the queue.
        rows.nth(0).get_by_role("link", name="ben").click()
        page.get_by_text("2 disputes in all: 2 open, 0 decided, 0 upheld").wait_for()
        judge.audit("a player's dispute history")
        page.go_back()
        # Narrowed by kind, then found by a player's name.
        page.get_by_role("link", name="pickpic", exact=True).click()
        page.wait_for_url("**game__kind=pickpic**")
        assert page.locator("#result_list tbody tr").count() == 2
        page.fill("#searchbar", "cid")
        page.locator("#changelist-search input[type=submit]").click()
        page.wait_for_url("**q=cid**")
        # cid raised one and plays in the game of the other.
        assert page.locator("#result_list tbody tr").count() == 2
        # Claimed, from the list.
        page.locator("#result_list tbody tr").filter(has_text=f"#{disputed['id']}").locator(
            "input.action-select"
        ).check()
        page.select_option("select[name=action]", "claim")
        page.locator("button[name=index]").click()
        page.get_by_text(f"Assigned to you: #{disputed['id']}").wait_for()
        assert Dispute.objects.get(pk=disputed["id"]).assigned_to.username == "judge"
        # The decision screen: the disputed event inline, the rollback offered (the gifts are secret).
        page.get_by_role("link", name=f"#{disputed['id']}").click()
        page.locator(".field-disputed_event").get_by_text("CardsGiven").wait_for()
        assert "seat 0 (ann)" in page.locator(".field-disputed_event").inner_text()
        assert page.locator("select[name=decision] option[value=rollback]").count() == 1
        assert f"A rollback goes back to event {given - 1} and voids the move of event {given};" in page.content()
        judge.audit("dispute decision screen")
        # The review opens from the eyes of the seat that gave, ann's.
        page.get_by_role("link", name="review: drawn, with changes").click()
        page.locator(".review-after .pickpic").wait_for()
        assert page.get_by_label("seat 0 (ann)").is_checked()
        judge.audit("review of a give")
        text = page.locator("#review").inner_text()
        assert "(you)" not in text
        # One card given is a list change: cards leave ann's hand, no slot of it "changed".
        changes = page.locator(".review-diff tbody tr").all_inner_texts()
        assert any(row.startswith("hands[0][") and "removed" in row for row in changes), changes
        assert not any(row.startswith("hands[0][") and "changed" in row for row in changes), changes
        # From ben's eyes: his hand, from which he has not given yet, is drawn all the same.
        page.get_by_label("seat 1 (ben)").check()
        page.locator('.review-after section[aria-label^="ben\'s hand"]').wait_for()
        page.go_back()
        # Decided: the note stays with staff, the message goes to the players, the game goes back.
        page.locator("#id_note").fill("ann confirmed the misclick in chat")
        page.locator("#id_resolution").fill("The gift is voided: ann gives again.")
        page.select_option("select[name=decision]", "rollback")
        published("dispute-decision", shoot(judge, "dispute-decision"))
        page.locator("input[name=_save]").click()
        page.get_by_text(
            f"Dispute #{disputed['id']} upheld by judge; the game was rolled back to just before event {given}"
        ).wait_for()
        assert Event.objects.filter(game_id=pickpic).order_by("-seq").first().type == "GameRolledBack"
        page.goto(f"{fresh_web.url}/admin/games/dispute/{disputed['id']}/history/")
        page.get_by_text("upheld by judge").first.wait_for()
        judge.audit("dispute history")
        # cid, a player, reads the outcome on the game page: the disputes panel and the move log.
        token = cid.headers["Authorization"].split()[1]
        page.goto(f"{fresh_web.url}/")
        page.evaluate("(token) => localStorage.setItem('darkroom.token', token)", token)
        page.goto(f"{fresh_web.url}/#/games/{pickpic}")
        # A hash change alone may land while the front page is still starting, which then shows
        # itself: the game page is loaded afresh, with the token already stored.
        page.reload()
        panel = page.locator("section.disputes")
        panel.get_by_text(f"Dispute #{disputed['id']} about move {given}: upheld").wait_for()
        assert "Staff's message: The gift is voided: ann gives again." in panel.inner_text()
        assert "misclick in chat" not in page.content()
        log = page.locator(".move-log")
        log.get_by_text(f"Staff (judge) upheld a dispute about move {given}.", exact=False).wait_for()
        assert f"The game was rolled back to before move {given}. Move {given} is void." in log.inner_text()
        judge.audit("a player's game page with a decided dispute")
        published("dispute-outcome", shoot(judge, "dispute-outcome-player"))
        page.set_viewport_size({"width": 390, "height": 844})
        panel.scroll_into_view_if_needed()
        judge.audit("a player's game page with a decided dispute, on a phone")
        shoot(judge, "dispute-outcome-player-phone")
    told = cid.get(f"/games/{pickpic}/disputes/").json()
    assert {d["id"]: d["resolution"] for d in told}[disputed["id"]] == "The gift is voided: ann gives again."
    assert "misclick in chat" not in str(told)
    assert not judge.inaccessible, f"axe-core on the admin's pages: {judge.inaccessible}"
    assert all("404" in e for e in judge.errors) and len(judge.errors) <= 1, judge.errors
