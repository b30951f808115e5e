"""Clocks as people read them (m:ss, h:mm:ss, days and h:mm:ss) and the sentences that say
what time did to a match's seats (templates/games/_time_banner.html)."""

from __future__ import annotations

import math

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext

from games.models import MatchStatus
from games.models.matches import FinishReason, ForfeitReason
from games.time_limits import TIMEOUTS_TO_FORFEIT

register = template.Library()


def days_format() -> str:
    # static/js/clocks.js fills the same pattern (it reads it from the running clock).
    return gettext("%(days)s d %(time)s")


def clock_text(ms) -> str:
    """Time left as m:ss, h:mm:ss past an hour, "2 d 03:00:00" past a day. Whole seconds
    rounded up, as static/js/clocks.js counts: a clock reads 0:00 only when it is empty."""
    if ms is None or ms == "":
        return ""
    total = max(0, math.ceil(int(ms) / 1000))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        hms = f"{hours:02d}:{minutes:02d}:{seconds:02d}"
        # Unbroken: a narrow clock column must not split "2 d" from its time.
        return (days_format() % {"days": days, "time": hms}).replace(" ", "\u00a0")
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


@register.filter
def clock(ms) -> str:
    """A clock's milliseconds as read: `{{ seat.clock_ms|clock }}`."""
    try:
        return clock_text(ms)
    except (TypeError, ValueError):
        return ""


@register.simple_tag
def running_clock(deadline) -> str:
    """The clock of the seat to act, counting down to `deadline` (a datetime): the time
    left now, and for static/js/clocks.js the milliseconds left when the page was made
    (the browser counts from when it got them, so its own clock's error does not show)."""
    if deadline is None:
        return ""
    left = max(0, int((deadline - timezone.now()).total_seconds() * 1000))
    return format_html(
        '<span class="clock{}" data-deadline="{}" data-left-ms="{}" data-days="{}">{}</span>',
        " low" if left < 10_000 else "", deadline.isoformat(), left, days_format(),
        clock_text(left),
    )  # fmt: skip


def _timeouts_sentence(name: str, seat) -> str:
    return ngettext(
        "%(player)s's seat was forfeited after %(count)s time-out in a row.",
        "%(player)s's seat was forfeited after %(count)s time-outs in a row.",
        seat.timeouts_in_row,
    ) % {"player": name, "count": seat.timeouts_in_row}


def time_lines(match, seats=None) -> list[str]:
    """What time did to the match's seats, one sentence each, for the banner: who lost on
    time or was forfeited for time-outs (and whether a bot plays the seat on), and a seat
    the time-out bot moved for that is close to being forfeited."""
    if match.status not in (MatchStatus.RUNNING, MatchStatus.FINISHED):
        return []
    seats = list(match.seats.select_related("player")) if seats is None else seats
    running = match.status == MatchStatus.RUNNING
    ended_by_it = match.finish_reason in (FinishReason.LOST_ON_TIME, FinishReason.FORFEIT)
    lines = []
    for s in seats:
        name = getattr(s, "label", None) or str(s.player)
        reason = s.forfeit_reason if s.forfeited else ""
        if reason == ForfeitReason.LOST_ON_TIME:
            line = gettext("%(player)s lost on time.") % {"player": name}
        elif reason == ForfeitReason.TIMEOUTS:
            line = _timeouts_sentence(name, s)
        elif reason == ForfeitReason.TIMEOUT_POLICY:
            line = gettext("%(player)s's seat was forfeited: the time for a move ran out.") % {
                "player": name
            }
        else:
            if running and s.timeouts_in_row:
                lines.append(
                    ngettext(
                        "%(player)s's time ran out %(count)s time in a row and a bot moved "
                        "instead; after %(limit)s the seat is forfeited.",
                        "%(player)s's time ran out %(count)s times in a row and a bot moved "
                        "instead; after %(limit)s the seat is forfeited.",
                        s.timeouts_in_row,
                    )
                    % {"player": name, "count": s.timeouts_in_row, "limit": TIMEOUTS_TO_FORFEIT}
                )
            continue
        if running:
            line += " " + gettext("A bot plays the seat on; it ranks last.")
        elif not ended_by_it:
            line += " " + gettext("A bot played the seat to the end; it ranks last.")
        lines.append(line)
    return lines


@register.simple_tag
def time_banner_lines(match, seats=None) -> list[str]:
    """`{% time_banner_lines match seats as lines %}`: time_lines for a template."""
    return time_lines(match, seats or None)
