"""The staff operations page in a real browser: fits a 390 px phone, in English and Czech.

With SCREENSHOTS=<folder> in the environment the 1280 px view is saved there as
admin-operations.png (the docs' screenshot: SCREENSHOTS=docs/screenshots)."""

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import Match
from operations.models import TaskFailure, WorkerHeartbeat
from ratings import services as rating_services
from tests.browser.conftest import log_in
from tests.games.factories import EngineBotFactory, HumanPlayerFactory, MatchFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def busy_site():
    UserFactory(username="root", is_staff=True, is_superuser=True)
    now = timezone.now()
    late = []
    for minutes in (3, 12, 47):
        match = MatchFactory.create(players=[HumanPlayerFactory(), HumanPlayerFactory()],
                                    time_control={"per_move_s": 60})  # fmt: skip
        Match.objects.filter(pk=match.pk).update(deadline=now - timedelta(minutes=minutes))
        late.append(match)
    WorkerHeartbeat.objects.create(hostname="celery@web-1", pid=4242, started_at=now - timedelta(hours=5),
                                   last_seen=now - timedelta(seconds=8), tasks=18345)  # fmt: skip
    WorkerHeartbeat.objects.create(hostname="celery@web-2", pid=977, started_at=now - timedelta(days=1),
                                   last_seen=now - timedelta(minutes=14), tasks=5120)  # fmt: skip
    WorkerHeartbeat.objects.create(hostname="celery@web-1", pid=3110, started_at=now - timedelta(hours=9),
                                   last_seen=now - timedelta(hours=5), stopped_at=now - timedelta(hours=5),
                                   tasks=40211)  # fmt: skip
    TaskFailure.objects.create(
        task="games.tasks.enforce_deadline", key=str(late[0].pk), count=4, first_at=now - timedelta(minutes=9),
        last_at=now - timedelta(minutes=1),
        last_error="EngineError: no legal action for seat 2 in phase 'market_auction_resolution_with_a_very_long_name'",
    )  # fmt: skip
    rating_services.default_pool("silkroad")
    a, b = EngineBotFactory(), EngineBotFactory()
    for _ in range(3):
        game_services.record_offline_match(game="silkroad", players=[a, b], ranks=[2, 1])
    return late


def _width(page, url: str) -> int:
    page.goto(url)
    page.wait_for_selector("#ops-pools", state="attached")
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_operations_page_fits_a_phone_in_english_and_czech(
    live_server, browser_page, busy_site
):
    page = browser_page
    log_in(page, live_server.url, "root")
    url = f"{live_server.url}/admin/operations/"

    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(url)
    assert page.locator("tr.ops-overdue").count() == 3
    assert page.locator("tr.ops-worker").count() == 3
    if os.environ.get("SCREENSHOTS"):
        page.screenshot(
            path=str(Path(os.environ["SCREENSHOTS"]) / "admin-operations.png"), full_page=True
        )

    page.set_viewport_size({"width": 390, "height": 844})
    assert _width(page, url) <= 390
    # Each cell carries its label once the table collapses into cards.
    assert page.locator("tr.ops-overdue td[data-label]").first.is_visible()
    assert page.locator("table.ops-table thead").first.is_hidden()

    page.set_extra_http_headers({"Accept-Language": "cs"})
    assert _width(page, url) <= 390
    assert page.locator("html").get_attribute("lang") == "cs"
    page.goto(f"{live_server.url}/admin/")
    assert page.locator("#operations-link a[href='/admin/operations/']").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
