"""Players join by button, the organiser adds two guests, checks people in and starts;
the tournament form at 390 px shows only the chosen format's options."""

import pytest

from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)


def _width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def _row(page, name: str):
    return page.locator(f"[name={name}]").locator("xpath=ancestor::p[1]")


def test_join_guests_check_in_and_start(live_server, browser_page):
    page, base = browser_page, live_server.url
    page.set_viewport_size({"width": 390, "height": 844})
    UserFactory(username="olga")
    for name in ("ann", "ben", "cyril"):
        HumanPlayerFactory(user__username=name)

    # The form: options follow the format, at phone width.
    log_in(page, base, "olga")
    page.goto(f"{base}/tournaments/new/")
    page.select_option("select[name=format]", "swiss")
    assert _row(page, "rounds").is_visible() and _row(page, "double").is_hidden()
    assert _row(page, "grand_final_reset").is_hidden()
    page.select_option("select[name=format]", "double_elimination")
    assert _row(page, "grand_final_reset").is_visible() and _row(page, "rounds").is_hidden()
    page.select_option("select[name=format]", "league")
    assert _row(page, "double").is_visible() and _row(page, "round_days").is_visible()
    assert _row(page, "rounds").is_hidden() and _row(page, "third_place").is_hidden()
    assert _width(page) <= 390
    page.fill("input[name=name]", "Thursday league")
    page.select_option("select[name=game]", "yspahan")
    page.fill("input[name=table_size]", "2")
    page.check("input[name=over_the_board]")
    page.uncheck("input[name=rated]")
    page.check("input[name=check_in]")
    page.fill("input[name=venue]", "Klub U Karavany")
    page.fill("input[name=entry_limit]", "6")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/tournaments/new/" not in url)
    t = Tournament.objects.get(name="Thursday league")
    assert t.format == "league" and t.check_in and t.entry_limit == 6
    detail = f"{base}/tournaments/{t.pk}/"

    # Players join by button; two check in themselves, cyril doesn't.
    for name in ("ann", "ben", "cyril"):
        page.context.clear_cookies()
        log_in(page, base, name)
        page.goto(detail)
        page.click("#join")
        page.wait_for_selector("#leave")
        if name != "cyril":
            page.click("#check-in")
            page.wait_for_selector("#entering .checked-in")
        assert _width(page) <= 390

    # The organiser adds two guests, checks them in and starts.
    page.context.clear_cookies()
    log_in(page, base, "olga")
    page.goto(detail)
    for guest in ("Jana Nováková", "Petr"):
        page.fill("#guest-name", guest)
        page.click("#add-guest")
        page.wait_for_selector(f"text=Guest {guest} entered")
    for guest in ("Jana Nováková", "Petr"):
        if not page.locator("section.organiser details[open]").count():
            page.click("section.organiser details > summary")
        item = page.locator("section.organiser details li", has_text=guest)
        item.locator("button.check-in").click()
        page.wait_for_selector(f"text={guest} checked in.")
    assert _width(page) <= 390
    page.click("#start")
    page.wait_for_selector(".tournament-status[data-status=running]")
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    seated = {
        str(s.entry.player)
        for table in t.rounds.get(number=1).tables.all()
        for s in table.seats.select_related("entry__player")
    }
    byes = {
        str(b.entry.player) for b in t.rounds.get(number=1).byes.select_related("entry__player")
    }
    assert seated | byes == {"ann", "ben", "Jana Nováková", "Petr"}
    assert t.entries.get(player__name="cyril").withdrawn_after == 0
    assert _width(page) <= 390
    page.goto(f"{base}/tournaments/mine/")
    page.wait_for_selector("text=result missing")  # over the board: the organiser types them in
    assert _width(page) <= 390
