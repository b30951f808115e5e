"""Issue #29, part 7: the tournament page on a 390 x 844 phone, logged in as an entrant:
her own table (#my-table) is on the first screen; nothing pans sideways unless it can be
focused and says so; the bracket is a list of rounds in readable text (>= 14 px).

SCREENSHOTS=1 saves docs/screenshots/tournament-my-table-390-en.png and bracket-390-en.png."""

import os
from pathlib import Path

import pytest

from tests.browser.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

# Boxes that pan sideways: each must be focusable (static/js/scroll-regions.js) and named or
# described (the standings' visible hint).
PANNING = """() => [...document.querySelectorAll('body *')].filter(el => {
    const s = getComputedStyle(el);
    return (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth;
}).map(el => ({what: el.tagName + '.' + el.className + ' ' + (el.getAttribute('aria-describedby') || '') + ' ' + el.scrollWidth + '>' + el.clientWidth, focusable: el.tabIndex >= 0,
               named: el.hasAttribute('aria-label') || el.hasAttribute('aria-describedby'),
               hint: (() => { const id = el.getAttribute('aria-describedby');
                              const h = id && document.getElementById(id);
                              return !h || h.getClientRects().length > 0; })()}))"""

SMALLEST_TEXT = """(sel) => Math.min(...[...document.querySelectorAll(sel + ' *')]
    .filter(el => el.getClientRects().length && [...el.childNodes].some(
        n => n.nodeType === 3 && n.textContent.trim()))
    .map(el => parseFloat(getComputedStyle(el).fontSize)))"""


def _event(format: str, n: int, names: list[str]):
    from tests.games.factories import HumanPlayerFactory, UserFactory
    from tournaments import services

    organiser = UserFactory()
    t = services.create_tournament(
        name="Club night", game="silkroad", format=format, organiser=organiser,
        over_the_board=True, auto_advance=False, rated=False, config={"table_size": 2}, seed=5,
    )  # fmt: skip
    players = [HumanPlayerFactory(user__username=name) for name in names[:n]]
    for p in players:
        services.add_entry(tournament=t, player=p)
    rnd = services.start_tournament(tournament=t)
    services.start_round(round_=rnd)
    return t, players, rnd


NAMES = ["alice", "bartholomew_longname", "cecilia_vanderberg", "dominik", "evzen_novotny",
         "frantiska", "gustav", "hedvika_prochazkova", "ignac", "jarmila"]  # fmt: skip


def _phone(browser_page):
    browser_page.set_viewport_size({"width": 390, "height": 844})
    return browser_page


def _round_two_as_alice(live_server, browser_page, format_name: str, n: int):
    """Round 1 played (the first seat wins), round 2 started; alice's phone on the page."""
    from tournaments import services

    t, players, rnd = _event(format_name, n, NAMES)
    for table in rnd.tables.all():
        services.record_result(table=table, ranks=[1, 2])
    services.start_round(round_=services.pair_next_round(tournament=t))
    page = _phone(browser_page)
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    return t, page


def test_my_table_first_and_no_unhinted_panning(live_server, browser_page):
    # round 1 played, round 2 paired and started: standings with tie-breaks, a table of hers
    t, page = _round_two_as_alice(live_server, browser_page, "swiss", 10)
    page.wait_for_selector("#my-table")
    box = page.locator("#my-table").bounding_box()
    assert box["y"] + box["height"] <= 844, box  # whole on the first screen
    assert page.locator("#my-table a.button").is_visible()
    assert page.locator(".table-card.mine").count() == 2  # her tables in rounds 1 and 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The standings fit without tie-breaks: rank, player and points only.
    assert page.locator(".standings th.tb").first.is_hidden()
    panning = page.evaluate(PANNING)
    assert [p for p in panning if "table-scroll" in p["what"]] == [], panning
    assert all(p["focusable"] and p["named"] and p["hint"] for p in panning), panning
    if os.environ.get("SCREENSHOTS"):
        page.screenshot(path=str(SHOTS / "tournament-my-table-390-en.png"))
    # The tie-breaks on demand: then the table may pan, hinted and focusable.
    page.check(".show-tiebreaks")
    assert page.locator(".standings th.tb").first.is_visible()
    page.wait_for_timeout(300)  # the toggle (a change event) marks the widened table
    panning = page.evaluate(PANNING)
    assert all(p["focusable"] and p["named"] and p["hint"] for p in panning), panning
    assert page.locator("#my-table").count() == 1


def test_the_bracket_is_a_readable_list_of_rounds_on_a_phone(live_server, browser_page):
    t, page = _round_two_as_alice(live_server, browser_page, "single_elimination", 8)
    page.wait_for_selector(".bracket-list")
    assert page.locator(".bracket-picture").is_hidden()
    assert page.locator(".bracket-list-round").count() == 3  # quarter-, semifinals, final
    assert page.evaluate(SMALLEST_TEXT, ".bracket-list") >= 14
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert all(p["focusable"] and p["named"] for p in page.evaluate(PANNING))
    if os.environ.get("SCREENSHOTS"):
        page.locator(".bracket-list").scroll_into_view_if_needed()
        page.evaluate("document.querySelector('.bracket-list').previousElementSibling"
                      ".previousElementSibling.scrollIntoView()")  # fmt: skip
        page.screenshot(path=str(SHOTS / "bracket-390-en.png"))
    # wide screens keep the picture
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator(".bracket-picture svg").is_visible()
    assert page.locator(".bracket-list").is_hidden()
