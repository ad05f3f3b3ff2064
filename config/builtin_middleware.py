"""Django's own middlewares, their hooks inline in the async path (config.middleware.Inline).

The ASGI application (config/asgi.py) loads these in place of Django's (`INSTEAD`); MIDDLEWARE
keeps naming Django's, which the deploy checks look for. A module of its own: it imports
django.contrib's models, which config.middleware (imported while settings load) must not."""
from django.conf import settings
from django.contrib.messages.storage import default_storage
from django.utils.functional import SimpleLazyObject, empty
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
class _LazyMessages(_Messages):
    """The message storage made when a view first uses it (the admin), not for every request: its
    cookie and session storages cost 3% of the web server's time under the streams benchmark, for
    API requests that never touch them."""

    def process_request(self, request):
        request._messages = SimpleLazyObject(lambda: default_storage(request))

    def process_response(self, request, response):
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)


MessageMiddleware = inline(_LazyMessages)
XFrameOptionsMiddleware = inline(_XFrame)

INSTEAD = {f"{base.__module__}.{base.__name__}": f"{__name__}.{base.__name__}"
           for base in (_Security, _Session, _Common, _Csrf, _Auth, _Messages, _XFrame)}
