"""The phones' services down: one that never answers, its token endpoint that never answers, or
one that refuses the connection, each a failed attempt within PUSH_DEADLINE_SECONDS that says
what happened, the device kept."""

import pytest

from accounts.models import PushDevice
from games.tasks import deliver_push
from tests.games.test_push import play_until_pushed, pushes
from tests.games.push_mobile.standins import IPHONE, register


def test_an_apns_service_that_never_answers_is_cut_at_the_deadline(alice, bob, duel, apns, settings):
    settings.PUSH_DEADLINE_SECONDS = 2  # room for the TLS handshake on a busy machine
    apns.hang = True
    register(bob, "apns", IPHONE)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert len(apns.received) == 1  # it got there, and was never answered
    assert (delivery.status, delivery.attempts, delivery.last_error) == (
        "pending",
        1,
        "no answer within the 2 s deadline",
    )
    assert PushDevice.objects.count() == 1


@pytest.mark.parametrize("platform", ["apns", "fcm"])
def test_a_phone_service_that_refuses_the_connection_is_a_failed_attempt_that_says_so(
    request, alice, bob, duel, settings, platform
):
    """Not the deadline: the attempt failed at once, and its error says what the network said."""
    from tests.faults.stack.receivers import closed_port

    request.getfixturevalue(platform)
    setattr(settings, f"{platform.upper()}_ENDPOINT", f"https://127.0.0.1:{closed_port()}")
    register(bob, platform, IPHONE)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("pending", 1)
    assert delivery.last_error == "All connection attempts failed"  # httpx's word for a refusal
    assert PushDevice.objects.count() == 1


def test_a_token_endpoint_that_never_answers_is_within_the_same_deadline(alice, bob, duel, fcm, settings):
    settings.PUSH_DEADLINE_SECONDS = 1
    fcm.token_hang = True
    register(bob, "fcm", "android-1")
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    delivery.refresh_from_db()
    assert fcm.received == []
    assert (delivery.status, delivery.attempts) == ("pending", 1)
    assert "no answer within the 1 s deadline" in delivery.last_error
