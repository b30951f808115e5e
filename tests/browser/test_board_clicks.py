"""Every real game is played from its board: a new player signs up, starts a two-player
match against a bot from the lobby and answers every decision by clicking highlighted
parts of the board (and the choice buttons board.js shows for what the board does not
draw), never the fallback list (Chromium).

On PostgreSQL + Redis (CI's first pass) the match is played to the end, then the result
banner and the replay are checked; on the embedded back-ends ten decisions are made,
which keeps the second pass short."""

import random
import re
import time

import pytest

from config.worker_process import celery_worker
from games.engines.registry import ENGINES
from games.models import Match, MatchStatus
from tests.browser.conftest import decide_by_clicking, sign_up, wait_for_my_decision
from tests.conftest import postgres_and_redis
from tests.games.factories import logged

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

TEN = 10
WHOLE_GAME_LIMIT = 400  # decisions; a two-player game takes about 70-140


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_a_new_player_plays_by_clicking_the_board(live_server, browser_page, slug):
    page = browser_page
    whole = postgres_and_redis()
    sign_up(page, live_server.url, f"newcomer-{slug}")
    page.goto(f"{live_server.url}/play/")
    page.select_option("#id_game", slug)
    page.select_option("#id_seat_1", "random")
    rng = random.Random(f"{slug}-14")
    decisions = clicks = 0
    started = time.monotonic()
    with celery_worker():
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/matches/\d+/$"))
        match = Match.objects.get()
        while decisions < (WHOLE_GAME_LIMIT if whole else TEN) and wait_for_my_decision(page):
            clicks += decide_by_clicking(page, rng)
            decisions += 1
        seconds = time.monotonic() - started
    print(f"\n{slug}: {decisions} decisions, {clicks} clicks, {seconds:.1f} s"
          f" ({'whole game' if whole else 'ten decisions'})")  # fmt: skip
    assert page.locator("details.fallback[open]").count() == 0  # the list was never opened
    mine = len(logged(match, seat=0, source="player"))
    assert mine == decisions and clicks >= decisions
    match.refresh_from_db()
    if not whole:
        assert decisions == TEN and match.status == MatchStatus.RUNNING
        return

    assert match.status == MatchStatus.FINISHED, (decisions, match.status)
    banner = page.locator("#result-banner")
    assert "Final result" in banner.inner_text() and f"newcomer-{slug}" in banner.inner_text()
    assert page.locator("#your-move").count() == 0
    banner.locator("text=Replay").click()
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/replay/")
    page.keyboard.press("End")
    page.wait_for_selector(f"#replay[data-ply='{match.ply}'] svg", state="attached")
    page.keyboard.press("Home")
    page.wait_for_selector("#replay[data-ply='0'] svg", state="attached")
