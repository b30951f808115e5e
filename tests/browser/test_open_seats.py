"""Open seats in the browser: A opens a game with an open seat, B joins it from /play/,
and both see the board (A's waiting page notices the start by itself)."""

import pytest

from games.models import Match, MatchStatus
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_opens_a_seat_and_b_joins_from_the_lobby(live_server, browser_page):
    HumanPlayerFactory(user__username="alice")
    HumanPlayerFactory(user__username="bob")
    page_a = browser_page
    log_in(page_a, live_server.url, "alice")
    page_a.goto(f"{live_server.url}/play/")
    page_a.select_option("select[name=game]", "silkroad")
    page_a.select_option("select[name=seats]", "2")
    page_a.select_option("select[name=seat_0]", "me")
    page_a.select_option("select[name=seat_1]", "open")
    page_a.click("form.lobby button[type=submit]")
    page_a.wait_for_url(f"{live_server.url}/matches/*/")
    match = Match.objects.get()
    assert match.status == MatchStatus.PENDING
    assert "Open seat" in page_a.locator("table.seats").inner_text()
    assert page_a.locator(".board svg").count() == 0

    context_b = page_a.context.browser.new_context()
    page_b = context_b.new_page()
    page_b.set_default_timeout(20_000)
    log_in(page_b, live_server.url, "bob")
    page_b.goto(f"{live_server.url}/play/")
    row = page_b.locator(f"#open-game-{match.pk}")
    assert "alice" in row.inner_text() and "1" in row.inner_text()
    row.locator("button.join").click()
    page_b.wait_for_url(f"{live_server.url}/matches/{match.pk}/")
    assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING
    page_b.wait_for_selector(".board svg", state="attached")
    assert "you are seat 2" in page_b.locator(".side").inner_text()

    # A's page was waiting: it polls and shows the board without a reload.
    page_a.wait_for_selector(".board svg", state="attached")
    assert "you are seat 1" in page_a.locator(".side").inner_text()
    context_b.close()
