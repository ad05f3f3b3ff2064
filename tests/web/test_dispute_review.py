"""The admin's dispute review: staff log in to the admin, open a dispute, and see the state at
the disputed event drawn by the players' own table (any seat's eyes) and what changed since the
event before, instead of raw JSON. Only staff reach it."""
from __future__ import annotations

import httpx
import pytest
from django.contrib.auth import get_user_model

from games.models import Dispute
from tests.web.table_helpers import PATIENCE_MS, screenshots_on_failure
from tests.loopback import TLS

pytestmark = pytest.mark.django_db(transaction=True)


def played_provence(web) -> tuple[str, dict]:
    """Two players (through the API: the review, not the lobby, is under test here) place a card
    each; the second disputes the first's placement once it is revealed."""
    tokens = []
    for name in ("ann", "ben"):
        answer = httpx.post(f"{web.url}/api/v1/accounts/register/", json={"username": name, "password": f"pw-{name}-secret"}, verify=TLS)
        assert answer.status_code == 201, answer.text
        tokens.append(answer.json()["token"])
    ann, ben = (httpx.Client(base_url=f"{web.url}/api/v1", headers={"Authorization": f"Token {t}"}, timeout=30, verify=TLS) for t in tokens)
    game = ann.post("/games/", json={"kind": "provence", "seats": 2, "options": {}}).json()
    assert ben.post(f"/games/{game['id']}/join/").status_code == 200
    assert ann.post(f"/games/{game['id']}/start/").status_code == 200
    for client in (ann, ben):
        legal = client.get(f"/games/{game['id']}/legal-moves/").json()
        answer = client.post(f"/games/{game['id']}/moves/", json={"move": legal["moves"][0], "expected_version": legal["version"]})
        assert answer.status_code in (200, 201), answer.text
    version = ann.get(f"/games/{game['id']}/").json()["version"]
    answer = ben.post(f"/games/{game['id']}/disputes/", json={"seq": version, "reason": "that card was not in her hand"})
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
    # Players are not staff: the review is the admin's alone.
    answer = httpx.get(f"{web.url}/admin/games/game/{game_id}/review/", follow_redirects=False, verify=TLS)
    assert answer.status_code == 302 and "/admin/login/" in answer.headers["location"]
    # The admin is no part of the client: its own pages and static files are allowed here. The
    # admin's pages name no icon, so Chromium asks for /favicon.ico (a request Playwright does
    # not report): that 404 alone is forgiven, any other refused request is not.
    assert not refused, refused
    assert not judge.inaccessible, f"axe-core on the admin's pages: {judge.inaccessible}"
    assert all("404" in e for e in judge.errors) and len(judge.errors) <= 1, judge.errors
