"""gunicorn's settings that come from the environment, read by gunicorn itself from the working
directory (the Procfile's `web:` and the image's CMD both run from the project root)."""
import os

# Worker processes: WEB_CONCURRENCY, as gunicorn and most platforms name it (2 by default: one
# per core of the machine this was sized on; each serves many streams on its event loop).
workers = int(os.environ.get("WEB_CONCURRENCY", 2))

# Addresses whose X-Forwarded-* headers the server itself believes (uvicorn rewrites the client
# address from them). None by default, as DJANGO_TRUSTED_PROXIES: a header a client sends never
# becomes its address. A deployment behind its own proxy names it here, or counts it in
# DJANGO_TRUSTED_PROXIES (docs/operations.md).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "")
