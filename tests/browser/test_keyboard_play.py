"""A keyboard-only player (Tab, the arrow keys, Enter and Space; no mouse) makes ten
decisions in every game against a bot: the skip link leads to the board, the legal parts are
named buttons with one Tab stop between them, and after every move the focus comes back to
the next decision rather than to the top of the page (static/js/board.js, Chromium)."""

import random

import pytest

from config.worker_process import celery_worker
from games.models import Match, MatchStatus
from tests.browser.decisions import (
    GAMES,
    answered,
    focused,
    ply,
    start_against_a_bot,
    wait_for_decision,
)
from tests.games.factories import logged

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]

TEN = 10


def wait_for_focus_on_the_decision(page) -> dict:
    """The focus is on a legal part or a choice button once the page has set it up."""
    for _ in range(50):
        now = focused(page)
        if now["key"] or now["choice"]:
            return now
        page.wait_for_timeout(100)
    raise AssertionError(f"focus is not on the decision but on {now}")


def decide_by_keyboard(page, rng) -> int:
    """One decision with the keys only; returns the key presses it took."""
    before = ply(page)
    presses = 0
    for _ in range(12):
        now = wait_for_focus_on_the_decision(page)
        if now["key"]:
            assert now["role"] == "button" and now["name"].strip(), now  # named, for screen readers
            # The browser's accessibility tree has the same button by that name.
            assert page.get_by_role("button", name=now["name"].strip(), exact=True).count()
            stops = page.locator("#board [data-key]").count()
            assert page.locator("#board [data-key][tabindex='0']").count() == 1  # one Tab stop
            for _ in range(rng.randrange(stops)):
                page.keyboard.press(rng.choice(["ArrowRight", "ArrowDown"]))
                presses += 1
            page.keyboard.press(rng.choice(["Enter", " "]))
        else:
            for _ in range(rng.randrange(page.locator("#board-choices button").count())):
                page.keyboard.press("Tab")
                presses += 1
            page.keyboard.press("Enter")
        presses += 1
        state = page.locator(f"{answered(before)}, #board").first.get_attribute("data-picked")
        if state in ("sent", None):
            break
    page.wait_for_selector(answered(before), state="attached")
    return presses


@pytest.mark.parametrize("slug", GAMES)
def test_a_keyboard_player_makes_ten_decisions(live_server, browser_page, slug):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 800})
    rng = random.Random(f"keys-{slug}")
    with celery_worker():
        start_against_a_bot(page, live_server.url, slug, f"keys-{slug}")
        match = Match.objects.get()
        assert wait_for_decision(page)
        page.wait_for_timeout(300)
        # The skip link is the page's first Tab stop and leads into the board.
        page.keyboard.press("Tab")
        assert focused(page)["id"] == "skip-to-board"
        page.keyboard.press("Enter")
        decisions = presses = 0
        while decisions < TEN:
            assert wait_for_decision(page)
            presses += decide_by_keyboard(page, rng)
            decisions += 1
            # Between moves (the bot's turn) the focus waits on the board, never the page top.
            now = focused(page)
            assert now["tag"] != "BODY" and (now["key"] or now["choice"] or now["id"] == "board"), (
                now
            )
    print(f"\n{slug}: {decisions} decisions by keyboard, {presses} key presses")
    assert page.locator("details.fallback[open]").count() == 0  # the list was never used
    assert len(logged(match, seat=0, source="player")) == TEN
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


def test_escape_resets_a_half_made_choice_and_the_announcer_speaks(live_server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 800})
    with celery_worker():
        # Silk Road's first decision takes a hand card, then a caravan: two steps.
        start_against_a_bot(page, live_server.url, "silkroad", "keys-escape")
        assert wait_for_decision(page)
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        wait_for_focus_on_the_decision(page)
        first = focused(page)["target"]
        assert first.startswith("hand:")
        page.keyboard.press("Enter")
        page.wait_for_selector("#board[data-picked='1']", state="attached")
        assert not focused(page)["target"].startswith("hand:")  # on to the caravans
        assert page.locator("#board-reset").is_visible()
        page.keyboard.press("Escape")
        page.wait_for_selector("#board[data-picked='0']", state="attached")
        assert focused(page)["target"] == first
        announced = page.locator("#match-announcer").text_content()
        assert announced.startswith("Your move: Choose a caravan to move")
