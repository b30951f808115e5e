"""A player answers a match invitation in the browser, from the header's badge."""

import pytest

from games import services
from games.models import Match, MatchStatus
from tests.browser.conftest import log_in
from tests.games.factories import HumanPlayerFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_invited_player_accepts_from_the_header_badge_and_the_match_starts(
    live_server, browser_page
):
    page = browser_page
    alice = HumanPlayerFactory(user__username="alice")
    bob = HumanPlayerFactory(user__username="bob")
    match = services.create_match(game="silkroad", players=[alice, bob], created_by=alice.user)
    assert match.status == MatchStatus.PENDING

    log_in(page, live_server.url, "bob")
    badge = page.locator("header #invitation-badge")
    assert badge.inner_text() == "1"
    badge.click()
    page.wait_for_url(f"{live_server.url}/invitations/")
    assert "alice invites you" in page.locator("main").inner_text()
    page.locator(f"#invitation-{match.invitations.get().pk} button.accept").click()
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/")
    assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING
    assert page.locator(".board svg").count() == 1
    assert page.locator("header #invitation-badge").count() == 0
