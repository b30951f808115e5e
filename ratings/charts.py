"""A rating chart drawn on the server as SVG (no chart library, no CDN)."""

from __future__ import annotations

from html import escape

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext


def rating_chart(
    points: list[float], *, width: int = 640, height: int = 200, label: str = ""
) -> str:
    """A line of ratings after each game, with the min/max marked."""
    pad = 30
    if not points:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">'
                f'<text x="{pad}" y="{height // 2}" fill="#666">{escape(gettext("No rated games yet."))}</text></svg>')  # fmt: skip
    lo, hi = min(points), max(points)
    span = (hi - lo) or 1.0
    step = (width - 2 * pad) / max(len(points) - 1, 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return pad + i * step, height - pad - (v - lo) / span * (height - 2 * pad)

    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, v) for i, v in enumerate(points)))
    last_x, last_y = xy(len(points) - 1, points[-1])
    games = len(points) - 1
    caption = ngettext(
        "%(pool)s %(rating)s after %(n)s game", "%(pool)s %(rating)s after %(n)s games", games
    ) % {"pool": label, "rating": number_format(points[-1], 1), "n": games}
    history = gettext("%(pool)s rating history") % {"pool": label}
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
        f'aria-label="{escape(history)}">'
        f'<rect width="{width}" height="{height}" fill="#fff"/>'
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#ccc"/>'
        f'<text x="4" y="{pad}" font-size="11" fill="#666">{hi:.0f}</text>'
        f'<text x="4" y="{height - pad}" font-size="11" fill="#666">{lo:.0f}</text>'
        f'<polyline points="{line}" fill="none" stroke="#a0522d" stroke-width="2"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3.5" fill="#a0522d"/>'
        f'<text x="{width - pad}" y="16" font-size="12" text-anchor="end">{escape(caption)}</text>'
        "</svg>"
    )
