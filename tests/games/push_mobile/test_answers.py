"""What each answer of the phones' services does to the device and the delivery: a device its
service says is gone is removed, any other failure is retried with backoff and keeps it, and an
APNs token that is not hexadecimal is removed without being sent."""

import pytest

from accounts.models import PushDevice
from games.tasks import deliver_push
from tests.games.test_push import attempt_every_time, play_until_pushed, pushes
from tests.games.push_mobile.standins import IPAD, IPHONE, register


FCM_UNREGISTERED = {
    "error": {
        "code": 404,
        "message": "Requested entity was not found.",
        "status": "NOT_FOUND",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}],
    }
}
FCM_BAD_TOKEN = {
    "error": {
        "code": 400,
        "message": "The registration token is not a valid FCM registration token",
        "status": "INVALID_ARGUMENT",
        "details": [
            {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"},
            {
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "message.token", "description": "Invalid registration token"}],
            },
        ],
    }
}
# The same, said one way only: by the status and the field, or by FCM's own code and the words.
FCM_BAD_TOKEN_BY_STATUS = {
    "error": {
        "code": 400,
        "status": "INVALID_ARGUMENT",
        "details": [
            {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [{"field": "message.token"}]}
        ],
    }
}
FCM_BAD_TOKEN_BY_CODE = {
    "error": {
        "code": 400,
        "message": "The registration token is not a valid FCM registration token",
        "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"}],
    }
}
FCM_BAD_FIELD = {
    "error": {
        "code": 400,
        "message": "Invalid value at 'message.android.ttl'",
        "status": "INVALID_ARGUMENT",
        "details": [
            {
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{"field": "message.android.ttl"}],
            }
        ],
    }
}


@pytest.mark.parametrize(
    "platform, status, answer",
    [
        ("apns", 410, "Unregistered"),
        ("apns", 400, "BadDeviceToken"),
        ("fcm", 404, FCM_UNREGISTERED),
        ("fcm", 404, {"error": {"code": 404, "status": "UNREGISTERED"}}),  # said in the status alone
        ("fcm", 400, FCM_BAD_TOKEN),
        ("fcm", 400, FCM_BAD_TOKEN_BY_STATUS),
        ("fcm", 400, FCM_BAD_TOKEN_BY_CODE),
    ],
)
def test_a_device_its_service_says_is_gone_is_removed(request, alice, bob, duel, platform, status, answer):
    service = request.getfixturevalue(platform)
    token = IPHONE if platform == "apns" else "android-gone"
    service.answers[token] = (status, answer)
    register(bob, platform, token)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert not PushDevice.objects.filter(user=bob.user).exists()
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("sent", "every subscription was gone")
    assert delivery.attempt_log.get().status_code == status


@pytest.mark.parametrize(
    "platform, status, answer, error",
    [
        ("apns", 500, "InternalServerError", "HTTP 500 InternalServerError"),
        ("apns", 400, "BadTopic", "HTTP 400 BadTopic"),
        ("apns", 503, "", "HTTP 503"),  # no reason given
        ("apns", 500, "Internal" * 20, "HTTP 500 " + ("Internal" * 20)[:100]),  # a reason cut at 100 characters
        ("fcm", 503, {"error": {"code": 503, "status": "UNAVAILABLE"}}, "HTTP 503 UNAVAILABLE"),
        ("fcm", 400, FCM_BAD_FIELD, "HTTP 400 INVALID_ARGUMENT"),  # our message, not the device's token
        ("fcm", 404, {"error": {"code": 404, "status": "NOT_FOUND"}}, "HTTP 404 NOT_FOUND"),  # the project's
        ("fcm", 300, {"error": "Multiple Choices"}, "HTTP 300"),  # not a 2xx, and an error that is no object
    ],
)
def test_a_failure_that_is_not_the_device_s_is_retried_with_backoff_and_keeps_it(
    request, alice, bob, duel, platform, status, answer, error
):
    service = request.getfixturevalue(platform)
    token = IPHONE if platform == "apns" else "android-1"
    service.answers[token] = (status, answer)
    register(bob, platform, token)
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    delays = attempt_every_time(delivery)
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("failed", 3, error)
    assert delays == pytest.approx([0.3, 0.6], abs=0.01)
    assert PushDevice.objects.filter(user=bob.user).count() == 1


@pytest.mark.parametrize("token", ["..", "0X" + IPAD])
def test_an_apns_token_that_is_not_hex_is_removed_without_being_sent(alice, bob, duel, apns, token):
    register(bob, "apns", token)  # the API takes it (FCM's tokens have dots); APNs never would
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    delivery = pushes(bob.user).get()
    deliver_push(delivery.pk)
    assert apns.received == [] and not PushDevice.objects.exists()
    # The attempt as APNs itself would have answered it.
    attempt = delivery.attempt_log.get()
    assert (attempt.ok, attempt.status_code, attempt.error, attempt.duration_ms) == (
        False,
        400,
        "BadDeviceToken (an APNs token is hexadecimal)",
        0,
    )


def test_an_apns_token_in_capitals_is_hexadecimal_too(alice, bob, duel, apns):
    register(bob, "apns", IPAD.upper())
    play_until_pushed({0: alice, 1: bob}, duel, bob.user)
    deliver_push(pushes(bob.user).get().pk)
    assert [device for device, _, _ in apns.received] == [IPAD.upper()]
    assert PushDevice.objects.filter(user=bob.user).exists()
