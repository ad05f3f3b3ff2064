FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY config ./config
COPY accounts ./accounts
COPY games ./games
COPY manage.py Procfile ./
RUN pip install --no-cache-dir -c constraints.txt . \
 && DJANGO_SECRET_KEY=build-only python manage.py collectstatic --no-input
EXPOSE 8000
# ASGI (gunicorn managing uvicorn workers): streams and long-polls wait on the event loop (games/live.py).
CMD ["gunicorn", "config.asgi:application", "--bind", "0.0.0.0:8000", "--worker-class", "uvicorn_worker.UvicornWorker", "--workers", "2", "--timeout", "60", "--graceful-timeout", "10"]
