"""Email through the mail server within a deadline: Django's SMTP backend, with the whole of a
connection (connect, the greeting, STARTTLS or SSL, login, every message, QUIT) over within
settings.EMAIL_DEADLINE_SECONDS, whatever the server does.

Django's own backend bounds each blocking step alone (EMAIL_TIMEOUT), so a server trickling its
greeting one byte a second holds a message for ever, past the lease its delivery was claimed for
(games/tasks.py) and the sweeper would send it again. Here the webhooks' watchdog
(accounts.webhooks.Deadline) cuts the connection when the deadline is up, and each step still
waits at most EMAIL_TIMEOUT. `send_mail` opens one connection per message, so the deadline is a
message's; an attempt cut by it raises TimeoutError ("no answer within the 20 s deadline").

config/settings.py puts this backend in place of django.core.mail.backends.smtp.EmailBackend.
"""

from __future__ import annotations

import contextlib
import functools
import smtplib
import socket

from django.conf import settings
from django.core.mail.backends import smtp

from accounts.webhooks import Deadline


class _Watched:
    """An smtplib connection whose socket the deadline watches from the moment it connects.

    The watchdog holds a duplicate of the TCP socket: STARTTLS replaces the socket object smtplib
    reads from (the old one is detached during the handshake), but shutting the duplicate down
    ends the one connection under all of them, the TLS handshake included."""

    def __init__(self, *args, deadline: Deadline, **kwargs):
        self.deadline, self.watched = deadline, None
        super().__init__(*args, **kwargs)

    def connect(self, host="localhost", port=0, source_address=None):
        if source_address:
            self.source_address = source_address
        sock = socket.create_connection(
            (host, port or self.default_port), self.deadline.remaining(), self.source_address
        )
        try:
            self.watched = sock.dup()
            self.deadline.watch(self.watched)
            sock.settimeout(self.deadline.remaining())
            self.sock = self.secure(sock, host)
        except BaseException:
            sock.close()
            self.close()
            raise
        return self.getreply()

    def secure(self, sock: socket.socket, host: str) -> socket.socket:
        return sock

    def close(self):
        try:
            super().close()
        finally:
            if self.watched is not None:
                self.watched.close()
                self.watched = None


class _WatchedSMTP(_Watched, smtplib.SMTP):
    pass


class _WatchedSMTPSSL(_Watched, smtplib.SMTP_SSL):
    def secure(self, sock: socket.socket, host: str) -> socket.socket:
        return self.context.wrap_socket(sock, server_hostname=host)


class SMTPBackend(smtp.EmailBackend):
    """Django's SMTP backend, each connection over within `deadline` seconds
    (settings.EMAIL_DEADLINE_SECONDS)."""

    def __init__(self, *args, deadline: float | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.deadline_seconds = deadline or settings.EMAIL_DEADLINE_SECONDS
        self.deadline: Deadline | None = None

    @property
    def connection_class(self):
        kind = _WatchedSMTPSSL if self.use_ssl else _WatchedSMTP
        return functools.partial(kind, deadline=self.deadline)

    def open(self):
        if self.connection:
            return False
        self.deadline = Deadline(self.deadline_seconds, step=self.timeout or self.deadline_seconds)
        try:
            opened = super().open()
        except BaseException:
            with contextlib.suppress(OSError):  # a connection half open (a refused STARTTLS, login)
                self.close()
            raise
        if not self.connection:  # failed silently
            self.deadline.cancel()
        return opened

    def close(self):
        try:
            super().close()
        finally:
            if self.deadline is not None:
                self.deadline.cancel()

    def send_messages(self, email_messages):
        try:
            return super().send_messages(email_messages)
        except OSError as exc:  # smtplib's errors are OSErrors too
            if self.deadline is not None and self.deadline.passed():
                raise TimeoutError(f"no answer within the {self.deadline.seconds:g} s deadline") from exc
            raise
