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
CMD ["gunicorn", "config.wsgi", "--bind", "0.0.0.0:8000", "--worker-class", "gthread", "--workers", "2", "--threads", "16"]
