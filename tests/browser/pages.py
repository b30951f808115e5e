"""Small helpers the browser tests share: screenshots on request, the page's width."""

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
