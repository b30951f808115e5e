"""A player's page fits a 390 px phone in English and Czech: the recent matches become
cards (no sideways scroll of the page or of the table) and still say every value."""

import pytest

from games import services
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)

# The page's and the matches table's overflow, measured in the page (as the other browser
# tests measure widths: an expression evaluated by Playwright, no inline script in the page).
OVERFLOW = """[document.scrollingElement.scrollWidth - innerWidth,
  document.querySelector('.recent-matches').closest('.table-wrap').scrollWidth
  - document.querySelector('.recent-matches').closest('.table-wrap').clientWidth]"""
# The first row's shown cells: [column name shown before the value (cards), the value].
CELLS = """Array.from(document.querySelectorAll('.recent-matches tbody tr:first-child td'))
  .filter(td => td.offsetParent !== null)
  .map(td => [['none', 'normal'].includes(getComputedStyle(td, '::before').content) ? '' : td.dataset.label,
              td.innerText.trim()])"""


def test_recent_matches_fit_a_phone_without_losing_values(live_server, browser_page):
    alice = HumanPlayerFactory(user__username="alice")
    rival = HumanPlayerFactory(user__username="bozena")
    for i, game in enumerate(["silkroad", "yspahan", "greatwall"] * 3):
        services.record_offline_match(game=game, players=[alice, rival, EngineBotFactory()],
                                      ranks=[1 + i % 3, 1 + (i + 1) % 3, 1 + (i + 2) % 3],
                                      scores=[100 + i, 90, 80])  # fmt: skip
    last = services.record_offline_match(game="silkroad", players=[alice, rival],
                                         ranks=[2, 1], scores=[38, 41])  # fmt: skip
    browser = browser_page.context.browser
    for locale, words in (("en-GB", ("Silk Road", "Place", "Score", "Finished")),
                          ("cs-CZ", ("Hedvábná stezka", "Umístění", "Body", "Skončeno"))):  # fmt: skip
        for width in (1280, 390):
            page = browser.new_page(locale=locale, viewport={"width": width, "height": 844})
            page.goto(f"{live_server.url}/players/alice/")
            page_over, table_over = page.evaluate(OVERFLOW)
            assert page_over <= 0 and table_over <= 0, (locale, width, page_over, table_over)
            cells = page.evaluate(CELLS)
            assert cells[0][1] == f"#{last.pk}" and cells[1][1] == words[0], (locale, width, cells)
            if width == 390:  # cards: each value after its column's name
                assert page.locator(".recent-matches thead").is_hidden()
                assert [label for label, _value in cells[2:]] == list(words[1:]), cells
            else:
                assert page.locator(".recent-matches thead").is_visible()
                assert all(label == "" for label, _value in cells), cells
            page.close()
