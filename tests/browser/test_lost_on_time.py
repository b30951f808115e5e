"""A clock that runs out loses the game (#28), for real: a Celery worker plays the bot and
enforces the deadline, and the match page, polling as it does, says what happened."""

import time

import pytest

from config.worker_process import celery_worker, wait_for
from games import services
from games.models import MatchStatus
from tests.browser.conftest import log_in
from tests.games.factories import EngineBotFactory, HumanPlayerFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def test_a_player_who_never_moves_loses_on_time_and_the_pages_say_so(live_server, browser_page):
    page = browser_page
    pat = HumanPlayerFactory(user__username="pat")
    bot = EngineBotFactory(bot_name="random")
    log_in(page, live_server.url, "pat")
    with celery_worker() as worker:
        started = time.monotonic()
        match = services.create_match(game="silkroad", players=[pat, bot], seed=3,
                                      time_control={"initial_s": 1, "increment_s": 2})  # fmt: skip
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        # Pat never moves: the page shows the end once the worker has applied it.
        banner = page.wait_for_selector("#time-banner", timeout=30_000)
        assert "pat lost on time" in banner.inner_text()
        wait_for(lambda: match.__class__.objects.get(pk=match.pk).status == MatchStatus.FINISHED,
                 timeout=5, what="the match end", worker=worker)  # fmt: skip
        elapsed = time.monotonic() - started
    assert elapsed < 30
    match.refresh_from_db()
    assert match.finish_reason == "time"
    mine = match.seats.get(player=pat)
    assert mine.rank == 2 and mine.forfeit_reason == "time"
    assert match.seats.get(player=bot).rank == 1
    page.wait_for_selector("#result-banner")
    assert page.locator("#your-move").count() == 0
    # Her clock reads as a clock, stopped at zero (the increment gave her nothing back).
    row = page.locator("table.seats tr", has_text="pat")
    assert "0:00" in row.inner_text()
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/")
    assert "pat lost on time" in page.inner_text("#time-banner")


def _seconds(text: str) -> int:
    """A clock's text back in seconds: m:ss, h:mm:ss or "d d hh:mm:ss"."""
    days = 0
    if "d" in text:
        head, _d, text = text.replace("\u00a0", " ").partition(" d ")
        days = int(head)
    parts = [int(p) for p in text.strip().split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return days * 86400 + parts[0] * 3600 + parts[1] * 60 + parts[2]


@pytest.mark.parametrize(
    "time_control, pattern, start_s",
    [
        ({"initial_s": 3700}, r"^1:01:[34]\d$", 3700),
        ({"per_move_s": 2 * 86400}, "^(2\u00a0d\u00a000:00:00|1\u00a0d\u00a023:59:[45]\\d)$",
         2 * 86400),
    ],
)  # fmt: skip
def test_the_running_clock_reads_as_a_clock_and_only_goes_down(
    live_server, browser_page, time_control, pattern, start_s
):
    import re

    page = browser_page
    pat, bob = HumanPlayerFactory(user__username="pat"), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[pat, bob], seed=3,
                                  time_control=time_control, consented=True)  # fmt: skip
    log_in(page, live_server.url, "pat")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    readings = []
    for _ in range(8):  # across several of the page's refreshes
        text = page.inner_text("span.clock[data-deadline]")
        assert re.match(pattern, text), text
        readings.append(_seconds(text))
        page.wait_for_timeout(400)
    assert readings == sorted(readings, reverse=True), readings
    assert start_s - 10 < readings[-1] < readings[0] <= start_s
