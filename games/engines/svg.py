"""Pieces of SVG the engines' board pictures share (render.py of each game).

A board is a set of pictures (``board_set``): the map, and panels (hands, dice, supplies,
players, the key) as separate ``<svg>`` elements, so that the page's CSS can stack them
under the map on a phone and set them beside it on a laptop. Panels are at most
``PANEL_W`` units wide: on a 390 px phone they are drawn at about 1:1, so 13-unit text
stays over 11 px on screen.
"""

from __future__ import annotations

from html import escape

PANEL_W = 380


def svg_text(
    x: float, y: float, text: object, *, size: int, anchor: str, extra: str = "", digits: int = 0
) -> str:
    """A <text> element at (x, y), coordinates with ``digits`` decimals; ``extra``:
    more attributes, written as they are."""
    return (
        f'<text x="{x:.{digits}f}" y="{y:.{digits}f}" font-size="{size}" text-anchor="{anchor}" {extra}>'
        f"{escape(str(text))}</text>"
    )


def target_attr(tid: str, label: str | None = None) -> str:
    """The attributes that make an element clickable as board id ``tid``; ``label``: its
    name in words (board.js uses it as the accessible name and for a long press)."""
    out = f'data-target="{escape(tid)}"'
    if label is not None:
        out += f' data-label="{escape(label)}"'
    return out


def sentence(text: str) -> str:
    """``text`` with a capital first letter (str.capitalize would lower the rest: names)."""
    return text[:1].upper() + text[1:]


def title(label: str) -> str:
    """A <title> child: the tooltip of its parent (the same words as its data-label)."""
    return f"<title>{escape(label)}</title>"


def target_open(tid: str, label: str, tag: str = "g", extra: str = "") -> str:
    """The opening of a clickable element with its data-label and its <title>."""
    return f"<{tag} {target_attr(tid, label)}{' ' + extra if extra else ''}>{title(label)}"


def hit_line(x1: float, y1: float, x2: float, y2: float) -> str:
    """An invisible wide stroke along a thin line, to click it by: its width is set in
    screen px by the site's CSS (``.hit``, non-scaling), which no legal/picked rule touches."""
    return (
        f'<line class="hit" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="transparent" stroke-width="24" vector-effect="non-scaling-stroke" '
        f'pointer-events="stroke"/>'
    )


def hit_rect(cx: float, cy: float, w: float, h: float) -> str:
    """Invisible padding centred on (cx, cy), w x h units: a small part's larger hit area."""
    return (
        f'<rect class="hit" x="{cx - w / 2:.1f}" y="{cy - h / 2:.1f}" width="{w:.1f}" '
        f'height="{h:.1f}" fill="transparent" pointer-events="all"/>'
    )


def hit_circle(cx: float, cy: float, r: float) -> str:
    """Invisible round padding; the site's CSS may widen ``r`` on a touch screen."""
    return (
        f'<circle class="hit" cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="transparent" '
        f'pointer-events="all"/>'
    )


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines that fit ``width`` units at font ``size`` (sans-serif averages
    about 0.56 em a character; a panel's text must not run out of its picture)."""
    per_line = max(8, int(width / (0.56 * size)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


def svg_open(width: float, height: float, cls: str, label: str, top: float = 0) -> str:
    """The opening of one picture of a board set (its viewBox starting at y = ``top``),
    with a role and a name for screen readers."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 {top:.0f} {width:.0f} {height:.0f}" '
        f'font-family="sans-serif" role="group" aria-label="{escape(label)}">'
    )


def board_set(game: str, pictures: list[str]) -> str:
    """The whole board: its pictures in reading order (the map, the viewer's own panel,
    then the rest) in one element; the site's CSS places them per game and screen."""
    return f'<div class="board-set board-{escape(game)}">' + "".join(pictures) + "</div>"


def panel(cls: str, label: str, body: tuple[list[str], float], width: float, fill: str,
          pad: float = 10) -> str:  # fmt: skip
    """A side panel as its own picture (the page stacks or places it beside the map):
    ``body`` is (its parts, the y of their bottom), drawn on a ``fill`` background."""
    parts, bottom = body
    height = round(bottom + pad)
    return (
        svg_open(width, height, f"board-panel {cls}", label)
        + f'<rect width="{width}" height="{height}" fill="{fill}"/>'
        + "".join(parts)
        + "</svg>"
    )
