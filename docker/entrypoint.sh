#!/bin/sh
# Runs one role of the production stack: web (migrates first, then gunicorn with
# config/gunicorn.conf.py), worker or beat. Waits for PostgreSQL and Redis first
# (hosts from DATABASE_URL / REDIS_URL, or POSTGRES_HOST/PORT, REDIS_HOST/PORT).
# Works in the image and natively (with the project's python on PATH).
set -e
cd "$(dirname "$0")/.."

python -m config.wait_for_services

case "$1" in
  web)
    python manage.py migrate --noinput
    exec gunicorn -c config/gunicorn.conf.py config.wsgi:application ;;
  worker)
    exec celery -A config worker --loglevel=INFO --concurrency "${WORKER_CONCURRENCY:-2}" ;;
  beat)
    exec celery -A config beat --loglevel=INFO ;;
  *)
    exec "$@" ;;
esac
