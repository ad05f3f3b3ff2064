"""The WSGI entry point: the Procfile's `web:` and the image serve the API, the web client and the
admin with it (gunicorn's threaded workers). The requests that wait (streams, long-polls) are
`live`'s, under ASGI (config/asgi.py); the proxy sends them there (deploy/nginx.conf.template).

A REST request under ASGI paid a thread trip for each of Django's own middlewares and one for its
view; here it runs on its thread from end to end (docs/architecture.md, "Serving").
"""

import os

from django.core.wsgi import get_wsgi_application

from config.gcfreeze import freeze_web_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

freeze_web_heap()
