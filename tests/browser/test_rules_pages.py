"""The rules pages in a real browser: on a 390 px phone nothing scrolls sideways and the
board is drawn at the screen's width; the home page's game names lead to them."""

import pytest

from games.engines.registry import ENGINES
from tests.browser.pages import page_width, shot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["en", "cs"])
def test_rules_pages_fit_a_390_px_phone(live_server, browser_page, language):
    page = browser_page
    page.set_extra_http_headers({"Accept-Language": language})
    page.set_viewport_size({"width": 390, "height": 844})
    for game in sorted(ENGINES):
        page.goto(f"{live_server.url}/games/{game}/rules/")
        assert page.get_attribute("html", "lang") == language
        assert page_width(page) <= 390, game
        # The board's pictures are scaled into the page, none wider than the screen.
        widths = page.eval_on_selector_all(
            ".rules-board svg", "els => els.map(e => e.getBoundingClientRect().right)"
        )
        assert widths and max(widths) <= 390, (game, widths)
        assert page.locator(".rules-callout").count() == page.locator(".rules-legend li").count()
        # The contents list leads to its sections.
        page.click(".rules-toc a[href='#scoring']")
        assert page.locator("#scoring h2").is_visible()
        shot(page, f"rules-{game}-{language}-390")


def test_home_page_game_names_open_their_rules(live_server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    page.click("main table a[href='/games/greatwall/rules/']")
    page.wait_for_url(f"{live_server.url}/games/greatwall/rules/")
    assert "Great Wall" in page.locator("h1").inner_text()
    assert page.locator("section#goal").is_visible()
