"""The match page by push, in Chromium: pages served by the production web server (the
ASGI app, tests/live_server.py); a move made through the services reaches the seated
player's page and a spectator's page over the stream, and neither page polls."""

from __future__ import annotations

import random

import pytest

from games import services
from tests.browser.conftest import click_first_listed_action
from tests.browser.pages import signed_in, until, watch_pushed
from tests.games.factories import HumanPlayerFactory, play_random_move

pytestmark = pytest.mark.django_db(transaction=True)


def test_moves_reach_the_seated_and_the_spectator_pages_without_a_poll(browser_page, server):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=11)
    mine = browser_page
    signed_in(mine, server, alice.user)
    spectator_context = mine.context.browser.new_context()
    watcher = spectator_context.new_page()
    try:
        asked_mine = watch_pushed(mine, f"{server}/matches/{match.pk}/")
        asked_watcher = watch_pushed(watcher, f"{server}/matches/{match.pk}/")
        assert mine.locator("#match-announcer").get_attribute("data-seat") == "0"
        rng = random.Random(5)
        for _ in range(4):
            match = play_random_move(match, [alice, bob], rng)
            for page in (mine, watcher):
                until(
                    page, "() => (document.getElementById('live-ply') || {}).value", str(match.ply)
                )
        # She plays on her page; the spectator sees it, then the next decision reaches her.
        while match.to_act != 0:
            match = play_random_move(match, [alice, bob], rng)
        until(mine, "() => document.querySelectorAll('button.act').length > 0")
        before = match.ply
        click_first_listed_action(mine)
        for _ in range(50):
            match.refresh_from_db()
            if match.ply > before:
                break
            mine.wait_for_timeout(100)
        assert match.ply == before + 1
        until(watcher, "() => (document.getElementById('live-ply') || {}).value", str(match.ply))
        match = play_random_move(match, [alice, bob], rng)
        until(mine, "() => (document.getElementById('live-ply') || {}).value", str(match.ply))
        # The log shows the moves on both pages, numbered.
        assert watcher.locator("#match-log li").count() >= 4
        polls = [u for u in asked_mine + asked_watcher if "/live/" in u or "/header/counts/" in u]
        assert polls == [], polls
        assert not [u for u in asked_watcher if "/events/" in u]  # one stream, kept open
    finally:
        spectator_context.close()
