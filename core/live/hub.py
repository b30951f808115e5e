"""One hub a web process: its readers grouped by feed and audience, one render per group
and version, written to every reader of the group.

A reader is one open stream (one browser tab). It joins a group per feed it names; the
group keeps the version its readers were last brought to. When a channel of the group is
announced, the group renders once (in a thread: templates and the ORM are synchronous),
from its version, and queues the message for each reader at that version; a reader at
another version (it joined or resumed meanwhile) gets a render of its own. Announcements
that arrive while a group renders are folded into one more render.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone, translation

from core.live import backends
from core.live.feeds import Opened, Rendered, Subscription

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    spec: str
    version: str
    payload: bytes  # "event: …\ndata: …\n" (the id line is the reader's own)


class Reader:
    """One stream's queue; it is closed (and the browser reconnects and resumes from its
    Last-Event-ID) when it falls LIVE_READER_QUEUE messages behind."""

    def __init__(self, since: dict[str, str | None]):
        self.queue: asyncio.Queue = asyncio.Queue(maxsize=settings.LIVE_READER_QUEUE)
        self.at: dict[str, str | None] = dict(since)  # the version queued, per spec
        self.written: dict[str, str | None] = dict(since)  # ... and written, for the id
        self.groups: list[Group] = []  # the groups it joined (left when it closes)

    def put(self, message: Message) -> None:
        self.at[message.spec] = message.version
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.queue = asyncio.Queue(maxsize=1)  # wakes the writer, which closes
            self.queue.put_nowait(None)

    def event_id(self) -> str:
        return " ".join(f"{spec}@{v}" for spec, v in self.written.items() if v is not None)


class Group:
    def __init__(self, gkey: tuple, feed, opened: Opened, viewer):
        self.gkey, self.feed, self.opened, self.viewer = gkey, feed, opened, viewer
        self.readers: dict[Reader, str] = {}  # reader -> its spec for this feed
        self.version: str | None = None
        self.rendering = False
        self.dirty = False
        self.catch_ups: dict[str | None, asyncio.Task] = {}  # valid at this version only
        self.encoded: dict[tuple[str, str], bytes] = {}  # the last message's bytes, per spec


def encode(spec: str, message: dict) -> bytes:
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return f"event: {spec}\ndata: {data}\n".encode()


def _render_sync(feed, viewer, state, since) -> Rendered:
    try:
        with translation.override(viewer.language), timezone.override(viewer.zone):
            return feed.render(viewer, state, since)
    finally:
        close_old_connections()  # a pooled connection goes back after each render


def _open_sync(feed, viewer, args) -> Opened:
    try:
        with translation.override(viewer.language), timezone.override(viewer.zone):
            return feed.open(viewer, args)
    finally:
        close_old_connections()


class Hub:
    def __init__(self):
        self.groups: dict[tuple, Group] = {}
        self.by_channel: dict[str, set[Group]] = defaultdict(set)
        self._listener = None
        self._task: asyncio.Task | None = None
        self._refreshes: set[asyncio.Task] = set()

    # -- the listener -------------------------------------------------------------
    def _ensure_listening(self) -> None:
        if self._task is None or self._task.done():
            self._listener = backends.current().listener(self.notify)
            for channel in self.by_channel:
                self._listener.watch(channel)
            self._task = asyncio.get_running_loop().create_task(self._listener.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def notify(self, channel: str) -> None:
        for group in list(self.by_channel.get(channel, ())):
            task = asyncio.get_running_loop().create_task(self._refresh(group))
            self._refreshes.add(task)
            task.add_done_callback(self._refreshes.discard)

    # -- readers ------------------------------------------------------------------
    async def open(self, sub: Subscription, viewer) -> Opened:
        return await asyncio.to_thread(_open_sync, sub.feed, viewer, sub.args)

    async def join(self, reader: Reader, sub: Subscription, opened: Opened, viewer) -> None:
        self._ensure_listening()
        gkey = (sub.feed.name, opened.key)
        group = self.groups.get(gkey)
        if group is None:
            group = self.groups[gkey] = Group(gkey, sub.feed, opened, viewer)
            for channel in opened.channels:
                if not self.by_channel[channel]:
                    self._listener.watch(channel)
                self.by_channel[channel].add(group)
        group.readers[reader] = sub.spec
        reader.groups.append(group)
        if group.version is not None and sub.since == group.version:
            return
        rendered = await self._catch_up(group, sub.since)
        if group.version is None:
            group.version = rendered.version
        self._deliver(reader, sub.spec, sub.since, rendered)
        at = reader.at.get(sub.spec)
        if group.version != at:  # the group moved on while this was rendered (rare)
            self._deliver(reader, sub.spec, at, await self._render(group, at))

    async def _catch_up(self, group: Group, since: str | None) -> Rendered:
        """One render for every reader joining the group at `since` until the group's
        version moves (a crowd arriving, or reconnecting after a restart, from one page)."""
        task = group.catch_ups.get(since)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._render(group, since))
            group.catch_ups[since] = task
        return await asyncio.shield(task)  # a reader that leaves does not cancel it

    def leave(self, reader: Reader) -> None:
        for group in reader.groups:
            if group.readers.pop(reader, None) is None or group.readers:
                continue
            if self.groups.get(group.gkey) is group:
                del self.groups[group.gkey]
            for channel in group.opened.channels:
                readers = self.by_channel.get(channel)
                if readers is None:
                    continue
                readers.discard(group)
                if not readers:
                    del self.by_channel[channel]
                    if self._listener is not None:
                        self._listener.unwatch(channel)

    # -- rendering ----------------------------------------------------------------
    async def _render(self, group: Group, since: str | None) -> Rendered:
        return await asyncio.to_thread(
            _render_sync, group.feed, group.viewer, group.opened.state, since
        )

    def _deliver(self, reader: Reader, spec: str, since: str | None, rendered: Rendered) -> None:
        """Queue a render made from `since` for a reader, unless she has moved on from
        there meanwhile (another render reached her first): then it is stale, and the
        announcement of whatever it would add brings a refresh of its own."""
        if reader.at.get(spec) != since:
            return
        if rendered.message is not None and rendered.version != since:
            reader.put(Message(spec, rendered.version, encode(spec, rendered.message)))
        else:
            reader.at[spec] = rendered.version

    async def _refresh(self, group: Group) -> None:
        if group.rendering:
            group.dirty = True
            return
        group.rendering = True
        try:
            while True:
                group.dirty = False
                since = group.version
                try:
                    rendered = await self._render(group, since)
                except Exception:
                    log.exception("live: render of %s failed", group.feed.name)
                    return
                if rendered.version != since:
                    group.version = rendered.version
                    group.catch_ups = {}
                    others: dict[str | None, Rendered] = {}
                    for reader, spec in list(group.readers.items()):
                        at = reader.at.get(spec)
                        if at == rendered.version:
                            continue
                        if at == since:  # the usual case: one render for all of them
                            if rendered.message is None:
                                reader.at[spec] = rendered.version
                            else:
                                payload = _payload(spec, rendered, group)
                                reader.put(Message(spec, rendered.version, payload))
                            continue
                        if at not in others:  # joined or resumed at another version
                            others[at] = await self._render(group, at)
                        self._deliver(reader, spec, at, others[at])
                if not group.dirty:
                    return
        finally:
            group.rendering = False


def _payload(spec: str, rendered: Rendered, group: Group) -> bytes:
    """The message's bytes, encoded once per spec and version for the whole group."""
    cache = group.encoded
    key = (spec, rendered.version)
    if key not in cache:
        cache.clear()
        cache[key] = encode(spec, rendered.message)
    return cache[key]


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """This event loop's hub (one a process under uvicorn; tests may run several loops)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        for old in [lp for lp in _hubs if lp.is_closed()]:
            del _hubs[old]
        _hubs[loop] = Hub()
    return _hubs[loop]
