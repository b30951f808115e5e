"""Pieces of SVG the engines' board pictures share (render.py of each game)."""

from __future__ import annotations

from html import escape


def svg_text(
    x: float, y: float, text: object, *, size: int, anchor: str, extra: str = "", digits: int = 0
) -> str:
    """A <text> element at (x, y), coordinates with ``digits`` decimals; ``extra``:
    more attributes, written as they are."""
    return (
        f'<text x="{x:.{digits}f}" y="{y:.{digits}f}" font-size="{size}" text-anchor="{anchor}" {extra}>'
        f"{escape(str(text))}</text>"
    )


def target_attr(tid: str) -> str:
    """The attribute that makes an element clickable as board id ``tid``."""
    return f'data-target="{escape(tid)}"'
