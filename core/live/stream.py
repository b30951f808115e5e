"""The push endpoint: `GET /events/?f=<spec>@<version>&f=…` answers a server-sent event
stream carrying every feed the page named (one connection a tab, whatever it shows).

It is served by the ASGI application (config/asgi.py) directly, without the middleware
chain: that chain is synchronous and would hold a thread for the whole life of a stream.
What the stream needs of it is done here: the session and its user (in a worker thread,
once), the language (cookie, Accept-Language) and the time zone. Each event's id lists
the version of every feed the reader has been sent ("match:12:0@41 user@7"); the browser
sends it back as Last-Event-ID when it reconnects, and the stream resumes from there.

Limits (per web process): LIVE_MAX_STREAMS_PER_USER and LIVE_MAX_STREAMS_PER_ADDRESS
open streams (429 past them); a stream ends after LIVE_STREAM_MAX_S with a reconnect hint,
and when its reader falls LIVE_READER_QUEUE messages behind. A comment every
LIVE_KEEPALIVE_S keeps idle connections open through proxies.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from importlib import import_module

from django.conf import settings
from django.contrib import auth
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponse, QueryDict, StreamingHttpResponse
from django.middleware.csrf import CSRF_SECRET_LENGTH
from django.utils import translation
from django.utils.translation import gettext

from core import throttling, timezones
from core.live.feeds import FeedError, parse
from core.live.hub import Reader, hub

log = logging.getLogger(__name__)

PATH = "/events/"

_per_user: Counter = Counter()
_per_address: Counter = Counter()


@dataclass
class Viewer:
    """Who reads a stream, as much as a feed's render may use."""

    user: object
    language: str
    zone: str
    cookies: dict = field(default_factory=dict)
    host: str = "localhost"
    secure: bool = False

    @property
    def user_id(self) -> int | None:
        return self.user.pk if getattr(self.user, "is_authenticated", False) else None

    @property
    def csrf_secret(self) -> str:
        value = self.cookies.get(settings.CSRF_COOKIE_NAME, "")
        return value if len(value) == CSRF_SECRET_LENGTH and value.isalnum() else ""

    def request(self, **params) -> HttpRequest:
        """A GET request for the templates and views a feed renders with: this viewer's
        user, language, cookies and CSRF secret (so a form in the render posts)."""
        request = _ViewerRequest(self.secure)
        request.method = "GET"
        request.path = request.path_info = PATH
        request.GET = QueryDict(mutable=True)
        for name, value in params.items():
            if value is not None:
                request.GET[name] = str(value)
        request.user = self.user
        request.COOKIES = dict(self.cookies)
        request.LANGUAGE_CODE = self.language
        request.META = {"SERVER_NAME": self.host, "SERVER_PORT": "443" if self.secure else "80",
                        "HTTP_HOST": self.host, "REQUEST_METHOD": "GET"}  # fmt: skip
        if self.csrf_secret:
            request.META["CSRF_COOKIE"] = self.csrf_secret
        request.htmx = False
        return request


class _ViewerRequest(HttpRequest):
    """A request for rendering: its scheme is the stream's (links and QR codes built with
    build_absolute_uri say https behind an https proxy)."""

    def __init__(self, secure: bool):
        super().__init__()
        self._secure = secure

    def _get_scheme(self) -> str:
        return "https" if self._secure else "http"


def attach_session(request: HttpRequest) -> None:
    """What SessionMiddleware does, for the streams served outside the middleware chain
    (here and games/api/turn_stream.py): the session from its cookie, read when used."""
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))


def _viewer(request: HttpRequest) -> Viewer:
    """The stream's reader from its cookies: one session read (in a worker thread)."""
    try:
        attach_session(request)
        request.user = auth.get_user(request)
        language = translation.get_language_from_request(request)
        return Viewer(user=request.user, language=language, zone=timezones.zone_for(request),
                      cookies=request.COOKIES, host=request.get_host(),
                      secure=request.is_secure())  # fmt: skip
    finally:
        close_old_connections()


def _error(status: int, message: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps({"detail": message}), status=status, content_type="application/json"
    )
    response["Cache-Control"] = "no-store"
    return response


async def events(request: HttpRequest) -> HttpResponse:
    """The async view behind `/events/` (see the module's docstring)."""
    if request.method != "GET":
        return _error(405, "GET only")
    address = throttling.client_address(request)
    try:
        viewer = await asyncio.to_thread(_viewer, request)
    except Exception:
        log.warning("live: could not read the session", exc_info=True)
        return _error(503, "unavailable")
    with translation.override(viewer.language):
        try:
            subs = parse(request.GET.getlist("f"), request.headers.get("Last-Event-ID", ""))
        except FeedError as exc:
            return _error(exc.status, str(exc))
        if _per_address[address] >= settings.LIVE_MAX_STREAMS_PER_ADDRESS or (
            viewer.user_id and _per_user[viewer.user_id] >= settings.LIVE_MAX_STREAMS_PER_USER
        ):
            response = _error(429, gettext("Too many live pages open; close some and reload."))
            response["Retry-After"] = "30"
            return response
        the_hub = hub()
        opened = []
        for sub in subs:
            try:
                opened.append(await the_hub.open(sub, viewer))
            except FeedError as exc:
                return _error(exc.status, str(exc))
    stream = _stream(the_hub, viewer, subs, opened, address)
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event on at once
    response.live_stream = stream  # closed by the ASGI app when the client goes
    return response


async def _stream(the_hub, viewer: Viewer, subs, opened, address: str):
    reader = Reader({sub.spec: sub.since for sub in subs})
    _per_address[address] += 1
    if viewer.user_id:
        _per_user[viewer.user_id] += 1
    loop = asyncio.get_running_loop()
    try:
        # Reconnect after 2 s when the connection drops (the browser's default is ~3 s).
        yield b"retry: 2000\n\n"
        for sub, one in zip(subs, opened, strict=True):
            await the_hub.join(reader, sub, one, viewer)
        deadline = loop.time() + settings.LIVE_STREAM_MAX_S
        while True:
            left = deadline - loop.time()
            if left <= 0:
                # Closed with a hint: the browser comes back with its Last-Event-ID.
                yield b": the stream ends here; reconnecting resumes it\nretry: 500\n\n"
                return
            try:
                # asyncio.timeout, not wait_for: no task made a message (3.11).
                async with asyncio.timeout(min(left, settings.LIVE_KEEPALIVE_S)):
                    message = await reader.queue.get()
            except TimeoutError:
                yield b": keep-alive\n\n"
                if viewer.user_id:
                    await _touch(subs, opened, viewer)
                continue
            if message is None:  # fell too far behind: end, the browser resumes
                return
            reader.written[message.spec] = message.version
            yield b"id: " + reader.event_id().encode() + b"\n" + message.payload + b"\n"
    finally:
        the_hub.leave(reader)
        _per_address[address] -= 1
        if _per_address[address] <= 0:
            del _per_address[address]
        if viewer.user_id:
            _per_user[viewer.user_id] -= 1
            if _per_user[viewer.user_id] <= 0:
                del _per_user[viewer.user_id]


async def _touch(subs, opened, viewer) -> None:
    """Tell the feeds that a signed-in reader is still there (a match notes her visit)."""
    for sub, one in zip(subs, opened, strict=True):
        touch = getattr(sub.feed, "touch", None)
        if touch is not None:
            try:
                await asyncio.to_thread(touch, viewer, one.state)
            except Exception:
                log.warning("live: touch of %s failed", sub.spec, exc_info=True)


async def app(scope, receive, send) -> None:
    """ASGI: the view above, its streaming response written as it comes, stopped when
    the client disconnects."""
    request = ASGIRequest(scope, io.BytesIO())
    response = await events(request)
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code,
                "headers": headers})  # fmt: skip
    if not response.streaming:
        await send({"type": "http.response.body", "body": response.content})
        return
    await send_stream(response.live_stream, receive, send)


async def send_stream(stream, receive, send) -> None:
    """Write an async generator's chunks as the response body until it ends or the client
    disconnects (then the generator is closed where it waits, and its `finally` runs)."""
    writer = asyncio.current_task()

    async def watch() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                writer.cancel()
                return

    watcher = asyncio.get_running_loop().create_task(watch())
    try:
        async for chunk in stream:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    except (asyncio.CancelledError, OSError):
        pass  # the client went away (or the server stops): nothing more to write
    finally:
        watcher.cancel()
        await stream.aclose()
