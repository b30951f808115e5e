"""Players join by button, the organiser adds two guests, checks people in and starts;
the tournament form at 390 px shows only the chosen format's options; a guest is linked
to an account picked from suggestions; the planned start is set on the page."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.conftest import log_in
from tests.browser.pages import page_width, shot
from tests.games.factories import HumanPlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import entrants, scheduling

pytestmark = pytest.mark.django_db(transaction=True)


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
    assert page_width(page) <= 390
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
        assert page_width(page) <= 390

    # The organiser adds two guests, checks them in and starts.
    page.context.clear_cookies()
    log_in(page, base, "olga")
    page.goto(detail)
    for guest in ("Jana Nováková", "Petr"):
        page.fill("#guest-name", guest)
        page.click("#add-guest")
        page.wait_for_selector(f"text=Guest {guest} entered")
    # Both ticked, one click (the list stays open: no <details>); a tick is a 44 px target.
    for guest in ("Jana Nováková", "Petr"):
        item = page.locator("#entrants li", has_text=guest)
        assert item.locator("label.tick").bounding_box()["height"] >= 44
        item.locator("input[type=checkbox][name=entry]").check()
    page.click("#check-in-ticked")
    page.wait_for_selector("text=2 entrants checked in.")
    assert page.locator("#check-in-count").inner_text() == "Checked in 4 of 5"
    assert page_width(page) <= 390
    page.click("#start")  # asks first
    page.click("#confirm")
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
    assert page_width(page) <= 390
    page.goto(f"{base}/tournaments/mine/")
    # Over the board with auto advance off (the default there, #29): round 1 waits for her Start.
    page.wait_for_selector("text=is paired: start it.")
    page.goto(detail)
    page.click("#start-round")  # asks first
    page.click("#confirm")
    page.goto(f"{base}/tournaments/mine/")
    page.wait_for_selector("text=result missing")  # now she types the results in
    assert page_width(page) <= 390


def test_link_a_guest_by_picking_a_suggested_account(live_server, browser_page):
    page, base = browser_page, live_server.url
    olga = UserFactory(username="olga")
    HumanPlayerFactory(user__username="jana-novak", display_name="Jana Novák")
    HumanPlayerFactory(user__username="janek")
    HumanPlayerFactory(user__username="bohdan", display_name="Bohdan Janáček")
    t = services.create_tournament(name="Čtvrteční liga", game="yspahan", format="swiss",
                                   organiser=olga, over_the_board=True, rated=False,
                                   config={"table_size": 2})  # fmt: skip
    guest = entrants.add_guest(tournament=t, name="Jana Nováková", by=olga)
    detail = f"{base}/tournaments/{t.pk}/"
    log_in(page, base, "olga")
    box = f"#link-suggestions-{guest.pk}"
    for lang in ("en", "cs"):
        page.set_extra_http_headers({"Accept-Language": lang})
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 844})
            page.goto(detail)
            page.click(".link-guest-box summary")  # folded: one line a guest until asked
            page.locator("form.link-guest input[name=player]").press_sequentially("JAN", delay=40)
            page.wait_for_selector(f"{box} button.suggestion")
            picks = page.locator(f"{box} button.suggestion")
            # Folded names: "JAN" begins jana-novak and janek, is inside Bohdan Janáček.
            values = [picks.nth(i).get_attribute("value") for i in range(picks.count())]
            assert values == ["jana-novak", "janek", "bohdan"]
            assert page_width(page) <= width
            shot(page, f"link-picker-{lang}-{width}")
            page.fill("form.link-guest input[name=player]", "xyz")
            page.wait_for_selector(f"{box} li.none")
            assert page.locator(f"{box} button.suggestion").count() == 0
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(detail)
    page.click(".link-guest-box summary")
    page.locator("form.link-guest input[name=player]").press_sequentially("nov", delay=40)
    page.locator(f"{box} button.suggestion[value=jana-novak]").click()
    page.wait_for_selector("text=Jana Novák invited")
    guest.refresh_from_db()
    assert guest.player.kind == "guest"  # linked once she accepts
    # A typed name that is no account: said, nothing changes.
    page.click(".link-guest-box summary")
    page.fill("form.link-guest input[name=player]", "nobody-at-all")
    page.click("form.link-guest button.link[type=submit]")
    page.wait_for_selector("text=No account is called nobody-at-all.")


def test_planned_start_set_on_the_page_and_a_refused_automatic_start(live_server, browser_page):
    page, base = browser_page, live_server.url
    olga = UserFactory(username="olga")
    t = services.create_tournament(name="Páteční švýcar", game="yspahan", format="swiss",
                                   organiser=olga, over_the_board=True, rated=False,
                                   config={"table_size": 2}, check_in=True)  # fmt: skip
    entrants.add_guest(tournament=t, name="Petr", by=olga)
    detail = f"{base}/tournaments/{t.pk}/"
    log_in(page, base, "olga")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(detail)
    planned = timezone.localtime(timezone.now() + timedelta(days=2)).replace(
        hour=18, minute=30, second=0, microsecond=0
    )
    page.fill("input[name=starts_at]", planned.strftime("%Y-%m-%dT%H:%M"))
    page.check("input[name=auto_start]")
    page.click("#save-planned-start")
    page.wait_for_selector("text=Planned start saved.")
    assert "Starts automatically at" in page.inner_text(".planned-start")
    assert page_width(page) <= 390
    t.refresh_from_db()
    assert (t.starts_at, t.auto_start) == (planned, True)
    for lang in ("en", "cs"):
        page.set_extra_http_headers({"Accept-Language": lang})
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 844})
            page.goto(detail)
            shot(page, f"planned-start-{lang}-{width}")
    # The time comes with one entrant, not checked in: refused once, and said.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(minutes=1))
    assert scheduling.start_due() == {t.pk: scheduling.FAILED}
    for lang in ("en", "cs"):
        page.set_extra_http_headers({"Accept-Language": lang})
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 844})
            page.goto(detail)
            assert page.locator(".autostart-failure").count() == 1
            assert page_width(page) <= width
            shot(page, f"autostart-refused-{lang}-{width}")
            page.goto(f"{base}/tournaments/mine/")
            assert page_width(page) <= width
            shot(page, f"mine-refused-{lang}-{width}")
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto(f"{base}/tournaments/mine/")
    page.wait_for_selector("text=too few entrants (0; the format needs at least 2)")
