"""An organiser creates a tournament, adds entrants, starts it and watches the standings fill."""

import pytest

from config.worker_process import celery_worker
from tests.browser.conftest import log_in
from tests.games.factories import EngineBotFactory, UserFactory
from tournaments.models import Tournament, TournamentStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def test_organiser_runs_a_tournament_from_the_pages(live_server, browser_page):
    page = browser_page
    UserFactory(username="olga")
    bots = [EngineBotFactory(bot_name="random") for _ in range(4)]
    log_in(page, live_server.url, "olga")
    page.goto(f"{live_server.url}/tournaments/new/")
    page.fill("input[name=name]", "Tuesday club")
    page.select_option("select[name=game]", "silkroad")
    page.select_option("select[name=format]", "round_robin")
    page.fill("input[name=table_size]", "2")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/tournaments/new/" not in url)
    for bot in bots:  # the member search (online: bots too), a match clicked
        page.fill("#member-search", bot.name)
        page.click(f"#member-results button.member-pick[value={bot.name}]")
        page.wait_for_selector(f"text={bot.name} entered")
    with celery_worker():
        page.click("#start")  # asks first
        page.click("#confirm")
        # The tournament's own status line (a finished round also says "Finished").
        page.wait_for_selector(".tournament-status[data-status=finished]", timeout=120_000)
        standings = page.locator("table.standings tbody tr")
        assert standings.count() == 4
    t = Tournament.objects.get(name="Tuesday club")
    assert t.status == TournamentStatus.FINISHED and t.rounds.count() == 3
