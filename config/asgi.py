"""The web process's ASGI application (uvicorn under `make run`, gunicorn with uvicorn
workers in production: config/gunicorn.conf.py).

Two paths, one port:
- the push streams (`/events/`, core/live/stream.py) run on the event loop, thousands of
  them per process, without a thread each;
- everything else is the same WSGI application as before, run by a2wsgi in a bounded
  pool of WEB_THREADS threads (as gunicorn's gthread workers did): the synchronous views,
  middleware and ORM keep their threads and pooled database connections.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django  # noqa: E402

django.setup()

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from core.live import hub as live_hub  # noqa: E402
from core.live import stream  # noqa: E402
from games.api import turn_stream  # noqa: E402

site = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("WEB_THREADS", "64")))


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == stream.PATH:
        return await stream.app(scope, receive, send)
    if scope["type"] == "http" and scope["path"] == turn_stream.PATH:  # the bot API's, pushed
        return await turn_stream.app(scope, receive, send)
    if scope["type"] == "lifespan":
        return await _lifespan(receive, send)
    return await site(scope, receive, send)


async def _lifespan(receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            for one in list(live_hub._hubs.values()):
                await one.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
