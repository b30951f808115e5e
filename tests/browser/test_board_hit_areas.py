"""Every legal part of a board can be hit (issue #28, "Targets you can hit"): a click
reaches it over at least 24 x 24 px with a mouse at 1280 px, 44 x 44 px with a finger
on a 390 px phone; a Great Wall wall, a thin line, takes a click 8 px off its line."""

import pytest

from games.engines.registry import ENGINES
from tests.browser.board_positions import HIT_EXTENTS, at_decision
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def open_match(browser, base, match, *, width, height, touch=False):
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, base, "alice")
    page.goto(f"{base}/matches/{match.pk}/")
    page.wait_for_selector("#board [data-target].legal", state="attached")
    return context, page


def test_a_legal_wall_takes_a_click_8_px_from_its_line(live_server, browser_page):
    alice = HumanPlayerFactory(user__username="alice")
    match = at_decision(
        alice, "greatwall", seed=7, want=lambda ids: any(i.startswith("wall:") for i in ids)
    )
    context, page = open_match(
        browser_page.context.browser, live_server.url, match, width=1280, height=800
    )
    try:
        wall = page.locator("#board [data-target^='wall:'].legal").first
        wall.scroll_into_view_if_needed()
        tid = wall.get_attribute("data-target")
        # the wall's drawn line (not its invisible hit stroke): its middle and direction
        x1, y1, x2, y2 = page.evaluate(
            """(tid) => { const g = document.querySelector(`#board [data-target="${tid}"]`);
                const line = g.querySelector('line:not(.hit)'); const m = line.getScreenCTM();
                const p = (x, y) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f];
                return [...p(line.x1.baseVal.value, line.y1.baseVal.value),
                        ...p(line.x2.baseVal.value, line.y2.baseVal.value)]; }""",
            tid,
        )
        horizontal = abs(x2 - x1) > abs(y2 - y1)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        # 8 px off the line, a little aside from the middle (an open wall's gate is a gap)
        x, y = (cx + 10, cy + 8) if horizontal else (cx + 8, cy + 10)
        hit = page.evaluate(
            "([x, y]) => { const t = document.elementFromPoint(x, y);"
            " const el = t && t.closest('[data-target]'); return el && el.dataset.target; }",
            [x, y],
        )
        assert hit == tid
        page.mouse.click(x, y)
        picked = page.locator("#board").first.get_attribute("data-picked")
        assert picked in ("1", "sent") or page.locator("#board-choices button").count()
    finally:
        context.close()


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_every_legal_part_is_big_enough_to_hit(live_server, browser_page, slug):
    """At three decisions of a game: every legal part at 1280 px (24 px) and, with touch
    emulated, at 390 px (44 px), measured by what elementFromPoint reaches."""
    alice = HumanPlayerFactory(user__username="alice")
    browser = browser_page.context.browser
    small = []
    for skip in (0, 3, 8):
        match = at_decision(alice, slug, seed=11 + skip, skip=skip)
        for width, height, touch, need in ((1280, 800, False, 24), (390, 844, True, 44)):
            context, page = open_match(
                browser, live_server.url, match, width=width, height=height, touch=touch
            )
            try:
                if touch:
                    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
                for tid in page.evaluate(
                    "[...document.querySelectorAll('#board [data-target].legal')]"
                    ".map(e => e.dataset.target)"
                ):
                    page.locator(f"#board [data-target='{tid}']").first.scroll_into_view_if_needed()
                    extents = {t: (w, h) for t, w, h in page.evaluate(HIT_EXTENTS, 1)}
                    w, h = extents[tid]
                    if min(w, h) < need:
                        small.append((skip, width, tid, w, h))
            finally:
                context.close()
    assert not small, small
