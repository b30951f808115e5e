"""One screen per decision: the prompt, the choices and the parts to click are seen
together without scrolling by hand, on a laptop (1280 x 800) and on a phone (390 x 844);
the page scrolls a decision's parts into view itself (static/js/board.js, match.css).

Moves are made with clicks dispatched to the parts (no scrolling by the test), so every
scroll measured is the page's own."""

import random

import pytest

from config.worker_process import celery_worker
from tests.browser.decisions import (
    GAMES,
    OFFERED,
    answered,
    fully_inside,
    ply,
    settle,
    shown,
    start_against_a_bot,
    wait_for_decision,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

TEN = 10


def decide_without_scrolling(page, rng) -> None:
    """Pick random offered parts and choices by dispatched clicks until the move is sent."""
    before = ply(page)
    for _ in range(12):
        options = page.locator("#board .legal, #board-choices button[data-choice]")
        options.nth(rng.randrange(options.count())).dispatch_event("click")
        state = page.locator(f"{answered(before)}, #board").first.get_attribute("data-picked")
        if state in ("sent", None):
            break
    page.wait_for_selector(answered(before), state="attached")


def offered(page):
    page.wait_for_timeout(150)  # board.js sets the decision up just after the swap
    settle(page)
    return page.locator(OFFERED)


@pytest.mark.parametrize("slug", GAMES)
def test_on_a_laptop_the_prompt_and_a_part_to_click_share_the_screen(
    live_server, browser_page, slug
):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 800})
    rng = random.Random(f"laptop-{slug}")
    seen = []
    with celery_worker():
        start_against_a_bot(page, live_server.url, slug, f"laptop-{slug}")
        for _ in range(TEN):
            assert wait_for_decision(page)
            parts = offered(page)
            prompt = page.locator("#board-prompt")
            assert fully_inside(prompt), (len(seen), prompt.text_content())
            on_screen = [i for i in range(parts.count()) if shown(parts.nth(i))]
            assert on_screen, f"decision {len(seen)}: nothing to click on screen"
            seen.append(page.evaluate("scrollY"))
            decide_without_scrolling(page, rng)
    print(f"\n{slug} at 1280x800: page scrolled to {seen}")


@pytest.mark.parametrize("slug", GAMES)
def test_on_a_phone_every_part_to_click_is_on_screen_or_scrolled_to(
    live_server, browser_page, slug
):
    """The first offered part is shown by the page's own scroll; each other one when the
    arrow keys reach it (the same reveal a screen reader or a keyboard gets)."""
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    rng = random.Random(f"phone-{slug}")
    counted = 0
    with celery_worker():
        start_against_a_bot(page, live_server.url, slug, f"phone-{slug}")
        for decision in range(TEN):
            assert wait_for_decision(page)
            parts = offered(page)
            assert fully_inside(page.locator("#board-prompt"))
            assert any(shown(parts.nth(i)) for i in range(parts.count())), decision
            stops = page.locator("#board [data-key]")
            if stops.count():
                page.locator("#board [data-key][tabindex='0']").focus()
                settle(page)
                for i in range(stops.count()):
                    current = page.locator("#board [data-key]:focus")
                    assert shown(current), (decision, i, current.get_attribute("aria-label"))
                    counted += 1
                    page.keyboard.press("ArrowRight")
                    settle(page)
            decide_without_scrolling(page, rng)
    print(f"\n{slug} at 390x844: {counted} legal parts checked")
