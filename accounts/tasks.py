"""Celery tasks of accounts: just another interface to its services, as games.tasks is."""

from __future__ import annotations

import smtplib

from celery import shared_task

from accounts import services


# A mail server that refuses or is away is tried again (1 s, 2 s, 4 s...): the person waits for
# the link. A retry mails every account with the address again; their links all stay valid.
# The name is explicit so a queued task survives a move of this module.
@shared_task(
    name="accounts.tasks.mail_password_reset",
    ignore_result=True,
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=6,
)
def mail_password_reset(email: str) -> None:
    services.mail_password_reset(email)
