"""The match page by push, in Chromium: pages served by the production web server (the
ASGI app, tests/live_server.py); a move made through the services reaches the seated
player's page and a spectator's page over the stream, and neither page polls."""

from __future__ import annotations

import random
import time

import pytest
from django.test import Client

from games import services
from tests.games.factories import HumanPlayerFactory, play_random_move
from tests.live_server import push_server

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    with push_server(tmp_path_factory.mktemp("push-browser")) as url:
        yield url


def _until(page, function: str, expected=True, timeout: float = 10.0):
    """Poll `function` in the page until it returns `expected` (page.wait_for_function
    would compile a string, which the Content-Security-Policy forbids)."""
    deadline = time.monotonic() + timeout
    while (value := page.evaluate(function)) != expected:
        assert time.monotonic() < deadline, f"{function} gave {value!r}, not {expected!r}"
        page.wait_for_timeout(50)


def _watch(page, url: str) -> list[str]:
    """Open `url`; returns the list the page's later requests are added to."""
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    _until(page, "() => !!(window.caravanLive && window.caravanLive.open)")
    requests.clear()  # from here on: only what the open page asks for
    return requests


def test_moves_reach_the_seated_and_the_spectator_pages_without_a_poll(browser_page, server):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    match = services.create_match(game="silkroad", players=[alice, bob], seed=11)
    client = Client()
    client.force_login(alice.user)
    host = server.removeprefix("http://").split(":")[0]
    mine = browser_page
    mine.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "domain": host, "path": "/"}])  # fmt: skip
    spectator_context = mine.context.browser.new_context()
    watcher = spectator_context.new_page()
    try:
        asked_mine = _watch(mine, f"{server}/matches/{match.pk}/")
        asked_watcher = _watch(watcher, f"{server}/matches/{match.pk}/")
        assert mine.locator("#match-announcer").get_attribute("data-seat") == "0"
        rng = random.Random(5)
        for _ in range(4):
            match = play_random_move(match, [alice, bob], rng)
            for page in (mine, watcher):
                _until(
                    page, "() => (document.getElementById('live-ply') || {}).value", str(match.ply)
                )
        # The log shows the moves on both pages, numbered; the seated page still offers
        # her her choices when it is her turn.
        assert watcher.locator("#match-log li").count() >= 4
        polls = [u for u in asked_mine + asked_watcher if "/live/" in u or "/header/counts/" in u]
        assert polls == [], polls
        assert not [u for u in asked_watcher if "/events/" in u]  # one stream, kept open
    finally:
        spectator_context.close()
