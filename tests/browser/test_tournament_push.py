"""The tournament page and the projector by push, in Chromium, on the production web
server (tests/live_server.py): results and a started round reach the organiser's and a
spectator's pages and a one-page projector without a poll."""

from __future__ import annotations

import pytest

from tests.browser.pages import signed_in, until, watch_pushed
from tests.tournaments.factories import tournament_with_bots
from tests.tournaments.result_fixtures import club_event, tables_of
from tournaments import services
from tournaments.services import results

pytestmark = pytest.mark.django_db(transaction=True)

FEED = "() => document.getElementById('tournament-live').dataset.liveFeed"


def test_results_reach_the_organiser_and_a_spectator_without_a_poll(browser_page, server):
    t, _players = club_event(n=4, rounds=2)
    boss = browser_page
    signed_in(boss, server, t.organiser)
    other = boss.context.browser.new_context()
    watcher = other.new_page()
    try:
        asked_boss = watch_pushed(boss, f"{server}/tournaments/{t.pk}/")
        asked = watch_pushed(watcher, f"{server}/tournaments/{t.pk}/")
        shown, shown_boss = watcher.evaluate(FEED), boss.evaluate(FEED)
        assert shown_boss.endswith(".m")  # the organiser's own copy, with her forms
        boss.wait_for_timeout(2500)  # a 2 s poll would have left by now
        tables = tables_of(t, 1)
        results.set_result(table=tables[0], by=t.organiser, scores=[30, 10], tiebreak=[1, 2])
        until(watcher, f"() => {FEED[6:]} !== {shown!r}")
        until(boss, f"() => {FEED[6:]} !== {shown_boss!r}")
        assert "(30)" in watcher.locator("#tournament-live").inner_html()
        assert "enter result" in boss.locator("#tournament-live").inner_html()
        # A second push after the first swap lands too (the new element names the feed).
        results.set_result(table=tables[1], by=t.organiser, scores=[30, 10], tiebreak=[1, 2])
        until(watcher, "() => document.querySelectorAll('#tournament-live .score').length >= 4")
        polls = [u for u in asked + asked_boss if "/live/" in u or "/events/" in u]
        assert polls == [], polls
    finally:
        other.close()


def test_a_one_page_projector_takes_the_pushed_round(browser_page, server):
    t = tournament_with_bots(n=4, config={"table_size": 2, "rounds": 2}, over_the_board=True,
                             auto_advance=False)  # fmt: skip
    round_ = services.start_tournament(tournament=t)
    page = browser_page
    asked = watch_pushed(page, f"{server}/tournaments/{t.pk}/screen/")
    services.start_round(round_=round_)
    until(page, "() => document.querySelectorAll('#screen-live .status-playing').length", 2)
    assert [u for u in asked if "/screen/live/" in u] == []
