"""Feeds: what a live page subscribes to.

A page names its feeds as specs, "match:12:0" (a feed's name, then its arguments), each
with the version the page shows ("match:12:0@41"). The app that owns the object registers
the feed (in its AppConfig.ready), so core never imports games or tournaments.

A feed answers two questions, both in a worker thread (they read the database):
- `open(viewer, args)`: may this viewer read it (FeedError otherwise), on which channels
  does it change, and which readers see the same thing (the audience `key`: readers with
  equal keys share one render);
- `render(viewer, state, since)`: the version now and, when it differs from `since`, the
  message that brings a reader at `since` up to it (a JSON-able dict: "html" with a
  "swap" style for htmx, or data for a script). For every key only one reader's viewer
  is used to render; so a render may depend on nothing about the viewer the key leaves
  out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

SPEC = re.compile(r"^[a-z]+(?::[A-Za-z0-9_.-]{1,40}){0,4}$")
VERSION = re.compile(r"^[A-Za-z0-9_.:-]{0,120}$")


class FeedError(Exception):
    def __init__(self, message, status: int = 400):
        super().__init__(str(message))
        self.status = status


@dataclass(frozen=True)
class Opened:
    channels: tuple[str, ...]
    key: tuple
    state: Any = None


@dataclass
class Rendered:
    version: str
    message: dict | None = None  # None: nothing to send (the reader is current)


class Feed:
    name = ""

    def open(self, viewer, args: list[str]) -> Opened:  # pragma: no cover - abstract
        raise NotImplementedError

    def render(self, viewer, state, since: str | None) -> Rendered:  # pragma: no cover
        raise NotImplementedError


FEEDS: dict[str, Feed] = {}


def register(feed: Feed) -> Feed:
    FEEDS[feed.name] = feed
    return feed


@dataclass
class Subscription:
    spec: str
    feed: Feed
    args: list[str] = field(default_factory=list)
    since: str | None = None


def parse(values: list[str], last_event_id: str = "", most: int = 4) -> list[Subscription]:
    """The `f` parameters ("spec@version") and the Last-Event-ID the browser sends back
    after a reconnect ("spec@version spec@version"), which wins for the specs it names."""
    if not values:
        raise FeedError(_("Name at least one feed (f=…)."))
    if len(values) > most:
        raise FeedError(_("At most %(n)d feeds on one stream.") % {"n": most})
    resumed = {}
    for part in last_event_id.split()[:most]:
        spec, _at, version = part.partition("@")
        if SPEC.match(spec) and VERSION.match(version):
            resumed[spec] = version
    subs, seen = [], set()
    for value in values:
        spec, _at, version = value.partition("@")
        if not SPEC.match(spec) or not VERSION.match(version) or spec in seen:
            raise FeedError(_("Not a feed: %(spec)s") % {"spec": value[:80]})
        seen.add(spec)
        name, *args = spec.split(":")
        feed = FEEDS.get(name)
        if feed is None:
            raise FeedError(_("Not a feed: %(spec)s") % {"spec": value[:80]}, status=404)
        since = resumed.get(spec, version) or None
        subs.append(Subscription(spec=spec, feed=feed, args=args, since=since))
    return subs
