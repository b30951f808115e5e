"""The header's counts and the match list by push, in Chromium, on the production web
server (tests/live_server.py): an invitation lights the invitee's badge and the new match
shows in her open list over the page's one stream, and neither polls meanwhile."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from games import services
from tests.browser.pages import signed_in, until, watch_pushed
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_invitation_lights_the_badge_and_lists_the_match_without_a_poll(browser_page, server):
    alice, bob = HumanPlayerFactory(), HumanPlayerFactory()
    page = browser_page
    signed_in(page, server, alice.user)
    asked = watch_pushed(page, f"{server}/matches/")
    assert page.locator("header #invitation-badge").count() == 0
    page.wait_for_timeout(2500)  # longer than both polls' periods (2 s)

    match = services.create_match(game="silkroad", players=[bob, alice], created_by=bob.user)
    until(page, "() => (document.getElementById('invitation-badge') || {}).textContent", "1")
    until(page, f"() => !!document.querySelector('#match-rows a[href=\"/matches/{match.pk}/\"]')")
    assert page.inner_text("header .menu-toggle #menu-count") == "1"
    polls = [u for u in asked if urlsplit(u).path in ("/header/counts/", "/matches/")]
    assert polls == [], polls
