"""How a change announced in one process reaches the web processes that push it.

- Redis pub/sub (REDIS_URL set, production): `PUBLISH live:<channel>` after the commit;
  each web process holds one subscription per channel it has readers for.
- A table (the embedded default: SQLite and the folder broker, no server to publish
  through): `publish` writes a LiveChange row in the writer's own transaction, and each
  web process reads the new rows every LIVE_TABLE_POLL_S, one query for all its readers.

Both hand the hub (hub.py) channel names only; it renders from the database.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from urllib.parse import urlparse

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

log = logging.getLogger(__name__)


def redis_prefix() -> str:
    """Channels are named per Redis database ("live:<db>:"): pub/sub itself spans all of a
    server's databases, and two deployments (or test runs) on one server must not hear
    each other."""
    db = urlparse(settings.REDIS_URL or "").path.strip("/") or "0"
    return f"live:{db}:"


def current():
    """The backend the settings choose (LIVE_BACKEND: "redis" or "table")."""
    kind = getattr(settings, "LIVE_BACKEND", "") or ("redis" if settings.REDIS_URL else "table")
    return _BACKENDS[kind]


class RedisBackend:
    transactional = False

    def __init__(self):
        self._client = None

    def _redis(self):
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2
            )
        return self._client

    def publish(self, channels) -> None:
        pipe = self._redis().pipeline(transaction=False)
        prefix = redis_prefix()
        for channel in channels:
            pipe.publish(prefix + channel, b"1")
        pipe.execute()

    def listener(self, notify) -> RedisListener:
        return RedisListener(notify)


class RedisListener:
    """One pub/sub connection a process: subscribes to the channels in use, calls
    `notify(channel)` for each message and once for each channel it newly subscribes to
    (after a lost connection: all of them), since a change may have gone unheard."""

    def __init__(self, notify):
        self.notify = notify
        self.channels: set[str] = set()
        self._pubsub = None
        self._changed = asyncio.Event()

    def watch(self, channel: str) -> None:
        self.channels.add(channel)
        self._changed.set()

    def unwatch(self, channel: str) -> None:
        self.channels.discard(channel)
        self._changed.set()

    async def run(self) -> None:
        import redis.asyncio as aioredis

        prefix = redis_prefix()
        while True:
            client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            # (Again) from nothing: every channel in use is subscribed, then looked at.
            subscribed: set[str] = set()
            try:
                while True:
                    wanted = set(self.channels)
                    new = wanted - subscribed
                    if new:
                        await pubsub.subscribe(*[prefix + c for c in new])
                    if subscribed - wanted:
                        await pubsub.unsubscribe(*[prefix + c for c in subscribed - wanted])
                    subscribed = wanted
                    self._changed.clear()
                    # A change published between a reader's first render and this
                    # subscription went to nobody: look again once, now that it is heard.
                    for channel in new:
                        self.notify(channel)
                    if not subscribed:
                        await self._changed.wait()
                        continue
                    message = await pubsub.get_message(timeout=0.2)
                    while message is not None:
                        if message.get("type") == "message":
                            name = message["channel"].decode()
                            self.notify(name.removeprefix(prefix))
                        message = await pubsub.get_message(timeout=0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live: Redis subscription lost; again in 1 s", exc_info=True)
                await asyncio.sleep(1)
            finally:
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:
                    pass


class TableBackend:
    transactional = True

    def publish(self, channels) -> None:
        from core.models import LiveChange

        LiveChange.objects.bulk_create([LiveChange(channel=c[:120]) for c in channels])

    def listener(self, notify) -> TableListener:
        return TableListener(notify)


class TableListener:
    """Reads the LiveChange rows written since the last look, every LIVE_TABLE_POLL_S, in
    a thread, while the process has readers; prunes rows older than LIVE_TABLE_KEEP_S
    about once a minute of reading (web processes with readers keep the table short)."""

    def __init__(self, notify):
        self.notify = notify
        self.channels: set[str] = set()
        self.last_id: int | None = None
        self._pruned = 0.0

    def watch(self, channel: str) -> None:
        self.channels.add(channel)

    def unwatch(self, channel: str) -> None:
        self.channels.discard(channel)

    def _read(self) -> list[str]:
        from core.models import LiveChange

        try:
            if self.last_id is None:
                # From now on; what changed before this look is unknown: every channel in
                # use is looked at once.
                newest = LiveChange.objects.order_by("-id").values_list("id", flat=True).first()
                self.last_id = newest or 0
                return list(self.channels)
            rows = list(
                LiveChange.objects.filter(id__gt=self.last_id)
                .order_by("id")
                .values_list("id", "channel")[:5000]
            )
            if rows:
                self.last_id = rows[-1][0]
            if time.monotonic() - self._pruned > 60:
                self._pruned = time.monotonic()
                keep = timedelta(seconds=settings.LIVE_TABLE_KEEP_S)
                LiveChange.objects.filter(created_at__lt=timezone.now() - keep).delete()
            return [channel for _, channel in rows]
        finally:
            close_old_connections()

    async def run(self) -> None:
        poll = settings.LIVE_TABLE_POLL_S
        while True:
            if not self.channels:  # no reader in this process: no query either
                self.last_id = None
                await asyncio.sleep(poll)
                continue
            try:
                channels = await asyncio.to_thread(self._read)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("live: could not read the changes table", exc_info=True)
                channels = []
                await asyncio.sleep(1)
            for channel in dict.fromkeys(channels):
                if channel in self.channels:
                    self.notify(channel)
            await asyncio.sleep(poll)


_BACKENDS = {"redis": RedisBackend(), "table": TableBackend()}
