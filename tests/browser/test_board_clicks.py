"""Every real game is played from its board: a player starts a match against a bot from
the lobby and makes ten decisions by clicking highlighted parts of the board (and the
choice buttons the board leaves), never the fallback list (Chromium)."""

import re

import pytest

from config.worker_process import celery_worker
from games.engines.registry import ENGINES
from games.models import Match, MatchAction
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

DECISIONS = 10


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_ten_decisions_by_clicking_the_board(live_server, browser_page, slug):
    page = browser_page
    HumanPlayerFactory(user__username="clara")
    log_in(page, live_server.url, "clara")
    page.goto(f"{live_server.url}/play/")
    page.select_option("#id_game", slug)
    page.select_option("#id_seat_1", "random")
    with celery_worker():
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/matches/\d+/$"))
        match = Match.objects.get()
        for _ in range(DECISIONS):
            page.wait_for_selector(".board .legal, #board-choices button, .status-finished",
                                   state="attached", timeout=30_000)  # fmt: skip
            if page.locator(".status-finished").count():
                break
            ply = page.get_attribute("#match-live", "data-ply")
            sent = f"#match-live:not([data-ply='{ply}'])"
            for _step in range(20):  # click through the targets until the move is sent
                if page.locator(sent).count():
                    break
                # force: a real mouse click at the part's centre without Playwright's
                # visibility guess, which calls a wall drawn as a thin line "not visible".
                if page.locator(".board .legal").count():
                    page.locator(".board .legal").first.click(force=True)
                elif page.locator("#board-choices button").count():
                    page.locator("#board-choices button").first.click(force=True)
                page.wait_for_timeout(300)  # the answer is swapped in by htmx
            page.wait_for_selector(sent, state="attached")
    mine = MatchAction.objects.filter(match=match, source="player").count()
    assert mine >= min(DECISIONS, 3), mine
    assert page.locator("details.fallback[open]").count() == 0  # the list was never opened
