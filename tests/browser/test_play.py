"""A new player signs up, starts a match against a bot from the lobby, plays it to the
end by clicking the board, sees the result and steps through the replay (Chromium)."""

import re

import pytest

from config.worker_process import celery_worker
from games.engines import registry
from games.models import Match, MatchStatus
from tests.browser.conftest import sign_up
from tests.games.engines.toy_board import TOY_BOARD
from tests.games.factories import logged

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


def test_sign_up_play_by_clicking_the_board_see_the_result_and_replay(
    live_server, browser_page, monkeypatch
):
    monkeypatch.setitem(registry.ENGINES, TOY_BOARD.slug, TOY_BOARD)
    page = browser_page
    sign_up(page, live_server.url, "newcomer")
    page.click("text=Play now")
    page.wait_for_url(f"{live_server.url}/play/")
    # Two seats: the rows for seats 3-5 are hidden, and so is the name field of a bot seat.
    assert page.locator("#id_seat_2").is_hidden() and page.locator("#id_seat_1_name").is_hidden()
    page.select_option("#id_game", TOY_BOARD.slug)
    page.select_option("#id_seat_1", "random")
    with celery_worker(settings_module="tests.browser.toy_settings"):
        page.click("main button[type=submit]")
        page.wait_for_url(re.compile(r"/matches/\d+/$"))
        match = Match.objects.get()
        assert match.created_by.username == "newcomer"
        clicks = board_clicks = 0
        while clicks < 200:
            page.wait_for_selector(
                ".board .legal, #board-choices button, #result-banner", timeout=30_000
            )
            if page.locator("#result-banner").count():
                break
            ply = page.get_attribute("#match-live", "data-ply")
            legal = page.locator(".board .legal")
            if legal.count():
                legal.first.click()
                board_clicks += 1
                # A hand card narrows the choice to bank or discard: click the next part.
                if page.locator(".board .picked").count():
                    page.locator(".board .legal").first.click()
                    board_clicks += 1
            else:
                page.locator("#board-choices button").first.click()
            clicks += 1
            # A selector, not a JS predicate: Playwright evaluates those with eval (CSP).
            page.wait_for_selector(
                f"#match-live:not([data-ply='{ply}']), #result-banner", state="attached"
            )
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    played = len(logged(match, source="player"))
    assert played == clicks and board_clicks > clicks  # every decision came from a click
    banner = page.locator("#result-banner").inner_text()
    assert "Final result" in banner and "newcomer" in banner
    # The header's badge goes within a poll of static/js/live-header.js (every 2 s).
    page.wait_for_selector("#turn-badge", state="detached", timeout=5_000)

    page.click("#result-banner >> text=Replay")
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/replay/")
    last = match.ply
    page.keyboard.press("End")
    page.wait_for_selector(f"#replay[data-ply='{last}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"#replay[data-ply='{last - 1}']")
    page.click("[data-step=first]")
    page.wait_for_selector("#replay[data-ply='0']")
    page.click("[data-step=play]")
    page.wait_for_selector("#replay[data-ply='2']")
    page.click("[data-step=play]")  # pause
    paused = page.get_attribute("#replay", "data-ply")
    page.wait_for_timeout(1500)
    assert page.get_attribute("#replay", "data-ply") == paused
    page.click("#replay-moves li[data-ply='5'] a")
    page.wait_for_selector("#replay[data-ply='5']")
    assert page.locator("#replay-moves li.current").get_attribute("data-ply") == "5"
    assert page.input_value("#replay-slider") == "5"
