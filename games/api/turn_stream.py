"""`GET /api/me/turns/stream/` under ASGI (config/asgi.py): the bot API's turn stream,
pushed instead of polled.

The WSGI view (games/api/match_views.py MyTurnsStreamView) held a thread per client and
asked the database every 0.5 s. Here a stream holds no thread: it waits on its user's
channel ("user:<id>", announced with every decision of a match she is seated in, and when
one of hers starts or is aborted) through the push hub (core/live/hub.py), which renders
once per person and change whatever number of streams she has open. What a client sees
is what the view sends: "retry: 1000", then a `turns` event with her waiting matches (the
list MatchSerializer gives, as GET /api/me/turns/ does) at once and whenever it changes,
keep-alive comments, the end after `?seconds=` (at most STREAM_SECONDS).

The request is checked by the API view's own code (authentication: `Authorization:
Token <key>` or the session; permission; `?seconds=`; content negotiation), run once in
a worker thread, so a refusal is the DRF view's answer, status, body and headers alike.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import zlib
from collections import Counter

from django.conf import settings
from django.contrib import auth
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from django.http import HttpResponse
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.live.feeds import Feed, FeedError, Opened, Rendered, Subscription
from core.live.hub import Reader, hub
from core.live.publish import user_channel
from core.live.stream import Viewer, attach_session, send_stream
from games import selectors
from games.api.match_serializers import MatchSerializer
from games.api.match_views import MyTurnsStreamView

log = logging.getLogger(__name__)

PATH = "/api/me/turns/stream/"
SPEC = "turns"  # also the events' name

_per_user: Counter = Counter()


class TurnsFeed(Feed):
    """Her matches waiting for her decision. Not registered: `/events/` does not serve
    it, only this stream."""

    name = SPEC

    def open(self, viewer, args):
        if not viewer.user_id:
            raise FeedError(_("Sign in to follow your turns."), status=403)
        return Opened(
            channels=(user_channel(viewer.user_id),), key=(viewer.user_id, viewer.language)
        )

    def render(self, viewer, state, since):
        matches = selectors.turns_waiting_for(viewer.user)
        # As the view compared: which matches, at which ply.
        key = repr([(m.pk, m.ply) for m in matches]).encode()
        version = f"{len(matches)}-{zlib.crc32(key):08x}"
        if since == version:
            return Rendered(version)
        # Plain JSON values (what the view wrote with DjangoJSONEncoder), for the hub.
        data = json.loads(
            json.dumps(MatchSerializer(matches, many=True).data, cls=DjangoJSONEncoder)
        )
        return Rendered(version, data)


TURNS = TurnsFeed()


class _Gate(MyTurnsStreamView):
    """The API view with its checks (dispatch: authentication, permission, throttles,
    content negotiation, then `?seconds=`) but no stream: it answers what the view would
    refuse, else a marker with the stream's reader and length."""

    def get(self, request):
        duration = self._duration(request.query_params.get("seconds"))
        marker = HttpResponse()
        marker.turn_stream = (request.user, duration)
        return marker


_gate = _Gate.as_view()


def _check(request: ASGIRequest) -> HttpResponse:
    """In a worker thread: the session (for the session's user) and the view's checks, in
    the request's language, as the middleware would have set them up."""
    try:
        attach_session(request)
        request.user = SimpleLazyObject(lambda: auth.get_user(request))
        language = translation.get_language_from_request(request)
        with translation.override(language):
            response = _gate(request)
            if callable(getattr(response, "render", None)):
                response.render()
            response.language = language
            marker = getattr(response, "turn_stream", None)
            if marker is not None:  # the user read here, in the thread, not on the event loop
                user, duration = marker
                user.pk  # noqa: B018  (a session's user is a lazy object until asked)
                response.turn_stream = (getattr(user, "_wrapped", user), duration)
        return response
    finally:
        close_old_connections()


async def _answer(send, response: HttpResponse) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


def _refusal(status: int, code: str, detail: str) -> HttpResponse:
    response = HttpResponse(json.dumps({"code": code, "detail": detail}), status=status,
                            content_type="application/json")  # fmt: skip
    response["Cache-Control"] = "no-store"
    return response


async def app(scope, receive, send) -> None:
    """ASGI: the checks, then the events until `seconds` pass or the client goes."""
    request = ASGIRequest(scope, io.BytesIO())
    try:
        response = await asyncio.to_thread(_check, request)
    except Exception:
        log.warning("turn stream: could not check the request", exc_info=True)
        response = _refusal(503, "unavailable", "unavailable")
    marker = getattr(response, "turn_stream", None)
    if marker is None:
        return await _answer(send, response)
    user, duration = marker
    if _per_user[user.pk] >= settings.LIVE_MAX_STREAMS_PER_USER:
        with translation.override(response.language):
            refusal = _refusal(429, "throttled", gettext("Too many turn streams open."))
        refusal["Retry-After"] = "30"
        return await _answer(send, refusal)
    # The view's headers (Allow, Vary), with the stream's own type.
    headers = {
        k: v for k, v in response.items() if k.lower() not in ("content-type", "content-length")
    }
    headers.update({"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
                    "X-Accel-Buffering": "no"})  # fmt: skip
    await send({"type": "http.response.start", "status": 200,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]})  # fmt: skip
    if scope.get("method") == "HEAD":
        await send({"type": "http.response.body", "body": b""})
        return
    viewer = Viewer(user=user, language=response.language, zone="UTC")  # the API's zone
    _per_user[user.pk] += 1
    try:
        chunks = _chunks(viewer, duration, MyTurnsStreamView.KEEPALIVE_SECONDS)
        await send_stream(chunks, receive, send)
    finally:
        _per_user[user.pk] -= 1
        if _per_user[user.pk] <= 0:
            del _per_user[user.pk]


async def _chunks(viewer: Viewer, duration: float, keepalive: float):
    loop = asyncio.get_running_loop()
    end = loop.time() + duration
    yield b"retry: 1000\n\n"
    if duration <= 0:
        return
    the_hub = hub()
    sub = Subscription(spec=SPEC, feed=TURNS)
    reader = Reader({SPEC: None})
    try:
        opened = await the_hub.open(sub, viewer)
        await the_hub.join(reader, sub, opened, viewer)  # queues the first `turns`
        while True:
            left = end - loop.time()
            if left <= 0:
                return
            try:
                async with asyncio.timeout(min(left, keepalive)):
                    message = await reader.queue.get()
            except TimeoutError:
                if end - loop.time() > 0:
                    yield b": keep-alive\n\n"
                continue
            if message is None:  # fell too far behind: end, the client reconnects
                return
            yield message.payload + b"\n"
    except Exception:  # the database gone, say: end it, the client comes back
        log.warning("turn stream: ended by an error", exc_info=True)
    finally:
        the_hub.leave(reader)
