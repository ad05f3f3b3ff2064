"""Django's own middlewares, their hooks inline in the async path (config.middleware.Inline).

The ASGI application (config/asgi.py) loads these in place of Django's (`INSTEAD`); MIDDLEWARE
keeps naming Django's, which the deploy checks look for. A module of its own: it imports
django.contrib's models, which config.middleware (imported while settings load) must not."""
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware as _Auth
from django.contrib.messages.middleware import MessageMiddleware as _Messages
from django.contrib.sessions.middleware import SessionMiddleware as _Session
from django.middleware.clickjacking import XFrameOptionsMiddleware as _XFrame
from django.middleware.common import CommonMiddleware as _Common
from django.middleware.csrf import CsrfViewMiddleware as _Csrf
from django.middleware.security import SecurityMiddleware as _Security

from config.middleware import inline


def _session_saves(self, request, response) -> bool:
    session = getattr(request, "session", None)
    return session is not None and (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)


SecurityMiddleware = inline(_Security)
SessionMiddleware = inline(_Session, _session_saves)
CommonMiddleware = inline(_Common)
CsrfViewMiddleware = inline(_Csrf)
AuthenticationMiddleware = inline(_Auth)
MessageMiddleware = inline(_Messages)
XFrameOptionsMiddleware = inline(_XFrame)

INSTEAD = {f"{base.__module__}.{base.__name__}": f"{__name__}.{base.__name__}"
           for base in (_Security, _Session, _Common, _Csrf, _Auth, _Messages, _XFrame)}
