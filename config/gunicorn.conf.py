"""gunicorn settings for production (docker/entrypoint.sh web, and the smoke test).

Uvicorn workers running the ASGI application (config/asgi.py): the live pages' push
streams (server-sent events, core/live/) wait on the event loop, thousands a process
with no thread each, and everything else runs in the WSGI application in a bounded pool
of WEB_THREADS threads (a2wsgi), as the gthread workers ran it before. Database
connections do not grow with threads: each process borrows them from its bounded pool
(DB_POOL_MAX_SIZE) for the length of a request or a render.
"""

import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
worker_class = "uvicorn_worker.UvicornWorker"
workers = int(os.environ.get("WEB_WORKERS", "2"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT", "10"))
keepalive = 5
backlog = 2048
accesslog = os.environ.get("WEB_ACCESS_LOG", "-") or None
loglevel = os.environ.get("WEB_LOG_LEVEL", "info")
# The control socket (gunicornc) lives at one path per user: several servers on one
# machine (tests, benchmarks) would fight over it, and nothing here uses it.
control_socket_disable = True
