"""A phone layout for the boards (issue #28, "A phone layout"): at 390 x 844 the match
page never pans sideways, its board fits the screen's width with no SVG text under
11 px; at 1280 px the viewer's own panel stands at the top, beside or above the map."""

import pytest

from games import services as game_services
from games.engines.registry import ENGINES
from tests.browser.board_positions import at_decision
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

# Every element a person can pan sideways (its content wider than its box, scrollable: a
# clipped `overflow: hidden` box such as .visually-hidden cannot be panned), the page too.
SIDEWAYS = """
() => [document.documentElement, ...document.querySelectorAll('body *')]
  .filter(el => el.scrollWidth > el.clientWidth + 1
                && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)
                || el === document.documentElement && el.scrollWidth > el.clientWidth)
  .map(el => [el.tagName + (el.id ? '#' + el.id : '') + '.' + (el.getAttribute('class') || ''),
              el.scrollWidth, el.clientWidth])
"""
# Each shown text's font size times the scale from SVG units to screen px.
SVG_TEXT_PX = """
() => [...document.querySelectorAll('#board svg text')]
  .filter(t => t.textContent.trim() && t.getBoundingClientRect().height > 0)
  .map(t => { const m = t.getScreenCTM();
    return [Math.round(parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b) * 100) / 100,
            t.textContent.trim().slice(0, 30)]; })
"""


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_the_match_page_fits_a_390_px_phone(live_server, browser_page, slug):
    alice = HumanPlayerFactory(user__username="alice")
    browser = browser_page.context.browser
    for skip in (0, 4):
        match = at_decision(alice, slug, seed=21 + skip, skip=skip)
        for locale in ("en-GB", "cs-CZ"):
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                locale=locale,
            )  # fmt: skip
            page = context.new_page()
            try:
                log_in(page, live_server.url, "alice")
                page.goto(f"{live_server.url}/matches/{match.pk}/")
                page.wait_for_selector("#board [data-target].legal", state="attached")
                assert page.evaluate(SIDEWAYS) == [], (slug, skip, locale)
                board = page.locator("#board").bounding_box()
                assert board["x"] >= 0 and board["x"] + board["width"] <= 390
                for box in page.locator("#board svg").all():
                    b = box.bounding_box()
                    assert b["x"] >= 0 and b["x"] + b["width"] <= 390, (slug, b)
                sizes = page.evaluate(SVG_TEXT_PX)
                assert len(sizes) > 10, (slug, sizes)
                small = [s for s in sizes if s[0] < 11]
                assert not small, (slug, skip, locale, small)
            finally:
                context.close()


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_the_replay_fits_a_390_px_phone(live_server, browser_page, slug):
    alice = HumanPlayerFactory(user__username="alice")
    match = at_decision(alice, slug, seed=5, skip=2)
    # A replay opens once the match is over: alice resigns mid-game.
    match = game_services.resign(match_id=match.pk, user=alice.user)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?ply={match.ply}")
    page.wait_for_selector("#replay .board-set svg", state="attached")
    assert page.evaluate(SIDEWAYS) == []
    assert not [s for s in page.evaluate(SVG_TEXT_PX.replace("#board", "#replay")) if s[0] < 11]


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_the_own_panel_stands_at_the_top_at_1280_px(live_server, browser_page, slug):
    """Today's Silk Road hand stood at y 1310 of 1487: the viewer's own panel (hand, chips,
    dice tower) now starts on the first screen, no lower than the map."""
    alice = HumanPlayerFactory(user__username="alice")
    match = at_decision(alice, slug, seed=9, skip=1)
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("#board [data-target].legal", state="attached")
    own = page.locator("#board .board-own").bounding_box()
    board_map = page.locator("#board .board-map").bounding_box()
    assert own["y"] < 400 and own["y"] <= board_map["y"], (own, board_map)
    assert page.evaluate(SIDEWAYS) == []
    assert not [s for s in page.evaluate(SVG_TEXT_PX) if s[0] < 11]
