"""Time zones in a real browser: the browser's zone reaches the server through
static/js/timezone.js and is offered on the settings page; a Prague organiser types the
planned start as 18:00 and a New York player reads it at 18:00 too, in the tournament's
zone, which the page names (tournaments.zones); the create form reads the start in the
zone picked on it (static/js/zone-field.js names it beside the field)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games.models import Player
from tests.browser.conftest import log_in
from tests.browser.pages import SHOTS, page_width, shot
from tests.games.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

NEXT = timezone.now().year + 1


def test_the_browser_zone_is_offered_and_saved(live_server, browser_page):
    base = live_server.url
    UserFactory(username="nick")
    page = browser_page.context.browser.new_page(timezone_id="America/New_York")
    log_in(page, base, "nick")
    # The cookie is set on the first page: from now on, times are New York's.
    assert {"name": "tz", "value": "America/New_York"}.items() <= next(
        c for c in page.context.cookies() if c["name"] == "tz"
    ).items()
    page.goto(f"{base}/settings/")
    assert "Pages show times in America/New_York now" in page.inner_text("main")
    hint = page.locator("[data-browser-zone-hint]")
    assert hint.is_visible() and "America/New_York" in hint.inner_text()
    page.click("[data-use-browser-zone]")
    assert hint.is_hidden()
    assert page.input_value("select[name=time_zone]") == "America/New_York"
    page.click("main button[type=submit]")
    page.wait_for_selector("text=Time zone saved.")
    assert Player.objects.get(user__username="nick").time_zone == "America/New_York"
    page.close()


def test_planned_start_typed_in_prague_read_in_new_york(live_server, browser_page):
    base = live_server.url
    olga = UserFactory(username="olga")
    UserFactory(username="nick")
    t = services.create_tournament(name="Zimní turnaj", game="silkroad", format="swiss",
                                   organiser=olga, over_the_board=True, rated=False,
                                   config={"table_size": 2})  # fmt: skip
    detail = f"{base}/tournaments/{t.pk}/"
    page = browser_page  # in Europe/Prague (tests/browser/conftest.py)
    log_in(page, base, "olga")
    page.goto(detail)
    assert page.inner_text(".planned-start-form .zone-name") == "(Europe/Prague)"
    page.fill("input[name=starts_at]", f"{NEXT}-01-15T18:00")
    page.check("input[name=auto_start]")
    page.click("#save-planned-start")
    page.wait_for_selector("text=Planned start saved.")
    t.refresh_from_db()
    assert t.starts_at == datetime(NEXT, 1, 15, 17, 0, tzinfo=ZoneInfo("UTC"))
    assert f"Jan. 15, {NEXT}, 6 p.m. (CET)" in page.inner_text(".planned-start")

    nick = browser_page.context.browser.new_page(timezone_id="America/New_York")
    log_in(nick, base, "nick")
    nick.goto(detail)
    # The tournament's zone, not his: the club's evening starts at 18:00 for everyone.
    assert f"Jan. 15, {NEXT}, 6 p.m. (CET)" in nick.inner_text(".planned-start")
    assert "times in Europe/Prague (" in nick.inner_text("#header-facts")
    nick.close()

    # The pages to look at: the settings page and the tournament page with its form.
    for lang in ("en", "cs"):
        page.set_extra_http_headers({"Accept-Language": lang})
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 844})
            for name, url in (("settings", f"{base}/settings/"), ("tournament", detail),
                              ("create", f"{base}/tournaments/new/")):  # fmt: skip
                page.goto(url)
                if name == "settings" and SHOTS:  # show the browser's-zone suggestion too
                    page.select_option("select[name=time_zone]", "Asia/Tokyo")
                assert page_width(page) <= width, (name, lang, width)
                shot(page, f"{name}-{lang}-{width}")


def test_the_create_form_reads_the_start_in_the_zone_picked_on_it(live_server, browser_page):
    base = live_server.url
    olga = UserFactory(username="olga")
    Player.objects.filter(user=olga).update(time_zone="Europe/Prague")
    page = browser_page
    log_in(page, base, "olga")
    page.goto(f"{base}/tournaments/new/")
    assert page.input_value("select[name=time_zone]") == "Europe/Prague"  # her saved zone
    hint = page.locator(".field-starts_at [data-zone-name]")
    assert hint.inner_text() == "Europe/Prague"
    page.select_option("select[name=time_zone]", "Asia/Tokyo")
    assert hint.inner_text() == "Asia/Tokyo"  # named beside the field as soon as picked
    page.fill("input[name=name]", "Tokyo evening")
    page.fill("input[name=starts_at]", f"{NEXT}-12-10T19:00")
    page.click("main button[type=submit]")
    page.wait_for_selector("#header-facts")
    t = Tournament.objects.get(name="Tokyo evening")
    assert t.time_zone == "Asia/Tokyo"
    assert t.starts_at == datetime(NEXT, 12, 10, 10, 0, tzinfo=ZoneInfo("UTC"))
    assert "times in Asia/Tokyo (JST)" in page.inner_text("#header-facts")
    assert f"Dec. 10, {NEXT}, 7 p.m. (JST)" in page.inner_text(".planned-start")
