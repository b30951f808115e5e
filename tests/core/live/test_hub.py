"""The hub's bookkeeping, in one event loop with a feed of its own (no server, no
database): renders that cross each other never leave a reader believing she has a
version she was not sent — versions may come back (counts go 0, 1, 0)."""

from __future__ import annotations

import asyncio
import json
import threading

from django.contrib.auth.models import AnonymousUser

from core.live import backends
from core.live import hub as live_hub
from core.live.feeds import Feed, Opened, Rendered, Subscription
from core.live.stream import Viewer


class Quiet:
    """A backend whose listener hears nothing: the test announces by hand."""

    def listener(self, notify):
        return self

    def watch(self, channel):
        pass

    def unwatch(self, channel):
        pass

    async def run(self):
        await asyncio.Event().wait()


class Counter(Feed):
    """Its version is a value the test sets; the first render waits for a gate."""

    name = "counter"

    def __init__(self):
        self.value = "0"
        self.calls = 0
        self.gate = threading.Event()

    def open(self, viewer, args):
        return Opened(channels=("counter",), key=("one audience",))

    def render(self, viewer, state, since):
        self.calls += 1
        seen = self.value
        if self.calls == 1:
            self.gate.wait(5)
        return Rendered(seen) if since == seen else Rendered(seen, {"v": seen})


async def _settle():
    for _ in range(50):
        await asyncio.sleep(0.01)


def _values(reader) -> list[str]:
    out = []
    while not reader.queue.empty():
        message = reader.queue.get_nowait()
        out.append(json.loads(message.payload.decode().split("data: ", 1)[1])["v"])
    return out


def test_a_stale_render_does_not_hide_the_next_change(monkeypatch):
    monkeypatch.setattr(backends, "current", lambda: Quiet())
    feed = Counter()
    viewer = Viewer(user=AnonymousUser(), language="en", zone="UTC")

    async def scenario():
        hub = live_hub.Hub()
        sub = Subscription(spec="counter", feed=feed, since="0")
        reader = live_hub.Reader({"counter": "0"})
        opened = await hub.open(sub, viewer)
        joining = asyncio.create_task(hub.join(reader, sub, opened, viewer))
        await _settle()  # her first render has read "0" and waits
        feed.value = "1"
        hub.notify("counter")  # the group renders "1" and sends it to her
        await _settle()
        feed.gate.set()  # her first render ends, saying "0": stale by now
        await joining
        first = _values(reader)
        feed.value = "0"  # back to where it was
        hub.notify("counter")
        await _settle()
        await hub.stop()
        return first, _values(reader)

    first, then = asyncio.run(scenario())
    assert first == ["1"]
    assert then == ["0"]  # before the fix she was taken to have "0" already, and missed it
