"""Small helpers the browser tests share: screenshots on request, the page's width, typing a
table's result in, waiting on pushed pages."""

from __future__ import annotations

import os
import time
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


def until(page, function: str, expected=True, timeout: float = 10.0):
    """Poll the JavaScript `function` in the page until it returns `expected`
    (page.wait_for_function compiles a string, which the Content-Security-Policy forbids)."""
    deadline = time.monotonic() + timeout
    while (value := page.evaluate(function)) != expected:
        assert time.monotonic() < deadline, f"{function} gave {value!r}, not {expected!r}"
        page.wait_for_timeout(50)


def watch_pushed(page, url: str) -> list[str]:
    """Open `url` and wait for its push stream (static/js/live-stream.js) to be open; returns
    the list the page's later requests are added to."""
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    until(page, "() => !!(window.caravanLive && window.caravanLive.open)")
    requests.clear()  # from here on: only what the open page asks for
    return requests


def signed_in(page, server: str, user) -> None:
    """Give the page's browser context `user`'s session (made by Django's test client)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    host = server.removeprefix("http://").split(":")[0]
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "domain": host, "path": "/"}])  # fmt: skip
