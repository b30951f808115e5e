"""Rate limits on every write: a DRF throttle for the API and helpers for pages and forms.

A limit is a scope ("match_create", "tournament_results", "login", ...) with a rate in
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``: "60/min", "10/15min" (N per period, the
period optionally a multiple of s/min/hour/day); an empty rate means no limit. Each
(scope, who) pair has a sliding window of timestamps in the default cache; "who" is the
user, or the client's address when nobody is logged in (log-in failures: per account and
address pair and per address, see ``login_blocked``). Counting is approximate under
concurrency (read, then write), as DRF's own throttles are: good enough to stop floods,
not a ledger.

When the cache fails (Redis down), the limits fail open: the write goes through, the cache
is left alone for a few seconds (a dead Redis costs each call a connection attempt), and
one warning is logged per interval, not per request.

It imports no app (games and tournaments use it; docs/architecture.md, "Who may import whom").
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import threading
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import ngettext
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

logger = logging.getLogger(__name__)

WARN_EVERY_S = 60.0  # at most one "cache down" warning per this many seconds
RETRY_CACHE_S = 5.0  # after a cache failure, limits stay open this long before trying again
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_RATE = re.compile(r"(\d+)/(\d*)([smhd])[a-z]*")


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """(requests, seconds) from "60/min" or "10/15min"; None for no limit."""
    if not rate:
        return None
    m = _RATE.fullmatch(str(rate).replace(" ", ""))
    if m is None:
        raise ImproperlyConfigured(f"Bad rate {rate!r}: write e.g. '60/min' or '10/15min'.")
    return int(m[1]), int(m[2] or 1) * _UNITS[m[3]]


def rate_for(scope: str) -> tuple[int, int] | None:
    # Read on every call, so overridden settings (tests, reloads) apply at once.
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    if scope not in rates:
        raise ImproperlyConfigured(f"No rate for the throttle scope {scope!r} in settings.")
    return parse_rate(rates[scope])


@dataclass
class _CacheHealth:
    down_until: float = float("-inf")
    last_warning: float = float("-inf")
    lock: threading.Lock = None  # type: ignore[assignment]

    def __post_init__(self):
        self.lock = threading.Lock()

    def usable(self) -> bool:
        return time.monotonic() >= self.down_until

    def failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        with self.lock:
            self.down_until = now + RETRY_CACHE_S
            if now - self.last_warning < WARN_EVERY_S:
                return
            self.last_warning = now
        logger.warning(
            "Rate limits are not enforced: the cache failed (%s: %s). Writes go through "
            "until it answers again.", type(exc).__name__, exc,
        )  # fmt: skip


_health = _CacheHealth()


def _key(scope: str, who: str) -> str:
    # Hashed: user names and addresses become short keys any cache accepts.
    return f"throttle:{scope}:{hashlib.sha256(who.encode()).hexdigest()[:32]}"


def _window(scope: str, who: str, now: float) -> tuple[int, int, list[float]] | None:
    """The rate and the timestamps still inside the window; None when not limited (no rate,
    or the cache is down: fail open)."""
    rate = rate_for(scope)
    if rate is None or not _health.usable():
        return None
    try:
        history = cache.get(_key(scope, who)) or []
    except Exception as exc:  # any cache failure: fail open
        _health.failed(exc)
        return None
    return rate[0], rate[1], [t for t in history if t > now - rate[1]]


def _wait(num: int, duration: int, history: list[float], now: float) -> float | None:
    if len(history) < num:
        return None
    if num == 0:  # "0/min": closed
        return float(duration)
    return max(1.0, history[-num] + duration - now)


def _store(scope: str, who: str, history: list[float], duration: int) -> None:
    try:
        cache.set(_key(scope, who), history, timeout=duration)
    except Exception as exc:
        _health.failed(exc)


def blocked_for(scope: str, who: str) -> float | None:
    """Seconds until ``who`` may write in ``scope`` again (None: now); counts nothing."""
    now = time.time()
    window = _window(scope, who, now)
    return None if window is None else _wait(*window, now)


def record(scope: str, who: str) -> None:
    """Count one event (e.g. a failed log-in) without checking."""
    now = time.time()
    window = _window(scope, who, now)
    if window is not None:
        _num, duration, history = window
        _store(scope, who, [*history, now], duration)


def hit(scope: str, who: str) -> float | None:
    """Check and count one write: None when allowed (and counted), else seconds to wait."""
    now = time.time()
    window = _window(scope, who, now)
    if window is None:
        return None
    num, duration, history = window
    wait = _wait(num, duration, history, now)
    if wait is None:
        _store(scope, who, [*history, now], duration)
    return wait


def client_address(request) -> str:
    """The client's address; X-Forwarded-For only as far as REST_FRAMEWORK NUM_PROXIES trusts it."""
    return BaseThrottle().get_ident(request) or "unknown"


def who(request) -> str:
    """Whose bucket a write counts in: the user's, or for a bot program its owner's (a
    person with ten bots has one set of limits, not eleven); the address when anonymous."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{_answerable(user)}"
    return f"addr:{client_address(request)}"


def _answerable(user) -> int:
    # user.player is the games app's (read through the relation: this module imports none).
    player = getattr(user, "player", None) if hasattr(user, "player") else None
    if player is not None and player.kind == "external_bot" and player.owner_id:
        return player.owner_id
    return user.pk


def too_many_message(wait_s: float) -> str:
    minutes = max(1, math.ceil(wait_s / 60))
    return ngettext(
        "Too many attempts, try again in %(n)s minute.",
        "Too many attempts, try again in %(n)s minutes.",
        minutes,
    ) % {"n": minutes}


# ---- the API -----------------------------------------------------------------------------
class ScopedWriteThrottle(BaseThrottle):
    """Limits the view's ``throttle_scope`` per user (anonymous: per address)."""

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None)
        self._wait = hit(scope, who(request)) if scope else None
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class WriteThrottleMixin:
    """Rate limits on the write actions only. ``throttle_scopes`` maps a viewset action
    (or, on a plain APIView, a lower-case HTTP method) to its scope; the rest is unlimited."""

    throttle_scopes: dict[str, str] = {}

    def get_throttles(self):
        name = getattr(self, "action", None) or self.request.method.lower()
        scope = self.throttle_scopes.get(name)
        if scope is None:
            return []
        self.throttle_scope = scope
        return [ScopedWriteThrottle()]


# ---- pages and forms -----------------------------------------------------------------------
def page_limit(request, scope: str) -> str | None:
    """Count one write from a page: the error to show when over the limit, else None."""
    wait = hit(scope, who(request))
    return None if wait is None else too_many_message(wait)


# Log-in failures (issue #31): blocked per (account, address) pair and per address, so a
# guesser is stopped where it guesses from; an account alone is never blocked, or anyone
# could lock anyone out by typing wrong passwords for her. Past its own rate an account is
# only slowed: every attempt on it, from any address, waits LOGIN_SLOW_DELAY_S (at most
# MAX_SLOW_DELAY_S) before the password is checked, right or wrong (a shorter wait for the
# right one would tell the guesser), so guessing from many addresses costs time too.
MAX_SLOW_DELAY_S = 2.0


def login_blocked(request, username: str) -> str | None:
    """The error to show when this account from this address, or this address, failed to
    log in too often (counts nothing)."""
    pair, address, _account = _login_keys(request, username)
    waits = [blocked_for("login", pair), blocked_for("login_address", address)]
    waits = [w for w in waits if w is not None]
    return too_many_message(max(waits)) if waits else None


def login_delay(username: str) -> float:
    """Seconds an attempt on this account waits first: 0 until it has failed more than its
    "login_account" rate, then LOGIN_SLOW_DELAY_S (bounded)."""
    from django.conf import settings

    if blocked_for("login_account", _account_key(username)) is None:
        return 0.0
    return max(0.0, min(MAX_SLOW_DELAY_S, float(getattr(settings, "LOGIN_SLOW_DELAY_S", 1.0))))


def login_failed(request, username: str) -> None:
    pair, address, account = _login_keys(request, username)
    record("login", pair)
    record("login_address", address)
    record("login_account", account)


def _account_key(username: str) -> str:
    return f"account:{(username or '').strip().casefold()}"


def _login_keys(request, username: str) -> tuple[str, str, str]:
    address = f"addr:{client_address(request)}"
    account = _account_key(username)
    return f"{account}|{address}", address, account
