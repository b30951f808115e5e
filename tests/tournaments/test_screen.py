"""The projector view: public, without the site's chrome, the current pairings by table
(numbers, names, seats in order, who starts), the standings, the round timer and a QR
code to the tournament's page; its partial is polled and pages through many tables."""

import re
from datetime import timedelta

import pytest
import segno
from django.test import Client
from django.utils import timezone, translation

from tests.config.test_i18n import CZECH
from tests.games.factories import EngineBotFactory, UserFactory
from tournaments import services
from tournaments.services import table_names, timer

pytestmark = pytest.mark.django_db

NAMES = ["Anna Nováková", "Bořek Malý", "Cecílie Dvořák", "David Šimek", "Eva Černá", "Filip"]


@pytest.fixture(autouse=True)
def _back_to_english():
    yield
    translation.activate("en")  # a Czech request leaves Czech active in this thread


def _event(n=6, table_size=2, organiser=None, start=True, **kwargs):
    organiser = organiser or UserFactory()
    t = services.create_tournament(
        name="Klubový večer", game="silkroad", format="swiss", organiser=organiser,
        config={"table_size": table_size, "rounds": 3}, over_the_board=True, rated=False,
        auto_advance=False, seed=3, venue="Klubovna", **kwargs,
    )  # fmt: skip
    for i in range(n):
        bot = EngineBotFactory(display_name=NAMES[i] if i < len(NAMES) else f"Hráč {i + 1}")
        entry = services.add_entry(tournament=t, player=bot)
        entry.seed = i + 1
        entry.save(update_fields=["seed"])
    if start:
        services.start_tournament(tournament=t)
        t.refresh_from_db()
    return t


def test_the_screen_is_public_without_chrome_and_shows_tables_by_seat():
    t = _event()
    table_names.set_table_names(tournament=t, names={"1": "by the window"}, by=t.organiser)
    response = Client().get(f"/tournaments/{t.pk}/screen/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-cache"
    html = response.content.decode()
    assert 'class="topbar"' not in html and "<footer" not in html  # no site header / footer
    assert "css/screen.css" in html and "js/round-timer.js" in html
    assert 'style="' not in html  # the Content-Security-Policy refuses inline styles
    assert f'hx-get="/tournaments/{t.pk}/screen/live/?tick=1&amp;v=' in html
    assert 'hx-trigger="every 5s"' in html
    rnd = t.rounds.get(number=1)
    tables = list(rnd.tables.order_by("number"))
    assert len(tables) == 3
    cards = re.findall(r'<li class="screen-table.*?</ol>\s*</li>', html, re.S)
    assert len(cards) == 3
    for table, card in zip(tables, cards, strict=True):
        assert f"Table {table.number}<" in card
        seated = [str(s.entry.player) for s in table.seats.order_by("index")]
        # Seat 1 first, marked as the one who starts; then the others in seat order.
        positions = [card.index(name) for name in seated]
        assert positions == sorted(positions), card
        assert card.index("starts") > positions[0] and card.index("starts") < positions[1]
    assert '<span class="screen-table-name">by the window</span>' in cards[0]
    assert "by the window" not in cards[1]
    # Standings: every entrant, named.
    side = html[html.index('class="screen-standings"') :]
    assert all(name in side for name in NAMES)


def test_the_qr_code_is_an_inline_svg_with_a_name_and_opens_my_table():
    t = _event()
    html = Client().get(f"/tournaments/{t.pk}/screen/", HTTP_HOST="localhost").content.decode()
    url = f"http://localhost/tournaments/{t.pk}/#my-table"
    assert f'<a class="screen-qr" href="{url}">' in html
    svg = re.search(r"<svg [^>]*>.*?</svg>", html, re.S).group(0)
    assert 'role="img"' in svg and 'aria-label="QR code: the tournament' in svg
    # The code is the page's address (the same symbol segno draws for it).
    expected = segno.make(url, error="m").svg_inline(scale=1, border=4, omitsize=True)
    path = re.search(r'd="([^"]+)"', expected).group(1)
    assert path in svg


def test_the_timer_is_computed_on_the_server_and_runs_in_the_partial():
    t = _event()
    rnd = t.rounds.get(number=1)
    services.start_round(round_=rnd)
    html = Client().get(f"/tournaments/{t.pk}/screen/live/?tick=3").content.decode()
    assert "data-round-timer" not in html  # no length set: no timer shown
    assert f'hx-get="/tournaments/{t.pk}/screen/live/?tick=4&amp;v=' in html
    timer.start_timer(round_=rnd, by=t.organiser, minutes=45,
                      now=timezone.now() - timedelta(seconds=125))  # fmt: skip
    html = Client().get(f"/tournaments/{t.pk}/screen/live/").content.decode()
    remaining = int(re.search(r'data-remaining-s="(\d+)"', html).group(1))
    assert 45 * 60 - 127 <= remaining <= 45 * 60 - 125
    assert 'data-running="true"' in html and 'role="timer"' in html
    assert f">{remaining // 60}:{remaining % 60:02d}<" in html
    timer.pause_timer(round_=rnd, by=t.organiser)
    html = Client().get(f"/tournaments/{t.pk}/screen/live/").content.decode()
    assert 'data-running="false"' in html and "Paused" in html


def test_one_page_of_tables_answers_204_until_something_on_it_moves(
    django_assert_max_num_queries,
):
    t = _event()
    rnd = t.rounds.get(number=1)
    base = f"/tournaments/{t.pk}/screen/live/"

    def next_poll(html):
        return re.search(r'hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")

    poll = next_poll(Client().get(base).content.decode())
    with django_assert_max_num_queries(2):  # the version and the rounds' timers
        same = Client().get(poll)
    assert same.status_code == 204 and same.content == b""
    timer.start_timer(round_=rnd, by=t.organiser, minutes=30)
    moved = Client().get(poll)
    assert moved.status_code == 200 and 'data-running="true"' in moved.content.decode()
    poll = next_poll(moved.content.decode())
    assert Client().get(poll).status_code == 204
    services.start_round(round_=rnd)
    assert Client().get(poll).status_code == 200


def test_many_tables_are_shown_a_page_at_a_time():
    t = _event(n=30)  # 15 tables of two: 10 a page
    base = f"/tournaments/{t.pk}/screen/live/"

    def numbers(tick):
        html = Client().get(f"{base}?tick={tick}").content.decode()
        return [int(n) for n in re.findall(r'screen-table-number">Table (\d+)<', html)], html

    first, html = numbers(0)
    assert first == list(range(1, 11)) and "page 1 of 2" in html
    assert numbers(1)[0] == first  # a page stays for two polls
    second, html = numbers(2)
    assert second == list(range(11, 16)) and "page 2 of 2" in html
    assert numbers(4)[0] == first  # and round again
    assert numbers("x")[0] == first  # a made-up tick: the first page
    assert "&amp;v=" not in html  # pages turn over: every poll is drawn


def test_before_the_start_and_in_czech():
    t = _event(start=False, starts_at=timezone.now() + timedelta(days=2))
    html = Client().get(f"/tournaments/{t.pk}/screen/").content.decode()
    assert "6 entrants so far." in html and "Starts" in html
    t = _event()
    czech = Client().get(f"/tournaments/{t.pk}/screen/", **CZECH).content.decode()
    assert '<html lang="cs"' in czech and "Pořadí" in czech  # Standings
    assert "Stůl 1" in czech and "Table 1" not in czech


def test_an_unknown_tournament_is_404():
    assert Client().get("/tournaments/999999/screen/").status_code == 404
    assert Client().get("/tournaments/999999/screen/live/").status_code == 404


def test_a_withdrawn_entrant_is_marked_and_unranked_on_the_screen():
    t = _event()
    gone = t.entries.get(player__display_name=NAMES[1])
    services.withdraw_entry(entry=gone)
    html = Client().get(f"/tournaments/{t.pk}/screen/live/").content.decode()
    row = re.search(r'<li class="withdrawn">(.*?)</li>', html).group(1)
    assert NAMES[1] in row and "withdrawn" in row
    assert '<span class="standing-rank">—</span>' in row
