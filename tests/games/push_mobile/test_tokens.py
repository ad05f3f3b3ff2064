"""The tokens that let the server send: FCM's OAuth2 token is fetched once and reused until FCM no
longer takes it; APNs's provider token is made again only when APNs calls it expired or invalid."""

import pytest

from games.models import Delivery
from games.tasks import deliver_push
from tests.games.test_push import play_until_pushed, pushes
from tests.games.push_mobile.standins import IPHONE, register


def test_the_fcm_token_is_fetched_once_and_reused(alice, bob, duel, fcm):
    register(bob, "fcm", "android-1")
    for count in (1, 2):
        play_until_pushed({0: alice, 1: bob}, duel, bob.user, count=count)
        deliver_push(pushes(bob.user).last().pk)
    assert len(fcm.received) == 2 and fcm.issued == ["ya29.local-1"]


@pytest.mark.parametrize(
    "reason, made_again", [("ExpiredProviderToken", True), ("InvalidProviderToken", True), ("Forbidden", False)]
)
def test_the_apns_provider_token_is_reused_until_apns_calls_it_expired_or_invalid(
    alice, bob, duel, apns, reason, made_again
):
    register(bob, "apns", IPHONE)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    apns.answers[IPHONE] = (403, reason)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user, count=2)
    delivery = pushes(bob.user).last()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("pending", f"HTTP 403 {reason}")
    assert len(apns.tokens) == 1  # both requests so far carried the same token
    del apns.answers[IPHONE]
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.attempt_log.last().at)
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and len(apns.tokens) == (2 if made_again else 1) and len(apns.received) == 3


def test_a_token_fcm_no_longer_takes_is_dropped_and_the_retry_fetches_another(alice, bob, duel, fcm):
    register(bob, "fcm", "android-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    fcm.revoked.add("ya29.local-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user, count=2)
    delivery = pushes(bob.user).last()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("pending", "HTTP 401 UNAUTHENTICATED")
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.attempt_log.last().at)
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "sent" and fcm.issued == ["ya29.local-1", "ya29.local-2"]
    assert len(fcm.received) == 2 and fcm.refused == ["no token of ours"]  # the second, once refused
