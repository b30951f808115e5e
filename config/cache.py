"""A Redis cache that degrades to a miss when Redis is unreachable.

Everything the project keeps in the cache can be recomputed or skipped: the
throttle history (so throttles fail open), the standings and fragment caches
(recomputed from the database). So when Redis is down, every cache call behaves as a
miss or a no-op instead of raising, and a warning is logged at most once a minute per
process.
After a failure Redis is not tried again for `RETRY_AFTER_S`, so a Redis that
hangs instead of refusing costs one time-out, not one per call.
"""

from __future__ import annotations

import functools
import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("config.cache")

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError)
RETRY_AFTER_S = 5.0
WARN_EVERY_S = 60.0
# How long one attempt may take: a Redis host that drops packets must not hold a request.
DEFAULT_OPTIONS = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}


class CacheUnavailable(Exception):
    """Raised inside the backend while Redis is marked down; never leaves it."""


def _degrades_to(fallback):
    """Run the Redis call; on a connection failure log (rate-limited) and return `fallback(...)`."""

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            try:
                if time.monotonic() < self._down_until:
                    raise CacheUnavailable(self.last_error)
                result = method(self, *args, **kwargs)
            except (*UNAVAILABLE, CacheUnavailable) as exc:
                self._mark_down(exc)
                return fallback(self, *args, **kwargs)
            self.last_error = None
            return result

        return wrapper

    return decorate


def _miss(self, key, default=None, version=None):
    return default


def _incr_miss(self, key, delta=1, version=None):
    raise ValueError(f"Key '{key}' not found (cache unavailable)")


# SET NX for every key in one command: a pipeline of SETs cost the bot task three
# times as long in redis-py's per-command work. Returns the 1-based positions set.
_ADD_MANY_LUA = """
local added = {}
for i, key in ipairs(KEYS) do
    local set
    if ARGV[2] == '' then set = redis.call('SET', key, ARGV[1], 'NX')
    else set = redis.call('SET', key, ARGV[1], 'NX', 'EX', ARGV[2]) end
    if set then added[#added + 1] = i end
end
return added
"""


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params):
        params = dict(params)
        params["OPTIONS"] = {**DEFAULT_OPTIONS, **params.get("OPTIONS", {})}
        super().__init__(server, params)
        self._down_until = 0.0
        self.last_error: str | None = None
        self._add_many_script = None  # made at the first add_many

    _warn_lock = threading.Lock()
    _last_warning = 0.0  # shared by every instance in the process: one warning a minute

    def _mark_down(self, exc: Exception) -> None:
        if not isinstance(exc, CacheUnavailable):
            self.last_error = f"{type(exc).__name__}: {exc}"
            self._down_until = time.monotonic() + RETRY_AFTER_S
        now = time.monotonic()
        with self._warn_lock:
            if now - ResilientRedisCache._last_warning < WARN_EVERY_S:
                return
            ResilientRedisCache._last_warning = now
        logger.warning(
            "cache unavailable, serving without it (throttles open, nothing cached): %s",
            self.last_error,
        )

    def available(self) -> bool:
        """One real round trip (ignores the back-off): for /health/."""
        try:
            self._cache.get_client(write=False).ping()
        except UNAVAILABLE as exc:
            self._mark_down(exc)
            return False
        self._down_until = 0.0
        self.last_error = None
        return True

    def _add_many(self, keys, value, timeout=DEFAULT_TIMEOUT, version=None) -> list:
        """`add` for several keys in one command: the keys that were not there (now set
        to `value`), in their order. The timeout is in seconds, or None for keys that do
        not expire. Unavailable: every key, as if each were free."""
        keys = list(keys)
        # Made, not validated: the validation warns of keys memcached would refuse, which
        # Redis takes; over a task's 40 keys it took a third of the call (0.17 ms).
        made = [self.make_key(k, version=version) for k in keys]
        if self._add_many_script is None:
            # The script keeps the client it was made with, on Django's pool: Django makes
            # a client object per call (~0.1 ms, its table of response handlers).
            client = self._cache.get_client(write=True)
            self._add_many_script = client.register_script(_ADD_MANY_LUA)
        seconds = self.get_backend_timeout(timeout)
        if seconds is not None and seconds <= 0:
            raise ValueError("add_many needs a positive timeout, or None")
        dumped = self._cache._serializer.dumps(value)
        added = self._add_many_script(keys=made, args=[dumped, seconds or ""])
        return [keys[i - 1] for i in added]

    add_many = _degrades_to(lambda self, keys, *a, **k: list(keys))(_add_many)
    get = _degrades_to(_miss)(RedisCache.get)
    add = _degrades_to(lambda self, *a, **k: False)(RedisCache.add)
    set = _degrades_to(lambda self, *a, **k: None)(RedisCache.set)
    touch = _degrades_to(lambda self, *a, **k: False)(RedisCache.touch)
    delete = _degrades_to(lambda self, *a, **k: False)(RedisCache.delete)
    get_many = _degrades_to(lambda self, *a, **k: {})(RedisCache.get_many)
    has_key = _degrades_to(lambda self, *a, **k: False)(RedisCache.has_key)
    incr = _degrades_to(_incr_miss)(RedisCache.incr)
    set_many = _degrades_to(lambda self, data, *a, **k: list(data))(RedisCache.set_many)
    delete_many = _degrades_to(lambda self, *a, **k: None)(RedisCache.delete_many)
    clear = _degrades_to(lambda self, *a, **k: False)(RedisCache.clear)
