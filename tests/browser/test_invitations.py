"""Two people play each other in the browser: one challenges the other from his player
page, the other accepts from the header's badge, and both make a move by clicking the
board (two Chromium contexts, one per person)."""

import random
import re

import pytest

from games import services
from games.models import Match, MatchStatus
from tests.browser.conftest import decide_by_clicking, log_in, wait_for_my_decision
from tests.games.factories import HumanPlayerFactory, logged

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
    assert page.locator(".board svg.board-map").count() == 1
    assert page.locator("header #invitation-badge").count() == 0


def test_a_challenge_accepted_from_the_badge_and_both_players_click_a_move(
    live_server, browser_page
):
    HumanPlayerFactory(user__username="alice")
    HumanPlayerFactory(user__username="bob")
    rng = random.Random(14)
    alice = browser_page
    bob = alice.context.browser.new_page()
    bob.set_default_timeout(20_000)

    log_in(alice, live_server.url, "alice")
    alice.goto(f"{live_server.url}/players/bob/")
    alice.click("a.challenge")
    alice.wait_for_url(re.compile(r"/play/\?opponent=bob$"))
    assert (
        alice.input_value("#id_seat_1") == "invite"
        and alice.input_value("#id_seat_1_name") == "bob"
    )
    alice.select_option("#id_game", "silkroad")
    alice.click("main button[type=submit]")
    alice.wait_for_url(re.compile(r"/matches/\d+/$"))
    match = Match.objects.get()
    assert match.status == MatchStatus.PENDING

    log_in(bob, live_server.url, "bob")
    bob.locator("header #invitation-badge").click()
    bob.wait_for_url(f"{live_server.url}/invitations/")
    bob.locator(f"#invitation-{match.invitations.get().pk} button.accept").click()
    bob.wait_for_url(f"{live_server.url}/matches/{match.pk}/")

    # Both pages notice the start by themselves (Alice's was waiting for Bob). Whoever the
    # game lets start moves until it is the other's turn; the other then answers once.
    pages = {0: alice, 1: bob}
    first = Match.objects.get().to_act
    moves = {0: 0, 1: 0}
    while wait_for_my_decision(pages[first]):
        decide_by_clicking(pages[first], rng)
        moves[first] += 1
        if Match.objects.get().to_act != first:
            break
    second = 1 - first
    assert wait_for_my_decision(pages[second])
    decide_by_clicking(pages[second], rng)
    moves[second] += 1
    played = logged(match, source="player")
    assert moves[first] >= 1 and moves[second] == 1
    assert [sum(1 for d in played if d.seat == s) for s in (0, 1)] == [moves[0], moves[1]]
    for page in (alice, bob):
        assert page.locator("details.fallback[open]").count() == 0
