#!/bin/sh
# Runs one role of the production stack: web (migrates first, then gunicorn with
# config/gunicorn.conf.py), worker (the default queue), worker-heavy (the search bots'
# queue) or beat. Waits for PostgreSQL and Redis first (hosts from DATABASE_URL /
# REDIS_URL, or POSTGRES_HOST/PORT, REDIS_HOST/PORT).
# Works in the image and natively (with the project's python on PATH).
set -e
cd "$(dirname "$0")/.."

python -m config.wait_for_services

case "$1" in
  web)
    # No statement limit for migrations: an index on a big table may take minutes.
    DATABASE_STATEMENT_TIMEOUT_S=0 python manage.py migrate --noinput
    exec gunicorn -c config/gunicorn.conf.py config.asgi:application ;;
  worker)
    exec celery -A config worker --loglevel=INFO -Q "${CELERY_QUEUE:-celery}" \
      --concurrency "${WORKER_CONCURRENCY:-2}" ;;
  worker-heavy)
    # As config/worker_process.py's HEAVY_WORKER_ARGS: a fresh pool process every 50
    # tasks, a search asked to stop after 60 s and killed at 90 s.
    exec celery -A config worker --loglevel=INFO -Q "${BOT_HEAVY_QUEUE:-bots-heavy}" \
      -n "heavy@%h" --concurrency "${HEAVY_WORKER_CONCURRENCY:-1}" \
      --max-tasks-per-child=50 --soft-time-limit=60 --time-limit=90 ;;
  beat)
    exec celery -A config beat --loglevel=INFO ;;
  *)
    exec "$@" ;;
esac
