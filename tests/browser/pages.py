"""Small helpers the browser tests share: screenshots on request, the page's width, typing a
table's result in."""

from __future__ import annotations

import os
from pathlib import Path

# Screenshots only on request (SCREENSHOTS=<folder>): not part of the check.
SHOTS = os.environ.get("SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def page_width(page) -> int:
    """How wide the page lays out: over the viewport's width, it scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth")


def type_in_wins(page, base: str, t, tables) -> None:
    """The organiser types in each two-seat table's result on its page: the first seat wins
    30 to 10."""
    for table in tables:
        page.goto(f"{base}/tournaments/{t.pk}/tables/{table.pk}/result/")
        page.fill("input[name=score_0]", "30")
        page.fill("input[name=score_1]", "10")
        page.click("#save-result")
        page.wait_for_selector(f"text={table} recorded")
