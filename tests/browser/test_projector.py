"""The projector view on a club room's screen (1280x720 and 1920x1080): table numbers and
names, a running timer that counts down, the QR code; no sideways scrolling, pairings in
type of at least 24 px, every table of the page on the screen."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.pages import page_width, shot
from tests.games.factories import EngineBotFactory, UserFactory
from tournaments import services
from tournaments.services import table_names, timer

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Jana Nováková", "Petr Dvořák", 'Ota "Kára" Šimek', "Lucie Černá", "Radek, Jr.",
    "Eva Malá", "Maximilián Konstantin Dobrovolný-Přemyslovský", "Zdeňka Hrubá",
    "Tomáš Beneš", "Ivana Kratochvílová", "Ondřej Svoboda", "Kateřina Veselá",
    "Lukáš Procházka", "Alžběta Kučerová", "Vojtěch Pokorný", "Markéta Horáková",
]  # fmt: skip


@pytest.fixture
def club_night(live_server):
    organiser = UserFactory(username="olga")
    t = services.create_tournament(
        name="Hedvábná stezka — úterní švýcar", game="silkroad", format="swiss",
        organiser=organiser, config={"table_size": 2, "rounds": 4}, over_the_board=True,
        rated=False, auto_advance=False, seed=11, venue="Klubovna U Karavany",
    )  # fmt: skip
    for name in NAMES:
        services.add_entry(tournament=t, player=EngineBotFactory(display_name=name))
    services.start_tournament(tournament=t)
    table_names.set_table_names(
        tournament=t, by=organiser,
        names={"1": "by the window", "2": "by the bar", "5": "back room, left"},
    )  # fmt: skip
    rnd = t.rounds.get(number=1)
    services.start_round(round_=rnd)
    first = rnd.tables.order_by("number").first()
    services.record_result(table=first, ranks=[1, 2], scores=[41, 33])
    timer.start_timer(round_=rnd, by=organiser, minutes=50,
                      now=timezone.now() - timedelta(minutes=12, seconds=20))  # fmt: skip
    t.refresh_from_db()
    return t


def box_bottom(page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    return box["y"] + box["height"]


def _clock_seconds(page) -> int:
    minutes, seconds = page.locator(".screen-head .timer-clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def test_the_projector_view_reads_across_the_room(live_server, browser_page, club_night):
    page = browser_page
    t = club_night
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{live_server.url}/tournaments/{t.pk}/screen/")
        page.wait_for_selector(".screen-table")
        # Every table of the round (8: one page) on the screen, whole.
        tables = page.locator(".screen-table")
        assert tables.count() == 8
        for i in range(8):
            box = tables.nth(i).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (width, i)
        assert page.locator(".screen-table-number", has_text="Table 5").is_visible()
        assert page.locator(".screen-table-name", has_text="back room, left").is_visible()
        assert page.locator(".screen-table-name", has_text="by the window").is_visible()
        # No sideways scrolling, and nothing sticks out of the screen.
        assert page_width(page) <= width
        widest = page.evaluate(
            "Math.max(...[...document.querySelectorAll('body *')]"
            ".filter(e => !e.closest('.screen-standings-rows'))"
            ".map(e => e.getBoundingClientRect().right))"
        )
        assert widest <= width + 0.5, width
        # The standings show the rows that fit, each whole; the rest are clipped away whole.
        shown = page.evaluate(
            """() => { const list = document.querySelector('.screen-standings-rows');
            const box = list.getBoundingClientRect();
            return [...list.children].map(li => { const r = li.getBoundingClientRect();
              const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
              const outside = r.left >= box.right - 0.5;
              return inside ? 1 : outside ? 0 : -1; }); }"""
        )
        assert -1 not in shown and shown[0] == 1 and shown == sorted(shown, reverse=True)
        assert box_bottom(page, ".screen-qr") <= height
        # Pairings in big type.
        sizes = page.evaluate(
            "[...document.querySelectorAll('.screen-pairings li, .screen-pairings span')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes and min(sizes) >= 24, (width, min(sizes))
        # The QR code: a picture with a name, big enough to scan.
        qr = page.locator("svg.qr-code[role=img]")
        assert qr.is_visible() and "QR code" in qr.get_attribute("aria-label")
        assert qr.bounding_box()["width"] >= 150
        assert page.locator(".screen-standings-rows li").first.is_visible()

    # The timer counts down between the server's updates (and keeps going across them).
    page.wait_for_selector(".screen-head .round-timer.running")
    first = _clock_seconds(page)
    assert 50 * 60 - 12 * 60 - 25 <= first <= 50 * 60 - 12 * 60 - 15
    page.wait_for_timeout(2200)
    later = _clock_seconds(page)
    assert first - 4 <= later <= first - 1
    shot(page, "projector-1280-en")
    # A poll (every 5 s) replaces the partial and the clock goes on from the server's value.
    with page.expect_response(lambda r: "/screen/live/" in r.url):
        pass
    page.wait_for_timeout(300)
    assert _clock_seconds(page) < later
