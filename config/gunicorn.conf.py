"""gunicorn settings for production (docker/entrypoint.sh web, and the smoke test).

gthread workers: each process serves many connections with a pool of threads, so
a long-lived request (the server-sent-events turn stream, up to 55 s) holds one
thread, not a whole worker, and gunicorn's `timeout` (a worker's heartbeat, sent
by its main thread) does not kill it. Size WEB_THREADS above the number of
stream clients a process may hold at once, plus room for ordinary requests.
Database connections do not grow with threads: each process borrows them from
its bounded pool (DB_POOL_MAX_SIZE) for the length of a request or a stream poll.
"""

import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_WORKERS", "2"))
threads = int(os.environ.get("WEB_THREADS", "64"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "10"))
keepalive = 5
backlog = 2048
accesslog = os.environ.get("WEB_ACCESS_LOG", "-") or None
loglevel = os.environ.get("WEB_LOG_LEVEL", "info")
# The control socket (gunicornc) lives at one path per user: several servers on one
# machine (tests, benchmarks) would fight over it, and nothing here uses it.
control_socket_disable = True
