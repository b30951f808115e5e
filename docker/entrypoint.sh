#!/bin/sh
# Waits for PostgreSQL and Redis, migrates (web only), then runs the role given.
set -e

wait_for() {  # host port name
  i=0
  until nc -z "$1" "$2"; do
    i=$((i + 1)); [ "$i" -gt 60 ] && { echo "$3 at $1:$2 did not come up" >&2; exit 1; }
    echo "waiting for $3 at $1:$2"; sleep 1
  done
}
wait_for "${POSTGRES_HOST:-postgres}" "${POSTGRES_PORT:-5432}" PostgreSQL
wait_for "${REDIS_HOST:-redis}" "${REDIS_PORT:-6379}" Redis

case "$1" in
  web)
    python manage.py migrate --noinput
    exec gunicorn config.wsgi:application --bind 0.0.0.0:8000 --workers "${WEB_WORKERS:-3}" \
      --access-logfile - ;;
  worker)
    exec celery -A config worker --loglevel=INFO --concurrency "${WORKER_CONCURRENCY:-2}" ;;
  beat)
    exec celery -A config beat --loglevel=INFO ;;
  *)
    exec "$@" ;;
esac
