"""The outbox (notifications, deliveries) is the server's: staff look, never add or edit."""

import pytest

from games.models import Delivery, Notification
from tests.games.test_admin_disputes import play, staff  # noqa: F401 (fixture)


@pytest.mark.parametrize("model", ["notification", "delivery"])
def test_the_outbox_cannot_be_added_to_or_edited_in_the_admin(staff, alice, bob, duel, model):  # noqa: F811
    assert staff.get(f"/admin/games/{model}/add/").status_code == 403
    assert staff.post(f"/admin/games/{model}/add/", {}).status_code == 403
    listing = staff.get(f"/admin/games/{model}/")
    assert listing.status_code == 200
    assert f'href="/admin/games/{model}/add/"' not in listing.content.decode()


def test_a_notification_is_shown_read_only(staff, alice, bob, duel):  # noqa: F811
    play(alice, duel)  # bob: "your turn"
    notice = Notification.objects.filter(user=bob.user).first()
    assert notice is not None
    page = staff.get(f"/admin/games/notification/{notice.pk}/change/")
    assert page.status_code == 200
    assert notice.title in page.content.decode()
    assert staff.post(f"/admin/games/notification/{notice.pk}/change/", {"title": "x"}).status_code == 403
    notice.refresh_from_db()
    assert notice.title != "x"


def test_the_admin_says_deliveries(staff):  # noqa: F811
    page = staff.get("/admin/").content.decode()
    assert "Deliveries" in page and "Deliverys" not in page
    assert Delivery._meta.verbose_name_plural == "deliveries"
