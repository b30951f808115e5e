"""Every main page fits a 390 px phone without sideways scrolling; the header menu
opens there; at 1280 px the board is the page's main element."""

import pytest

from tests.browser.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def page_widths(page, base: str, paths: list[str]) -> dict[str, int]:
    widths = {}
    for path in paths:
        page.goto(base + path)
        page.wait_for_load_state("load")
        widths[path] = page.evaluate("document.documentElement.scrollWidth")
    return widths


def test_pages_fit_a_390_px_phone(live_server, browser_page, club):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    base = live_server.url
    paths = ["/", "/tournaments/", f"/tournaments/{club['tournament'].pk}/", "/ratings/silkroad/",
             "/players/alice/", "/matches/", "/accounts/login/"]  # fmt: skip
    anonymous = page_widths(page, base, paths)
    log_in(page, base, "alice")
    mine = [f"/matches/{m.pk}/" for m in club["matches"].values()]
    mine += ["/play/", "/play/mine/", "/invitations/", f"/matches/{club['finished'].pk}/",
             f"/matches/{club['finished'].pk}/replay/"]  # fmt: skip
    logged_in = page_widths(page, base, paths + mine)
    too_wide = {p: w for p, w in {**anonymous, **logged_in}.items() if w > 390}
    assert not too_wide, too_wide

    # The header collapses into a menu whose links show on the dark bar.
    page.goto(base + "/")
    play_link = page.locator("header nav a[href='/play/']")
    assert play_link.is_hidden()
    page.click("header .menu-toggle")
    assert play_link.is_visible()
    colours = page.evaluate(
        "[getComputedStyle(document.querySelector(\"header nav a[href='/play/']\")).color,"
        " getComputedStyle(document.querySelector('header')).backgroundColor]"
    )
    assert colours == ["rgb(255, 255, 255)", "rgb(59, 42, 26)"]
    header = page.locator("header").bounding_box()
    link = play_link.bounding_box()
    assert header["y"] <= link["y"] and link["y"] + link["height"] <= header["y"] + header["height"]


def test_the_board_is_the_main_element_at_1280_px(live_server, browser_page, club):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server.url, "alice")
    for match in club["matches"].values():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        board = page.locator(".board .board-set").bounding_box()
        side = page.locator(".match .side").bounding_box()
        assert board["width"] > 2 * side["width"] or board["height"] >= 700, (match.game, board)
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280


# A seat's <select> is as wide as its longest choice unless the row squeezes it (then
# the choices are cut): its width against a free copy's, and the longest choice.
SEAT_SELECT_FIT = """
() => {
  const select = document.querySelector("select[name=seat_1]");
  const free = select.cloneNode(true);
  free.style.cssText = "position: absolute; left: 0; top: 0; max-width: none; width: auto; visibility: hidden";
  document.body.appendChild(free);
  const needed = free.getBoundingClientRect().width;
  free.remove();
  const longest = Array.from(select.options).map(o => o.text).sort((a, b) => b.length - a.length)[0];
  return [Math.round(select.getBoundingClientRect().width), Math.round(needed), longest];
}
"""
BUTTON_TOPS = "Array.from(document.querySelectorAll('#replay-controls button'))" \
    ".map(b => Math.round(b.getBoundingClientRect().top))"  # fmt: skip


def test_replay_controls_and_seat_choices_fit_a_390_px_phone(live_server, browser_page, club):
    """In English and Czech: the replay's five buttons share one row (also while playing,
    when Play reads Pause), and every seat choice in the lobby shows whole."""
    replay = f"{live_server.url}/matches/{club['finished'].pk}/replay/"
    for locale in ("en-GB", "cs-CZ"):
        for width in (390, 1280):
            page = browser_page.context.browser.new_page(
                locale=locale, viewport={"width": width, "height": 844}
            )
            log_in(page, live_server.url, "alice")
            page.goto(replay)
            tops = page.evaluate(BUTTON_TOPS)
            assert len(tops) == 5 and len(set(tops)) == 1, (locale, width, tops)
            page.click("#replay-controls [data-step=play]")
            page.wait_for_selector("#replay-controls [data-step=play][aria-pressed=true]")
            assert len(set(page.evaluate(BUTTON_TOPS))) == 1, (locale, width, "playing")
            page.click("#replay-controls [data-step=play]")
            page.goto(f"{live_server.url}/play/")
            shown, needed, longest = page.evaluate(SEAT_SELECT_FIT)
            assert shown >= needed, (locale, width, shown, needed, longest)
            page.close()


UNREACHABLE_SCROLL_BOXES = """() => [...document.querySelectorAll('body *')].filter(el => {
    const s = getComputedStyle(el);
    return (s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth
        && el.tabIndex < 0;
}).map(el => el.tagName + '.' + el.className)"""


def test_boxes_that_scroll_sideways_on_a_phone_take_the_keyboard(live_server, browser_page, club):
    """A wide table or board in a box that pans sideways can be focused and panned with the
    keyboard (axe's scrollable-region-focusable), after the live fragment's swaps too."""
    from tournaments import services as tournament_services

    tournament_services.start_tournament(tournament=club["tournament"])
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "alice")
    # The tournament's standings no longer pan on a phone (tie-breaks shown on demand, #29),
    # nor does the match page's board (it fits), but any box of theirs that pans must be
    # reachable.
    paths = [
        (f"/tournaments/{club['tournament'].pk}/", 0),
        (f"/matches/{club['matches']['silkroad'].pk}/", 0),
    ]
    for path, regions in paths:
        page.goto(live_server.url + path)
        page.wait_for_load_state("load")
        scrolling = page.evaluate("() => document.querySelectorAll('[data-scroll-region]').length")
        assert scrolling >= regions, path
        assert page.evaluate(UNREACHABLE_SCROLL_BOXES) == [], path
        page.wait_for_timeout(2500)  # a live swap or two later
        assert page.evaluate(UNREACHABLE_SCROLL_BOXES) == [], path
