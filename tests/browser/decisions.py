"""Helpers for the tests of the decision bar and keyboard play (static/js/board.js):
start a match against a bot, wait for the page's own scrolling, measure what is on screen."""

import re

from tests.browser.conftest import sign_up

GAMES = ["greatwall", "silkroad", "yspahan"]
# A decision offered: a legal board part made a button by board.js, or a choice button.
OFFERED = "#board [data-key], #board-choices button[data-choice]"


def start_against_a_bot(page, base_url: str, slug: str, username: str) -> None:
    """Sign up, start a two-player match of `slug` against the random bot (the caller runs
    a Celery worker) and land on its page."""
    sign_up(page, base_url, username)
    page.goto(f"{base_url}/play/")
    page.select_option("#id_game", slug)
    page.select_option("#id_seat_1", "random")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/\d+/$"))


def wait_for_decision(page, timeout: int = 30_000) -> bool:
    """Wait until a decision is offered (True) or the result is shown (False)."""
    found = page.wait_for_selector(f"{OFFERED}, #result-banner", state="attached",
                                   timeout=timeout)  # fmt: skip
    return found.get_attribute("id") != "result-banner"


def settle(page) -> None:
    """Wait until the page's own (smooth) scrolling has stopped."""
    last, still = None, 0
    for _ in range(60):
        now = page.evaluate(
            "() => [scrollX, scrollY, (document.getElementById('board') || {}).scrollLeft || 0]"
        )
        still = still + 1 if now == last else 0
        if still >= 3:
            return
        last = now
        page.wait_for_timeout(80)


# The share of an element a player can see: its centre inside the window, not under the
# decision bar (which may cover the bottom of a phone's screen) and, sideways, inside the
# board's own scroll box when it is on the board.
SHOWN_JS = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (!(r.width || r.height) || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  const bar = document.getElementById('your-move');
  if (bar && !bar.contains(el)) {
    const b = bar.getBoundingClientRect();
    if (x >= b.left && x <= b.right && y >= b.top && y <= b.bottom) return false;
  }
  const board = document.getElementById('board');
  if (board && board.contains(el)) {
    const b = board.getBoundingClientRect();
    if (x < b.left || x > b.right) return false;
  }
  return true;
}"""

INSIDE_JS = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""


def shown(locator) -> bool:
    return bool(locator.evaluate(SHOWN_JS))


def fully_inside(locator) -> bool:
    return bool(locator.evaluate(INSIDE_JS))


def focused(page) -> dict:
    """What has the keyboard focus: a board part (its data-target), a choice, or else."""
    return page.evaluate("""() => { const a = document.activeElement;
      return {key: a.hasAttribute('data-key'), target: a.getAttribute('data-target'),
              choice: a.hasAttribute('data-choice'), tag: a.tagName, id: a.id,
              role: a.getAttribute('role'),
              // Its name: an aria-label, else its own <title> (SVG's way of naming a part).
              name: a.getAttribute('aria-label') ||
                    ((a.querySelector(':scope > title') || {}).textContent || '')}; }""")


def ply(page) -> str:
    return page.get_attribute("#match-live", "data-ply")


def answered(old_ply: str) -> str:
    return f"#match-live:not([data-ply='{old_ply}'])"
