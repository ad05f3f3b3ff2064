"""A reset request is answered at once; a real worker mails the link (accounts.tasks)."""

import re
import tempfile
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from tests.worker import Worker, purge_queue, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_the_worker_mails_the_reset_link_and_the_link_sets_the_password(alice):
    outbox = Path(tempfile.mkdtemp(prefix="darkroom-mail-"))
    purge_queue()
    worker = Worker(
        TEST_WORKER_EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        TEST_WORKER_EMAIL_FILE_PATH=str(outbox),
    ).start()
    try:
        anonymous = APIClient()
        answer = anonymous.post("/api/v1/accounts/password-reset/", {"email": "alice@example.com"}, format="json")
        assert answer.status_code == 202
        files = wait_for(lambda: [p for p in outbox.iterdir() if "token" in p.read_text()], timeout=60)
        assert files, worker.output()[-3000:]
    finally:
        worker.stop()
        purge_queue()
    (message,) = [path.read_text() for path in files]
    assert "To: alice@example.com" in message
    uid, token = re.search(r"uid (\S+), token (\S+)\)", message).groups()
    done = anonymous.post(
        "/api/v1/accounts/password-reset/confirm/",
        {"uid": uid, "token": token, "new_password": "a brand new passphrase"},
        format="json",
    )
    assert done.status_code == 204
    assert (
        APIClient()
        .post("/api/v1/accounts/token/", {"username": "alice", "password": "a brand new passphrase"}, format="json")
        .status_code
        == 200
    )
