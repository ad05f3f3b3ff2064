"""GET /kinds/{kind}/cards/: Pick Pic's catalogue, with images the server itself serves."""

from django.test import override_settings


def test_pickpic_publishes_120_cards_each_with_a_served_image(anonymous):
    cards = anonymous.get("/api/v1/kinds/pickpic/cards/").json()
    assert len(cards) == 120 and len({c["id"] for c in cards}) == 120
    first = cards[0]
    assert first["title"] and first["tags"] and first["image_url"].startswith("http://testserver/static/")
    image = anonymous.get(first["image_url"].replace("http://testserver", ""))
    assert image.status_code == 200
    assert b"<svg" in b"".join(image.streaming_content)


def test_a_deployment_can_point_images_at_its_own_photo_set(anonymous):
    with override_settings(CARD_IMAGE_BASE_URL="https://photos.example.org/set1/"):
        cards = anonymous.get("/api/v1/kinds/pickpic/cards/").json()
    assert cards[0]["image_url"] == f"https://photos.example.org/set1/{cards[0]['image']}"


def test_kinds_without_a_catalogue_or_unknown_kinds_are_404(anonymous):
    assert anonymous.get("/api/v1/kinds/duel/cards/").json()["code"] == "not_found"
    assert anonymous.get("/api/v1/kinds/chess/cards/").status_code == 404
