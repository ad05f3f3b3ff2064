FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY config ./config
COPY accounts ./accounts
COPY games ./games
COPY web ./web
# The compiled catalogs are committed with their PO files: the image needs no GNU gettext.
COPY locale ./locale
COPY manage.py Procfile gunicorn.conf.py ./
RUN pip install --no-cache-dir -c constraints.txt . \
 && DJANGO_SECRET_KEY=build-only python manage.py collectstatic --no-input
# Run as an unprivileged user; it owns only the metrics directory (prometheus-client's
# multiprocess files, see docs/operations.md), the code stays root's and read-only to it.
ENV PROMETHEUS_MULTIPROC_DIR=/var/run/darkroom-metrics
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin darkroom \
 && mkdir -p "$PROMETHEUS_MULTIPROC_DIR" && chown darkroom "$PROMETHEUS_MULTIPROC_DIR"
USER darkroom
EXPOSE 8000
# Liveness by IP over plain HTTP: /healthz is answered before host checks and HTTPS redirects.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
# The API, the web client and the admin: WSGI, gunicorn's threaded workers (WEB_CONCURRENCY
# processes of WEB_THREADS threads, gunicorn.conf.py). Compose's `live` runs this image under ASGI
# instead (its command): the streams and long-polls that wait on an event loop (games/realtime/live.py).
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--worker-class", "gthread", "--timeout", "60", "--graceful-timeout", "10"]
