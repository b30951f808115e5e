"""An elimination bracket as an inline SVG picture: a box per table, lines from each table to
the table its winner(s) go to; the losers' bracket of a double elimination in a band below.

Pure: it draws what ``selectors.bracket`` hands it (``Bracket``) and knows nothing of the
database. Styling is in presentation attributes, so the picture looks the same wherever
it is embedded (page, htmx fragment, saved file) without the site's stylesheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from statistics import fmean

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext


@dataclass
class Seat:
    name: str
    detail: str = ""
    """Score, place or "w/o", shown at the right edge."""
    won: bool = False
    """Goes through (or won the final)."""
    placeholder: bool = False
    """Not known yet: ``name`` says where the player will come from ("winner of SF 1")."""


@dataclass
class Box:
    key: str
    band: str
    """"W" (the main or winners' bracket), "L" (losers' bracket) or "F" (grand finals:
    placed between the bands their players come from)."""
    column: int
    label: str
    seats: list[Seat] = field(default_factory=list)
    status: str = "pending"
    """pending, playing, finished or walkover."""
    href: str | None = None
    conditional: bool = False
    """Played only if needed (a grand final reset): drawn dashed."""
    sources: list[str] = field(default_factory=list)
    """Keys of the boxes whose winners come here: the box is placed level with them."""
    order: int = 0
    """Position in its column; boxes fed by nothing are stacked by it."""
    hidden: bool = False
    """A structural bye: keeps its place in the tree (so the tree stays symmetric) but is
    not drawn."""


@dataclass
class Bracket:
    boxes: list[Box]
    links: list[tuple[str, str]]
    """(from, to): the winner(s) of table `from` play at table `to`."""
    columns: dict[tuple[str, int], str] = field(default_factory=dict)
    """Column titles by (band, column)."""
    bands: dict[str, str] = field(default_factory=dict)
    """Band titles, drawn when there is more than one band."""


BOX_W = 176
HGAP = 44
HEADER = 15
LINE = 17
VGAP = 14
MARGIN = 10
TITLE_ROW = 18
BAND_TITLE = 22
BAND_GAP = 18
NAME_CHARS = 20

STATUS_FILL = {
    "pending": "#ffffff",
    "playing": "#fff8e6",
    "finished": "#ffffff",
    "walkover": "#f4f1ec",
}
STATUS_STROKE = {
    "pending": "#cbbfae",
    "playing": "#d08a2e",
    "finished": "#8a7a66",
    "walkover": "#cbbfae",
}


def _height(box: Box) -> int:
    return HEADER + LINE * max(len(box.seats), 2) + 4


def layout(
    bracket: Bracket,
) -> tuple[dict[str, tuple[float, float]], dict[str, float], float, float]:
    """Top-left corner of every box (hidden ones too), the top of each band, width, height.

    Columns go left to right; in a column a box sits level with the middle of the boxes that
    feed it (so a two-seat bracket draws as a tree), or below the previous one when that is
    taken or nothing feeds it.
    """
    by_key = {b.key: b for b in bracket.boxes}
    centre: dict[str, float] = {}
    band_top: dict[str, float] = {}
    bands = [band for band in ("W", "L", "F") if any(b.band == band for b in bracket.boxes)]
    titled = len([band for band in bands if band != "F"]) > 1
    pitch = max((_height(b) for b in bracket.boxes), default=0) + VGAP
    top = MARGIN
    bottom = top
    for band in bands:
        boxes = [b for b in bracket.boxes if b.band == band]
        if band != "F":
            top = bottom + (BAND_TITLE if titled else 0) + TITLE_ROW
            band_top[band] = top
        for column in sorted({b.column for b in boxes}):
            previous = None
            for b in sorted((b for b in boxes if b.column == column), key=lambda b: b.order):
                fed = [centre[s] for s in b.sources if s in centre]
                if band != "F":  # within a band only its own boxes place it
                    fed = [centre[s] for s in b.sources if s in centre and by_key[s].band == band]
                want = fmean(fed) if fed else top + pitch / 2 + b.order * pitch
                if previous is not None:
                    want = max(want, previous + pitch)
                centre[b.key] = previous = want
        drawn = [centre[b.key] for b in boxes if b.band != "F"]
        if drawn:
            bottom = max(drawn) + pitch / 2 + BAND_GAP
    corners = {
        key: (_x(by_key[key].column), y - _height(by_key[key]) / 2) for key, y in centre.items()
    }
    visible = [b for b in bracket.boxes if not b.hidden]
    width = max((_x(b.column) + BOX_W for b in visible), default=0) + MARGIN
    height = max((corners[b.key][1] + _height(b) for b in visible), default=0) + MARGIN
    return corners, band_top, width, height


def _x(column: int) -> float:
    return MARGIN + column * (BOX_W + HGAP)


def _text(x: float, y: float, body: str, **attrs) -> str:
    extra = "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}"{extra}>{escape(body)}</text>'


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def render(bracket: Bracket | None) -> SafeString:
    """The picture as an ``<svg>`` element (empty string when there is nothing to draw)."""
    if bracket is None or not any(not b.hidden for b in bracket.boxes):
        return mark_safe("")
    corners, band_top, width, height = layout(bracket)
    by_key = {b.key: b for b in bracket.boxes}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket-svg" role="img" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
        f'font-family="system-ui, sans-serif" font-size="12">',
        f"<title>{escape(gettext('Bracket'))}</title>",
    ]
    if len(band_top) > 1:
        for band, top in band_top.items():
            title = bracket.bands.get(band, "")
            y = top - TITLE_ROW - 6
            out.append(_text(MARGIN, y, title, class_="bk-band", font_weight="700", font_size="13"))
    shown = {(b.band, b.column) for b in bracket.boxes if not b.hidden}
    for (band, column), title in sorted(bracket.columns.items()):
        if band in band_top and (band, column) in shown:
            out.append(_text(_x(column), band_top[band] - 5, title, class_="bk-column",
                             fill="#666666"))  # fmt: skip
    out.append('<g class="bk-links" fill="none" stroke="#8a7a66" stroke-width="1.3">')
    for source, target in bracket.links:
        a, b = by_key[source], by_key[target]
        ax, ay = corners[source]
        bx, by = corners[target]
        x1, y1 = ax + BOX_W, ay + _height(a) / 2
        x2, y2 = bx, by + _height(b) / 2
        mid = x2 - HGAP / 2 if x2 > x1 else x1 + HGAP / 2
        out.append(
            f'<path class="bk-link" data-from="{escape(source)}" data-to="{escape(target)}" '
            f'd="M{x1:.1f},{y1:.1f} H{mid:.1f} V{y2:.1f} H{x2:.1f}"/>'
        )
    out.append("</g>")
    out.append('<g class="bk-tables">')
    for b in bracket.boxes:
        if not b.hidden:
            out.append(_box(b, *corners[b.key]))
    out.append("</g></svg>")
    return mark_safe("".join(out))


def _box(b: Box, x: float, y: float) -> str:
    h = _height(b)
    parts = [f'<g class="bk-table bk-{escape(b.status)}" data-key="{escape(b.key)}">']
    dash = ' stroke-dasharray="4 3"' if b.conditional else ""
    parts.append(
        f'<rect class="bk-box" x="{x:.1f}" y="{y:.1f}" width="{BOX_W}" height="{h}" rx="4" '
        f'fill="{STATUS_FILL.get(b.status, "#ffffff")}" '
        f'stroke="{STATUS_STROKE.get(b.status, "#cbbfae")}"{dash}/>'
    )
    status = {"playing": gettext("playing"), "walkover": gettext("walkover")}.get(b.status)
    label = f"{b.label} · {status}" if status else b.label
    parts.append(_text(x + 6, y + 11, label, class_="bk-label", fill="#666666",
                       font_size="10"))  # fmt: skip
    for i, seat in enumerate(b.seats):
        base = y + HEADER + LINE * i + 12
        if i:
            parts.append(
                f'<line x1="{x:.1f}" y1="{base - 12:.1f}" x2="{x + BOX_W:.1f}" y2="{base - 12:.1f}" '
                f'stroke="#eee6da"/>'
            )
        attrs: dict = {"class_": "bk-seat" + (" bk-won" if seat.won else "")}
        if seat.won:
            attrs["font_weight"] = "700"
        if seat.placeholder:
            attrs.update(fill="#999999", font_style="italic", font_size="11")
        parts.append(_text(x + 6, base, _short(seat.name), **attrs))
        if seat.detail:
            parts.append(_text(x + BOX_W - 6, base, seat.detail, class_="bk-detail",
                               text_anchor="end", fill="#444444"))  # fmt: skip
    parts.append("</g>")
    body = "".join(parts)
    if b.href:
        return f'<a href="{escape(b.href)}">{body}</a>'
    return body


@dataclass
class ListRound:
    """One column of the bracket as the phone list shows it (templates/tournaments/
    _bracket_list.html): a heading and its drawn boxes, top to bottom."""

    title: str
    band: str
    band_title: str
    boxes: list[Box]


def as_list(bracket: Bracket | None) -> list[ListRound]:
    """The bracket as rounds of tables for narrow screens (HTML text, not the picture): the
    main or winners' bracket column by column, then the losers' bracket, then the grand
    finals; structural byes left out."""
    if bracket is None:
        return []
    out = []
    # band titles only when there are two brackets (as in the picture)
    titled = len({b.band for b in bracket.boxes if b.band != "F" and not b.hidden}) > 1
    for band in ("W", "L", "F"):
        boxes = [b for b in bracket.boxes if b.band == band and not b.hidden]
        for column in sorted({b.column for b in boxes}):
            shown = sorted((b for b in boxes if b.column == column), key=lambda b: b.order)
            title = bracket.columns.get((band, column)) or shown[0].label
            band_title = bracket.bands.get(band, "") if titled else ""
            out.append(ListRound(title, band, band_title, shown))
    return out
